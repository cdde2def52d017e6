"""Who acts next and who is placed when a seat goes out (docs/rules.md §5).

The match and the bots' simulator share these rules of the flow of a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .combos import Combination, may_reenter
from .rules import Bombs


def next_to_act(
    seat: int,
    hands: Sequence[int],
    locked: int,
    table: Combination | None,
    table_seat: int | None,
    bombs: Bombs,
    reentry_rule: bool,
) -> tuple[int, bool]:
    """The seat to act after ``seat``, and whether the battle is won.

    Clockwise from ``seat``, seats without cards are skipped, and so are
    pass-locked seats unless the table gives them a bomb re-entry turn
    (:func:`~.combos.may_reenter` of ``table``, ``bombs`` and
    ``reentry_rule``, asked only when a locked seat is met). Reaching the
    table's owner wins the battle: the table clears and the owner leads, or, if
    it has gone out, the next seat still holding cards. ``locked`` is a bit
    mask of locked seats.
    """
    n = len(hands)
    reentry: bool | None = None
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if nxt == table_seat:
            while not hands[nxt]:
                nxt = (nxt + 1) % n
            return nxt, True
        if not hands[nxt]:
            continue
        if locked >> nxt & 1:
            if reentry is None:
                reentry = may_reenter(table, bombs, reentry_rule)
            if not reentry:
                continue
        return nxt, False
    raise AssertionError("the turn went round without reaching the table's owner")


def places_after_going_out(hands: Sequence[int], seat: int, end_on_first_out: bool) -> list[int] | None:
    """The seats placed at once, in order, when ``seat`` has just played its last card; None if play goes on.

    With ``end_on_first_out`` the hand ends at the first seat out and the rest
    are placed by cards left, ties by clockwise distance from ``seat``;
    otherwise the hand ends when only one seat still holds cards, which takes
    last place (docs/rules.md §5).
    """
    holding = [s for s in range(len(hands)) if hands[s]]
    if end_on_first_out:
        n = len(hands)
        holding.sort(key=lambda s: (hands[s].bit_count(), (s - seat) % n))
        return holding
    return holding if len(holding) == 1 else None
