"""Plain-words explanations of a chosen action, naming the cards, and the same reason in a machine-readable form.

Examples: "Leads your lowest single 3S, keeps the run 7-8-9-10 together.",
"Bombs the 2H with four Js (JS JC JD JH): seat 1 is nearly out."

:func:`reasons` says which sentence explains the action and what it names (the
play, the table, a kept piece, a seat nearly out); :func:`words` writes that
sentence in English. A client may write it in its own language from the
former (the browser table does, in Vietnamese).
"""

from __future__ import annotations

from dataclasses import dataclass

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

# The first part of the sentence, by what it names: {play} the action's cards, {table} the table's, {kept} a play
# kept for later.
TEMPLATES: dict[str, str] = {
    "lead": "Leads {play}",
    "lead_lowest": "Leads your lowest {play}",
    "beat": "Beats the {table} with {play}",
    "bomb": "Bombs the {table} with {play}",
    "go_out": "Plays {play}, your last cards: you go out",
    "pass_cannot_beat": "Passes: nothing you hold beats the {table}",
    "pass_keep": "Passes on the {table} to keep your {kept} for later",
    "pass_save": "Passes on the {table}: beating it would break up your hand or waste high cards",
}
# How the sentence goes on: {kept} a piece the play keeps together (by its ranks), {danger} a seat nearly out.
REASONS: dict[str, str] = {
    "none": "",
    "keeps_together": ", keeps {kept} together",
    "keeps_twos": ", keeps your 2s for later",
    "nearly_out": ": {danger}",
    "single_cannot_stop": " so a single cannot stop you: {danger}",
    "take_lead_back": " to take the lead back",
    "win_lead": " to win the lead",
}


@dataclass(frozen=True, slots=True)
class NearlyOut:
    """An opponent who is nearly out: the one with the fewest cards, at most 2."""

    seat: int
    cards_left: int


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why an action: the sentence (a key of TEMPLATES and one of REASONS) and what it names."""

    template: str
    reason: str = "none"
    play: Combination | None = None
    table: Combination | None = None
    kept: Combination | None = None
    nearly_out: NearlyOut | None = None


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


def _danger(view: SeatView) -> NearlyOut | None:
    """The opponent who is nearly out, if any."""
    near = [s for s in view.opponents if view.cards_left[s] <= 2]
    if not near:
        return None
    seat = min(near, key=lambda s: view.cards_left[s])
    return NearlyOut(seat, view.cards_left[seat])


def _kept(rest: int) -> tuple[str, Combination | None]:
    """The best multi-card piece the play keeps together (a reason and the piece), or the 2s it keeps."""
    pieces = [p for p in plan_combos(rest) if p.mask.bit_count() >= 2]
    if not pieces:
        twos = rest >> (4 * TWO_RANK) & 15
        return ("keeps_twos", None) if twos else ("none", None)
    return "keeps_together", max(pieces, key=lambda p: (p.mask.bit_count(), p.top))


def reasons(view: SeatView, legal: LegalPlays, action: Action) -> Explanation:
    """Why the action: which sentence explains it and the cards, kinds and seat that sentence names."""
    danger = _danger(view)
    if action.is_pass:
        assert view.table is not None
        if not legal.plays:
            return Explanation("pass_cannot_beat", table=view.table)
        cheapest = min(legal.plays, key=lambda p: p.top)
        if cheapest.top >> 2 == TWO_RANK or is_bomb(cheapest, view.table, view.rules.bombs):
            return Explanation("pass_keep", table=view.table, kept=cheapest)
        return Explanation("pass_save", table=view.table)
    combo = classify(action.mask)
    assert combo is not None
    rest = view.hand & ~action.mask
    if rest == 0:
        return Explanation("go_out", play=combo)
    kept_reason, piece = _kept(rest)
    if view.table is None:
        lowest = (view.hand & -view.hand) == (action.mask & -action.mask)
        template = "lead_lowest" if lowest else "lead"
        if danger and combo.kind is not Kind.SINGLE:
            return Explanation(template, "single_cannot_stop", play=combo, nearly_out=danger)
        return Explanation(template, kept_reason, play=combo, kept=piece)
    if is_bomb(combo, view.table, view.rules.bombs) or combo.top >> 2 == TWO_RANK:
        template = "bomb" if is_bomb(combo, view.table, view.rules.bombs) else "beat"
        if danger:
            return Explanation(template, "nearly_out", play=combo, table=view.table, nearly_out=danger)
        reason = "take_lead_back" if template == "bomb" else "win_lead"
        return Explanation(template, reason, play=combo, table=view.table)
    if danger:
        return Explanation("beat", "nearly_out", play=combo, table=view.table, nearly_out=danger)
    return Explanation("beat", kept_reason, play=combo, table=view.table, kept=piece)


def words(explanation: Explanation) -> str:
    """The explanation as an English sentence, naming the cards (the hint's ``explanation``)."""
    e = explanation
    danger = ""
    if e.nearly_out is not None:
        left = e.nearly_out.cards_left
        danger = f"seat {e.nearly_out.seat} is nearly out ({left} card{'s' if left != 1 else ''} left)"
    kept = ""
    if e.kept is not None:
        kept = short(e.kept) if e.reason == "keeps_together" else describe(e.kept)
    names = {
        "play": describe(e.play) if e.play else "",
        "table": describe(e.table) if e.table else "",
        "kept": kept,
        "danger": danger,
    }
    return TEMPLATES[e.template].format(**names) + REASONS[e.reason].format(**names) + "."
