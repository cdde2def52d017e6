"""Combinations (docs/rules.md §2), ordinary comparison (§3) and bombs (§4).

The bomb functions are derived from the bomb table declared in :mod:`.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .accel import CORE, KINDS
from .cards import CARD_TEXT, FIRST_TWO, NIBBLE_COUNT, TWO_RANK, Card, cards_of, indices
from .kinds import Kind
from .rules import BOMB_TABLE, Bombs

_SAME_RANK_KINDS = (None, Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR_OF_A_KIND)


@dataclass(frozen=True, slots=True)
class Combination:
    """A classified play: its kind, length, deciding card number and cards.

    ``length`` is the card count, except for consecutive pairs where it is the
    number of pairs (docs/rules.md §2). ``top`` is the deciding card's number.
    """

    kind: Kind
    length: int
    top: int
    mask: int

    @property
    def cards(self) -> list[Card]:
        """The cards, low to high."""
        return cards_of(self.mask)

    @property
    def text(self) -> list[str]:
        """Canonical wire text of the cards, low to high."""
        return [CARD_TEXT[i] for i in indices(self.mask)]

    @property
    def is_twos(self) -> bool:
        """A single, pair or triple of 2s."""
        return self.top >> 2 == TWO_RANK and self.kind in _TWOS_KINDS

    def __str__(self) -> str:
        return f"{self.kind.value} {' '.join(self.text)}"


_TWOS_KINDS = frozenset({Kind.SINGLE, Kind.PAIR, Kind.TRIPLE})


# Classifications already made (a combination is an immutable value): plays repeat within and across matches.
_CLASSIFIED: dict[int, Combination | None] = {}
_CLASSIFIED_LIMIT = 1 << 16
CLASSIFIED = _CLASSIFIED  # read-only for hot paths: ``CLASSIFIED.get(mask) or classify(mask)``


def classify(mask: int) -> Combination | None:
    """The combination these cards form, or None when they form none."""
    try:
        return _CLASSIFIED[mask]
    except KeyError:
        pass
    if len(_CLASSIFIED) >= _CLASSIFIED_LIMIT:
        _CLASSIFIED.clear()
    found = _CLASSIFIED[mask] = _classify(mask)
    return found


_SINGLE, _STRAIGHT, _RUN_OF_PAIRS = Kind.SINGLE, Kind.STRAIGHT, Kind.CONSECUTIVE_PAIRS


def _classify(mask: int) -> Combination | None:
    count = mask.bit_count()
    if count == 0:
        return None
    top = mask.bit_length() - 1
    if count == 1:
        return Combination(_SINGLE, 1, top, mask)
    top_rank = top >> 2
    low_rank = ((mask & -mask).bit_length() - 1) >> 2
    if low_rank == top_rank:
        return Combination(_SAME_RANK_KINDS[count], count, top, mask)  # type: ignore[arg-type]
    if top_rank == TWO_RANK:
        return None
    span = top_rank - low_rank + 1
    if span < 3:
        return None
    if count == span:
        per_rank = 1
    elif count == 2 * span:
        per_rank = 2
    else:
        return None
    shifted = mask >> (4 * low_rank)
    for _ in range(span):
        if NIBBLE_COUNT[shifted & 15] != per_rank:
            return None
        shifted >>= 4
    if per_rank == 1:
        return Combination(_STRAIGHT, count, top, mask)
    return Combination(_RUN_OF_PAIRS, span, top, mask)


python_classify = _classify  # the reference classification, whichever engine runs (docs/engine.md)


def _compiled_classify(mask: int) -> Combination | None:
    """:func:`_classify` by the compiled core (:mod:`.accel`); a mask beyond the 52 cards takes the Python path."""
    if mask >> 52 or CORE is None:
        return python_classify(mask)
    found = CORE.classify(mask)
    return None if found is None else Combination(KINDS[found[0]], found[1], found[2], mask)


if CORE is not None:  # the compiled core classifies what the cache has not seen
    _classify = _compiled_classify


def beats_ordinarily(play: Combination, table: Combination) -> bool:
    """Same kind, same length, higher deciding card (docs/rules.md §3)."""
    return play.kind is table.kind and play.length == table.length and play.top > table.top


# (bomb kind, bomb length, table kind, table length, table is 2s) for every bomb the table allows.
_BOMBINGS: dict[Bombs, frozenset[tuple[Kind, int, Kind, int, bool]]] = {
    bombs: frozenset(
        (shape.kind, shape.length, target.kind, target.length, twos)
        for shape, targets in rows.items()
        for target in targets
        for twos in ((True,) if target.twos else (True, False))
    )
    for bombs, rows in BOMB_TABLE.items()
}


def bomb_beats(play: Combination, table: Combination, bombs: Bombs) -> bool:
    """Whether ``play`` beats ``table`` through a row of the bomb table (docs/rules.md §4)."""
    return (play.kind, play.length, table.kind, table.length, table.top >> 2 == TWO_RANK) in _BOMBINGS[bombs]


def beats(play: Combination, table: Combination | None, bombs: Bombs) -> bool:
    """Whether ``play`` may be played on ``table`` (None: a fresh lead, anything goes)."""
    if table is None:
        return True
    return beats_ordinarily(play, table) or bomb_beats(play, table, bombs)


def is_bomb(play: Combination, table: Combination | None, bombs: Bombs) -> bool:
    """Whether this play beats the table as a bomb rather than ordinarily."""
    return table is not None and not beats_ordinarily(play, table) and bomb_beats(play, table, bombs)


# For each rule, the (kind, length) of 2s that some bomb beats: the tables of a re-entry turn.
_BOMBABLE_TWOS: dict[Bombs, frozenset[tuple[Kind, int]]] = {
    bombs: frozenset(
        (table_kind, table_length)
        for _kind, _length, table_kind, table_length, twos in bombings
        if twos and table_kind in _TWOS_KINDS
    )
    for bombs, bombings in _BOMBINGS.items()
}


def bombable_twos(table: Combination | None, bombs: Bombs) -> bool:
    """A single, pair or triple of 2s that some bomb of this rule can beat.

    This is the table's half of the condition for a bomb re-entry turn
    (docs/rules.md §5); :func:`may_reenter` is the whole condition.
    """
    return table is not None and table.is_twos and (table.kind, table.length) in _BOMBABLE_TWOS[bombs]


def may_reenter(table: Combination | None, bombs: Bombs, reentry_rule: bool) -> bool:
    """Whether pass-locked seats get a bomb re-entry turn on this table (docs/rules.md §5).

    ``reentry_rule`` is the rule set's ``pass_reentry_with_bomb``. This is the
    one statement of the condition, used by the match, the bots' simulator and
    the endgame search. It sits on the hot path of passing the turn, so the
    cheapest test comes first: a table whose deciding card is below the 2s is
    no table of 2s. (``_BOMBABLE_TWOS`` holds only singles, pairs and triples,
    so four 2s never qualify.)
    """
    return (
        table is not None
        and table.top >= FIRST_TWO
        and reentry_rule
        and (table.kind, table.length) in _BOMBABLE_TWOS[bombs]
    )
