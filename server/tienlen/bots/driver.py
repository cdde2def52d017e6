"""The bot entry points: choose an action for a level, reproducible randomness, the bot loop."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..engine.events import Event
from ..engine.match import LegalPlays, Match
from ..engine.views import SeatView, seat_view
from .base import PASS_ACTION, Action, Hint, play_action
from .easy import choose_easy
from .hard import choose_hard
from .master import choose_master, choose_policy
from .medium import choose_medium


@dataclass(frozen=True, slots=True)
class Level:
    """A level of the server's bots: its name, what it does, and its search effort.

    ``effort`` is how many bot budgets (and how many of Hard's fixed search
    counts) a decision of the level may spend: 0 for a level that does not
    search, 1 for Hard.
    """

    name: str
    effort: int
    about: str


BOT_LEVELS: tuple[Level, ...] = (
    Level("easy", 0, "Plays its lowest cards, keeping ranks together; a little randomness."),
    Level("medium", 0, "Plans its hand into the fewest plays, sheds the weakest first, keeps 2s and bombs."),
    Level("hard", 1, "Searches Medium's candidates over deals inferred from the table, within the bot budget."),
    # Five times Hard's effort: measurably stronger than Hard on the same deals (docs/bots.md; figures in
    # docs/benchmarks.md, make bench-bots)
    Level("expert", 5, "Hard's search with five times its playouts and five bot budgets a decision."),
    # Ten bot budgets; its search plays master.SEARCH_EFFORT times Hard's counts, each playout dearer than Hard's
    # (its own moves the network's): docs/bots.md, Master.
    Level(
        "master",
        10,
        "Hard's search led by a network that learned from self-play which moves win, in its playouts too; "
        "ten bot budgets a decision.",
    ),
)
LEVELS: tuple[str, ...] = tuple(level.name for level in BOT_LEVELS)
# The arena also plays a uniform random bot and "policy", Master's network alone (no search); its round robin rates
# random and the server's levels unless told otherwise.
RATED_LEVELS: tuple[str, ...] = ("random", *LEVELS)
ARENA_LEVELS: tuple[str, ...] = (*RATED_LEVELS, "policy")
_EFFORTS = {level.name: level.effort for level in BOT_LEVELS}
# Hard's wall-clock seconds a decision (and a hint's) unless the caller says otherwise: the server's
# default TIENLEN_BOT_BUDGET and the tournament's default --bot-budget. A level spends its effort times it.
DEFAULT_BUDGET_S = 0.2


def decision_budget_s(levels: Iterable[str], budget_s: float) -> float:
    """The most seconds one decision of any of these levels may take, for a bot budget of ``budget_s``.

    At least one budget (a hint is a Hard decision whatever the seats' levels).
    """
    return budget_s * max([1, *(_EFFORTS.get(level, 0) for level in levels)])


# Called after each bot decision: (seat, level, the view it chose from, the legal plays, seconds it took).
DecisionHook = Callable[[int, str, SeatView, LegalPlays, float], None]


def choose_random(view: SeatView, legal: LegalPlays, rng: random.Random) -> Action:
    """Uniform among the legal plays and, when allowed, the pass (arena only)."""
    count = len(legal.plays) + (1 if legal.can_pass else 0)
    if count == 0:
        return PASS_ACTION
    pick = rng.randrange(count)
    if pick == len(legal.plays):
        return PASS_ACTION
    return play_action(legal.plays[pick].mask)


def choose(
    level: str,
    view: SeatView,
    legal: LegalPlays,
    rng: random.Random,
    *,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> Action:
    """Choose an action for the seat of ``view`` from ``legal`` at ``level`` (random or one of :data:`LEVELS`).

    The bot sees only the seat view; ``rng`` is its only source of randomness.
    ``budget_s`` (the bot budget) bounds a searching level's wall-clock time
    and ``iterations`` (Hard's playouts) its playouts, each times the level's
    effort (None: its fixed counts, for reproducible runs).
    """
    if level == "easy":
        return choose_easy(view, legal, rng)
    if level == "medium":
        return choose_medium(view, legal, rng)
    if level == "policy":
        return choose_policy(view, legal)
    effort = _EFFORTS.get(level, 0)
    if effort:
        search = choose_master if level == "master" else choose_hard
        return search(
            view,
            legal,
            rng,
            budget_s=None if budget_s is None else budget_s * effort,
            iterations=None if iterations is None else iterations * effort,
            effort=effort,
        )
    if level == "random":
        return choose_random(view, legal, rng)
    raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(ARENA_LEVELS)}")


def hint(view: SeatView, legal: LegalPlays, rng: random.Random, *, budget_s: float | None = DEFAULT_BUDGET_S) -> Hint:
    """The Hard choice for the seat on turn with a short explanation naming the cards.

    ``budget_s`` bounds Hard's search as in :func:`choose` (the server passes its bot budget).
    """
    from .explain import reasons, words

    action = choose("hard", view, legal, rng, budget_s=budget_s)
    why = reasons(view, legal, action)
    return Hint(action, words(why), why)


def bot_rng(match: Match, seat: int) -> random.Random:
    """A reproducible generator for a bot decision, hashed so the deck cannot be recovered."""
    key = f"tienlen-bot:{match.deal_seed}:{match.hand_number}:{len(match.log)}:{seat}".encode()
    return random.Random(hashlib.sha256(key).digest())


def play_bot_turns(
    match: Match,
    bots: Mapping[int, str],
    *,
    budget_s: float | None = None,
    total_budget_s: float | None = None,
    iterations: int | None = None,
    on_decision: DecisionHook | None = None,
) -> list[Event]:
    """Play every bot turn until a seat not in ``bots`` is on turn or the match ends.

    Each bot chooses from its seat view only. ``budget_s`` (the bot budget)
    bounds each decision of a searching level, times its effort; once the
    whole call has used ``total_budget_s`` (say a person went out and the bots
    play the rest of the hand), they decide on a tenth of their budgets so the
    answer never keeps a person waiting long.
    ``on_decision`` sees each decision (the arena times them). Returns all
    events in order.
    """
    events: list[Event] = []
    started = time.perf_counter()
    while match.outcome is None and match.turn is not None and match.turn in bots:
        seat = match.turn
        level = bots[seat]
        budget = budget_s
        if budget is not None and total_budget_s is not None and time.perf_counter() - started > total_budget_s:
            budget = budget / 10
        decided = time.perf_counter()
        view, legal = seat_view(match, seat), match.legal_plays()
        action = choose(level, view, legal, bot_rng(match, seat), budget_s=budget, iterations=iterations)
        if on_decision is not None:
            on_decision(seat, level, view, legal, time.perf_counter() - decided)
        events.extend(match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask))
    return events
