"""Plain-words explanations of a chosen action, naming the cards.

Examples: "Leads your lowest single 3S, keeps the run 7-8-9-10 together.",
"Bombs the 2H with four Js (JS JC JD JH): seat 1 is nearly out."
"""

from __future__ import annotations

from ..engine.cards import RANK_SYMBOLS, TWO_RANK, format_mask
from ..engine.combos import Combination, classify, is_bomb
from ..engine.kinds import Kind
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from .base import Action
from .planner import plan_combos

_KIND_WORDS = {
    Kind.SINGLE: "single",
    Kind.PAIR: "pair",
    Kind.TRIPLE: "triple",
    Kind.STRAIGHT: "run",
    Kind.CONSECUTIVE_PAIRS: "run of pairs",
}


def _ranks(combo: Combination) -> list[str]:
    seen: list[str] = []
    for text in format_mask(combo.mask):
        rank = text[:-1]
        if rank not in seen:
            seen.append(rank)
    return seen


def describe(combo: Combination) -> str:
    """A combination in words with its cards, e.g. ``pair 5C 5D`` or ``four Js (JS JC JD JH)``."""
    cards = " ".join(format_mask(combo.mask))
    if combo.kind is Kind.FOUR_OF_A_KIND:
        return f"four {RANK_SYMBOLS[combo.top >> 2]}s ({cards})"
    return f"{_KIND_WORDS[combo.kind]} {cards}"


def short(combo: Combination) -> str:
    """A kept piece by its ranks, e.g. ``the run 7-8-9-10`` or ``the pair of 9s``."""
    ranks = _ranks(combo)
    if combo.kind is Kind.STRAIGHT:
        return "the run " + "-".join(ranks)
    if combo.kind is Kind.CONSECUTIVE_PAIRS:
        return "the pairs " + " ".join(f"{r}-{r}" for r in ranks)
    if combo.kind is Kind.FOUR_OF_A_KIND:
        return f"the four {ranks[0]}s"
    if combo.kind is Kind.SINGLE:
        return "the " + format_mask(combo.mask)[0]
    return f"the {_KIND_WORDS[combo.kind]} of {ranks[0]}s"


def _danger(view: SeatView) -> str | None:
    """A note on an opponent who is nearly out, if any."""
    near = [s for s in view.opponents if view.cards_left[s] <= 2]
    if not near:
        return None
    seat = min(near, key=lambda s: view.cards_left[s])
    left = view.cards_left[seat]
    return f"seat {seat} is nearly out ({left} card{'s' if left != 1 else ''} left)"


def _kept(view: SeatView, rest: int) -> str | None:
    """The best multi-card piece the play keeps together."""
    pieces = [p for p in plan_combos(rest) if p.mask.bit_count() >= 2]
    if not pieces:
        twos = rest >> (4 * TWO_RANK) & 15
        return "keeps your 2s for later" if twos else None
    best = max(pieces, key=lambda p: (p.mask.bit_count(), p.top))
    return f"keeps {short(best)} together"


def explain(view: SeatView, legal: LegalPlays, action: Action) -> str:
    """A short reason for the action, naming its cards (or the table's cards for a pass)."""
    danger = _danger(view)
    if action.is_pass:
        assert view.table is not None
        table = describe(view.table)
        if not legal.plays:
            return f"Passes: nothing you hold beats the {table}."
        cheapest = min(legal.plays, key=lambda p: p.top)
        if cheapest.top >> 2 == TWO_RANK or is_bomb(cheapest, view.table, view.rules.bombs):
            return f"Passes on the {table} to keep your {describe(cheapest)} for later."
        return f"Passes on the {table}: beating it would break up your hand or waste high cards."
    combo = classify(action.mask)
    assert combo is not None
    played = describe(combo)
    rest = view.hand & ~action.mask
    if rest == 0:
        return f"Plays {played}, your last cards: you go out."
    kept = _kept(view, rest)
    if view.table is None:
        lowest = (view.hand & -view.hand) == (action.mask & -action.mask)
        text = f"Leads your lowest {played}" if lowest else f"Leads {played}"
        if danger and combo.kind is not Kind.SINGLE:
            text += f" so a single cannot stop you: {danger}"
        elif kept:
            text += f", {kept}"
        return text + "."
    table = describe(view.table)
    if is_bomb(combo, view.table, view.rules.bombs):
        reason = f": {danger}" if danger else " to take the lead back"
        return f"Bombs the {table} with {played}{reason}."
    if combo.top >> 2 == TWO_RANK:
        reason = f": {danger}" if danger else " to win the lead"
        return f"Beats the {table} with {played}{reason}."
    text = f"Beats the {table} with {played}"
    if danger:
        text += f": {danger}"
    elif kept:
        text += f", {kept}"
    return text + "."
