"""Who acts next in a battle (RULES.md §5): the one turn-order rule the match and the bots' simulator share."""

from __future__ import annotations

from collections.abc import Sequence


def next_to_act(
    seat: int, hands: Sequence[int], locked: int, table_seat: int | None, may_reenter: bool
) -> tuple[int, bool]:
    """The seat to act after ``seat``, and whether the battle is won.

    Clockwise from ``seat``, seats without cards are skipped, and so are
    pass-locked seats unless ``may_reenter`` (a bomb re-entry turn). Reaching
    the table's owner wins the battle: the table clears and the owner leads,
    or, if it has gone out, the next seat still holding cards. ``locked`` is a
    bit mask of locked seats.
    """
    n = len(hands)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if nxt == table_seat:
            while not hands[nxt]:
                nxt = (nxt + 1) % n
            return nxt, True
        if not hands[nxt]:
            continue
        if locked >> nxt & 1 and not may_reenter:
            continue
        return nxt, False
    raise AssertionError("the turn went round without reaching the table's owner")
