"""A review of a finished match: each decision of each seat, graded by what the seat could know at that moment.

The match is played again from its rules, seed (or fair deal) and actions. At each decision the seat's view is
rebuilt (its own hand and the public table: never another hand) with its legal actions and the action it took.
A decision with one legal action is ``forced`` and not searched. Otherwise Hard's determinized search estimates
each candidate (Medium's candidates, :func:`.hard.candidates`, and the action taken) on the SAME sampled deals,
drawn from :data:`.hard.DEAL_SOURCE` (deals consistent with what the seat saw) by a generator seeded from the
match seed and the decision's number (reproducible):

- a Medium playout per deal and candidate (:func:`.playouts.playouts_for`, no first-place bonus) gives the place
  reached, so the points (``players − 1 − place``) and whether it is first;
- when few cards remain (:func:`.hard.in_endgame`) the exact endgame search (:func:`.endgame.forced_moves`) on
  each deal overrides it: a move proved to force going out next (first, when nobody is out yet) gets that
  place; one proved not to (the other seats can stop it) never does.

A candidate's *value* is ``first_chance + points / POINTS_PER_FIRST`` (Hard's playout value, scaled so one
first place is 1). The *loss* of a decision is the best candidate's value minus the taken action's (0 when the
taken action is the best), and the grade is the first of :data:`THRESHOLDS` it reaches (else ``good``). Each
graded decision is explained in the hint's words (:mod:`.explain`): why the best action, and what the taken one did.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..engine.cards import format_mask
from ..engine.deal import FairDeal
from ..engine.match import LegalPlays, Match
from ..engine.rules import RuleSet
from ..engine.views import SeatView, seat_view
from .base import PASS_ACTION, Action, play_action
from .endgame import forced_moves
from .explain import Explanation, reasons, words
from .hard import DEAL_EVENTS, DEAL_SOURCE, ENDGAME_NODES, candidates, hidden_cards_known, in_endgame
from .infer import action_events
from .medium import choose_medium
from .playouts import playouts_for

# The grades, best first; "forced" is a decision with one legal action (not searched, not graded).
GRADES: tuple[str, ...] = ("forced", "good", "inaccuracy", "mistake", "blunder")
# The loss (in first places: 1 = a sure first place thrown away) from which a decision gets each grade, worst first.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.30), ("mistake", 0.15), ("inaccuracy", 0.06))
# Points (players − 1 − place) worth one first place in a candidate's value: Hard's first-place bonus.
POINTS_PER_FIRST = 20.0


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """The search a decision gets: sampled deals, candidates compared (the taken action added), endgame nodes.

    Counts only (no clock): the same match and budget always give the same review.
    """

    deals: int = 256
    candidates: int = 5
    endgame_nodes: int = ENDGAME_NODES


DEFAULT_REVIEW_BUDGET = ReviewBudget()


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate's expected outcome over the sampled deals: first-place chance and points (0..players − 1)."""

    first: float
    points: float

    @property
    def value(self) -> float:
        """The value the grade compares: ``first + points / POINTS_PER_FIRST``."""
        return self.first + self.points / POINTS_PER_FIRST


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat: where (hand number, action index from 1 in the hand), what was taken, what was best.

    ``taken`` and ``best`` are card masks (0 = pass). A forced decision has no estimates, no loss and no
    explanations; ``best`` is then the taken action.
    """

    hand_number: int
    index: int
    seat: int
    taken: int
    best: int
    grade: str
    loss: float = 0.0
    taken_estimate: Estimate | None = None
    best_estimate: Estimate | None = None
    deals: int = 0
    best_why: Explanation | None = None
    taken_why: Explanation | None = None

    @property
    def best_words(self) -> str | None:
        """Why the best action, in the hint's words (None for a forced decision)."""
        return None if self.best_why is None else words(self.best_why)

    @property
    def taken_words(self) -> str | None:
        """What the taken action did, in the hint's words (None for a forced decision)."""
        return None if self.taken_why is None else words(self.taken_why)


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of a match in order of play."""

    decisions: tuple[Decision, ...]

    def of_seat(self, seat: int) -> tuple[Decision, ...]:
        """The seat's decisions in order."""
        return tuple(d for d in self.decisions if d.seat == seat)


def grade_of(loss: float) -> str:
    """The grade of an unforced decision with this loss (:data:`THRESHOLDS`)."""
    for grade, threshold in THRESHOLDS:
        if loss >= threshold:
            return grade
    return "good"


def review_rng(seed: int, decision: int) -> random.Random:
    """The generator of a decision's search: from the match seed and the decision's number (hashed)."""
    return random.Random(hashlib.sha256(f"tienlen-review:{seed}:{decision}".encode()).digest())


def options(legal: LegalPlays) -> int:
    """How many legal actions the seat on turn has (its plays, and a pass when allowed)."""
    return len(legal.plays) + (1 if legal.can_pass else 0)


def _action(mask: int) -> Action:
    return PASS_ACTION if mask == 0 else play_action(mask)


