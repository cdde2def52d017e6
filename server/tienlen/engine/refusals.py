"""Why a play is refused: the first reason that applies, named for the seat (the legal plays decide acceptance;
this only names the reason once they have refused)."""

from __future__ import annotations

from .cards import Card
from .combos import Combination, beats, bomb_beats, classify
from .errors import IllegalActionError
from .rules import Bombs


def refusal(
    hand: int, mask: int, table: Combination | None, start_card: int | None, locked: bool, bombs: Bombs
) -> IllegalActionError:
    """The error refusing ``mask`` from a seat holding ``hand`` (``locked``: it passed in this battle).

    Called only for a play the legal plays do not hold; reasons in order: ``cards_not_in_hand``,
    ``not_a_combination``, ``must_include_start_card``, ``locked_bomb_only``, ``does_not_beat``.
    """
    if mask & ~hand:
        return IllegalActionError("cards_not_in_hand", "some of those cards are not in your hand")
    combo = classify(mask)
    if combo is None:
        return IllegalActionError("not_a_combination", "those cards do not form a combination")
    if table is None:
        if start_card is not None and not mask >> start_card & 1:
            card = Card(start_card)
            return IllegalActionError("must_include_start_card", f"the opening lead must include {card}")
        raise AssertionError(f"lead {combo} refused but no reason found")
    if locked:
        if not bomb_beats(combo, table, bombs):
            return IllegalActionError("locked_bomb_only", "after passing you may only bomb the 2s or pass")
        raise AssertionError(f"bomb {combo} refused but no reason found")
    if not beats(combo, table, bombs):
        return IllegalActionError("does_not_beat", f"{combo} does not beat {table}")
    raise AssertionError(f"answer {combo} refused but no reason found")
