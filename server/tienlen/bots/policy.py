"""Medium's policy for Hard's playouts, memoized on exactly what Medium's choice depends on.

:func:`~tienlen.bots.medium.decide` is a pure function of the seat's own hand,
the table, a few public counts and the unseen cards. Inside playouts the same
hands meet the same tables again and again (every candidate move is played out
on the same sampled deal), so the choice is cached by a key holding only the inputs
that can change it. The cached move is always the move ``decide`` would return.
"""

from __future__ import annotations

from ..engine.combos import Combination, classify
from ..engine.legal import answer_masks, bomb_answers
from ..engine.rules import Bombs
from .medium import decide, decide_lead
from .memo import BoundedCache
from .planner import plan_size

BOSS_PIECES = 4

# Keys are single ints: cards and flags packed into bit fields.
_answer_cache: BoundedCache[int, int] = BoundedCache()
_lead_cache: BoundedCache[int, int] = BoundedCache()
_answers_cache: BoundedCache[int, tuple[int, ...]] = BoundedCache()
_classified: BoundedCache[int, Combination | None] = BoundedCache()
_BOMB_CODE = {b: i for i, b in enumerate(Bombs)}
BOMBS_BITS = max(1, (len(Bombs) - 1).bit_length())  # sized from the enum: a new variant cannot collide
CARD_BITS = 52
LEAD_BUCKET_BITS = 2
START_BITS = 6  # start card number + 1: 0..52


def classify_cached(mask: int) -> Combination | None:
    """:func:`~tienlen.engine.combos.classify`, memoized (combinations are immutable)."""
    if mask in _classified:
        return _classified[mask]
    return _classified.put(mask, classify(mask))


def _answer_key(hand: int, table_mask: int, bombs: Bombs, *flags: bool) -> int:
    key = (table_mask << CARD_BITS | hand) << BOMBS_BITS | _BOMB_CODE[bombs]
    for flag in flags:
        key = key << 1 | flag
    return key


def legal_answers(hand: int, table: Combination, bombs: Bombs, locked: bool) -> tuple[int, ...]:
    """The legal answers of a hand to the table (only bombs for a pass-locked seat on a re-entry turn)."""
    key = _answer_key(hand, table.mask, bombs, locked)
    found = _answers_cache.get(key)
    if found is None:
        found = tuple(bomb_answers(hand, table, bombs) if locked else answer_masks(hand, table, bombs))
        _answers_cache.put(key, found)
    return found


def _lead_bucket(min_opp: int) -> int:
    """Medium's lead only distinguishes a fewest-cards opponent of 1, of 2, or more."""
    return min_opp if min_opp <= 2 else 3


def policy_answer(
    hand: int, table: Combination, table_seat: int, cards_left: list[int], seat: int, bombs: Bombs, locked: bool
) -> int:
    """Medium's answer (mask, 0 = pass) to the table; its urgency depends only on small card counts."""
    urgent = 0 < cards_left[table_seat] <= 2
    if not urgent:
        for s, count in enumerate(cards_left):
            if count == 1 and s != seat:
                urgent = True
                break
    # _answer_key(hand, table.mask, bombs, urgent, locked), spelled out: this is the playouts' hottest line.
    key = (((table.mask << CARD_BITS | hand) << BOMBS_BITS | _BOMB_CODE[bombs]) << 1 | urgent) << 1 | locked
    found = _answer_cache.get(key)
    if found is None:
        answers = legal_answers(hand, table, bombs, locked)
        found = decide(seat, hand, table, table_seat, cards_left, bombs, 0, answers, None) if answers else 0
        _answer_cache.put(key, found)
    return found


def policy_lead(hand: int, cards_left: list[int], seat: int, bombs: Bombs, unseen: int, start_card: int | None) -> int:
    """Medium's lead (a mask); the unseen cards matter only when the plan has few pieces (boss check)."""
    min_opp = 99
    for s, count in enumerate(cards_left):
        if s != seat and 0 < count < min_opp:
            min_opp = count
    bucket = _lead_bucket(min_opp)
    relevant = unseen if plan_size(hand) <= BOSS_PIECES else 0
    start = -1 if start_card is None else start_card
    key = ((relevant << CARD_BITS | hand) << START_BITS | (start + 1)) << (LEAD_BUCKET_BITS + BOMBS_BITS)
    key |= bucket << BOMBS_BITS | _BOMB_CODE[bombs]
    found = _lead_cache.get(key)
    if found is None:
        found = decide_lead(hand, unseen, bombs, min_opp, start_card) or hand & -hand
        _lead_cache.put(key, found)
    return found
