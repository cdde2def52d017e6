"""The first lesson for a newcomer: short steps on real cards, each checked by the engine.

The steps are declared once here, as data: each a position (the learner's hand,
the play on the table, whether the learner already passed in this battle, the
start card, the rules preset) and a goal (which kinds of action pass the step).
:func:`check` answers the engine's verdict on an action: whether it is legal,
by the one legal-play generator (:func:`.legal.seat_legal_masks`), the refusal
reason when it is not (:func:`.refusals.refusal`), and whether it meets the
goal. The words of each step (en and vi) are the web table's, under the step's
``id`` and the goal's key.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import cards_mask
from .combos import Combination, classify, is_bomb
from .errors import IllegalActionError
from .kinds import Kind
from .legal import seat_legal_masks
from .refusals import refusal
from .rules import PRESETS

PASS = "pass"  # a goal's word for the pass (beside the kinds of combination)
BOMB = "bomb"  # a goal's word for any play that beats the table as a bomb


@dataclass(frozen=True, slots=True)
class Position:
    """What the learner sees: its hand, the play to beat (empty when it leads), whether it passed in this battle
    (then only a bomb re-enters), the card an opening lead must hold (or None), and the rules preset."""

    hand: tuple[str, ...]
    table: tuple[str, ...] = ()
    locked: bool = False
    start_card: str | None = None
    preset: str = "standard"

    @property
    def hand_mask(self) -> int:
        """The hand as a card mask."""
        return cards_mask(self.hand)

    @property
    def table_combination(self) -> Combination | None:
        """The play to beat, classified (None when the learner leads)."""
        if not self.table:
            return None
        combo = classify(cards_mask(self.table))
        assert combo is not None, f"the lesson's table {self.table} is not a combination"
        return combo

    @property
    def start_index(self) -> int | None:
        """The start card's number, or None."""
        return None if self.start_card is None else cards_mask([self.start_card]).bit_length() - 1


@dataclass(frozen=True, slots=True)
class Goal:
    """What passes a step: ``key`` names it (the words' key), ``accepts`` the kinds of combination (their wire
    names), ``"bomb"`` for any bomb, ``"pass"`` for the pass; any legal action passes when ``accepts`` is empty."""

    key: str
    accepts: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the lesson: its id (the words' key), the position and the goal."""

    id: str
    position: Position
    goal: Goal


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's verdict on an action in a step: ``legal`` (and ``reason``, the engine's refusal reason, when
    not; ``message`` its English words), and ``passed``: legal and meeting the step's goal."""

    passed: bool
    legal: bool
    reason: str | None = None
    message: str | None = None


FIRST_LESSON: tuple[Step, ...] = (
    Step(
        "lead_single",
        Position(hand=("4C", "7S", "7D", "9H", "QD")),
        Goal("lead_a_single", frozenset({Kind.SINGLE.value})),
    ),
    Step(
        "beat_single",
        Position(hand=("3D", "5S", "8C", "JD", "KH"), table=("7H",)),
        Goal("beat_the_single", frozenset({Kind.SINGLE.value})),
    ),
    Step(
        "pair",
        Position(hand=("5S", "5C", "9C", "9H", "JS", "QH"), table=("8S", "8D")),
        Goal("beat_the_pair", frozenset({Kind.PAIR.value})),
    ),
    Step(
        "straight",
        Position(hand=("4D", "5H", "6S", "7C", "9D", "KS")),
        Goal("lead_a_straight", frozenset({Kind.STRAIGHT.value})),
    ),
    Step(
        "pass_lock",
        Position(hand=("3C", "JH", "KD"), table=("9S",), locked=True),
        Goal("pass_when_locked", frozenset({PASS})),
    ),
    Step(
        "bomb",
        Position(hand=("5S", "6S", "6C", "6D", "6H", "9H"), table=("2S",)),
        Goal("bomb_the_two", frozenset({BOMB})),
    ),
    Step(
        "start_card",
        Position(hand=("3S", "3C", "5D", "8S", "8H", "QC"), start_card="3S"),
        Goal("lead_with_the_start_card"),
    ),
)


def check(step: Step, cards: list[str] | None) -> Verdict:
    """The engine's verdict on an action in ``step``: ``cards`` played, or a pass when None.

    Cards that cannot be read are refused with the engine's reason (``unknown_card``, ``duplicate_cards``).
    """
    position = step.position
    table = position.table_combination
    accepts = step.goal.accepts
    if cards is None:
        if table is None:
            return Verdict(False, False, "cannot_pass_on_lead", "the leader of a battle must play")
        return Verdict(not accepts or PASS in accepts, True)
    try:
        mask = cards_mask(cards)
    except IllegalActionError as error:
        return Verdict(False, False, error.reason, str(error))
    hand = position.hand_mask
    rules = PRESETS[position.preset]
    start = position.start_index
    legal = seat_legal_masks(hand, table, rules.bombs, locked=position.locked, start_card=start)
    if mask not in legal:
        refused = refusal(hand, mask, table, start, position.locked, rules.bombs)
        return Verdict(False, False, refused.reason, str(refused))
    combo = classify(mask)
    assert combo is not None
    meets = not accepts or combo.kind.value in accepts or (BOMB in accepts and is_bomb(combo, table, rules.bombs))
    return Verdict(meets, True)