def estimate(
    view: SeatView, legal: LegalPlays, moves: Sequence[int], rng: random.Random, budget: ReviewBudget
) -> list[Estimate]:
    """Each move's (masks; 0 = pass) expected outcome over the same sampled deals consistent with ``view``."""
    deals = DEAL_SOURCE(view, action_events(view, DEAL_EVENTS), rng)
    runner = playouts_for(view, 0.0)
    endgame = in_endgame(view)
    count = 1 if hidden_cards_known(view) else budget.deals  # the only deal, when the hidden cards are known
    top = float(view.players - 1)
    out = sum(1 for place in view.public.places if place is not None)  # seats already out: the search's "first"
    reached = top - out  # is the next place, worth these points
    firsts = [0.0] * len(moves)
    points = [0.0] * len(moves)
    for _ in range(count):
        hands = deals.next_deal()
        values = runner.values(hands, list(moves))
        proved: dict[int, bool | None] = {}
        if endgame:
            proved, _nodes = forced_moves(
                hands,
                view.seat,
                view.table,
                view.table_seat,
                view.locked,
                view.rules.bombs,
                view.rules.pass_reentry_with_bomb,
                node_limit=budget.endgame_nodes,
            )
        for i, (move, (value, _steps)) in enumerate(zip(moves, values, strict=True)):
            wins = proved.get(move)
            if wins is True:
                value = reached
            elif wins is False:
                value = min(value, reached - 1)  # the other seats can stop it going out next
            firsts[i] += 1.0 if value >= top else 0.0
            points[i] += value
    return [Estimate(f / count, p / count) for f, p in zip(firsts, points, strict=True)]


def review_decision(
    view: SeatView, legal: LegalPlays, taken: int, rng: random.Random, budget: ReviewBudget = DEFAULT_REVIEW_BUDGET
) -> tuple[int, float, str, Estimate, Estimate, int]:
    """An unforced decision: (best move, loss, grade, taken's estimate, best's estimate, deals searched)."""
    medium = choose_medium(view, legal, rng)
    moves = candidates(view, legal, medium)[: budget.candidates]
    if taken not in moves:
        moves.append(taken)
    found = estimate(view, legal, moves, rng, budget)
    mine = found[moves.index(taken)]
    best_index = max(range(len(moves)), key=lambda i: (found[i].value, moves[i] == taken))
    best = found[best_index]
    loss = max(0.0, best.value - mine.value)
    if loss <= 1e-9:
        return taken, 0.0, "good", mine, mine, 1 if hidden_cards_known(view) else budget.deals
    return moves[best_index], loss, grade_of(loss), mine, best, 1 if hidden_cards_known(view) else budget.deals


Progress = Callable[[int, int], None]  # (actions reviewed, actions in all)


def review_hands(
    rules: RuleSet,
    seed: int,
    hands: Sequence[Sequence[tuple[int, int]]],
    *,
    first_deal: Sequence[int] | None = None,
    fair: FairDeal | None = None,
    budget: ReviewBudget = DEFAULT_REVIEW_BUDGET,
) -> Iterator[tuple[list[Decision], int, int]]:
    """Review the match hand by hand: each hand's decisions with the actions reviewed so far and in all.

    A caller may run each step where it likes (a server runs them off its event loop, recording the progress
    between two). The arguments are :func:`review_match`'s.
    """
    first = [format_mask(m) for m in first_deal] if first_deal else None
    match, _ = Match.new(rules, random.Random(seed), first, fair=fair)
    total = sum(len(actions) for actions in hands)
    done = 0
    for hand in hands:
        number = match.hand_number
        decisions: list[Decision] = []
        for index, (seat, mask) in enumerate(hand, start=1):
            view, legal = seat_view(match, seat), match.legal_plays()
            if options(legal) <= 1:
                decisions.append(Decision(number, index, seat, mask, mask, "forced"))
            else:
                rng = review_rng(seed, done)
                best, loss, grade, mine, top, deals = review_decision(view, legal, mask, rng, budget)
                why_best, why_taken = reasons(view, legal, _action(best)), reasons(view, legal, _action(mask))
                decisions.append(
                    Decision(number, index, seat, mask, best, grade, loss, mine, top, deals, why_best, why_taken)
                )
            if mask:
                match.play(seat, mask)
            else:
                match.pass_turn(seat)
            done += 1
        yield decisions, done, total


def review_match(
    rules: RuleSet,
    seed: int,
    hands: Sequence[Sequence[tuple[int, int]]],
    *,
    first_deal: Sequence[int] | None = None,
    fair: FairDeal | None = None,
    budget: ReviewBudget = DEFAULT_REVIEW_BUDGET,
    progress: Progress | None = None,
) -> Review:
    """The review of a match from its rules, seed (and first deal or fair deal) and each hand's actions.

    ``hands`` holds each hand's actions as (seat, card mask; 0 = a pass), as a replay lists them. The match is
    replayed through the engine (an action it refuses raises its error). ``progress`` is told after each hand.
    """
    decisions: list[Decision] = []
    for found, done, total in review_hands(rules, seed, hands, first_deal=first_deal, fair=fair, budget=budget):
        decisions.extend(found)
        if progress is not None:
            progress(done, total)
    return Review(tuple(decisions))


__all__ = [
    "DEFAULT_REVIEW_BUDGET",
    "GRADES",
    "POINTS_PER_FIRST",
    "THRESHOLDS",
    "Decision",
    "Estimate",
    "Review",
    "ReviewBudget",
    "estimate",
    "grade_of",
    "review_decision",
    "review_hands",
    "review_match",
    "review_rng",
]
