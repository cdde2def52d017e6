"""An outside agent in our arena: hoangdung-nguyen/rl-tien-len's untrained agents against our bots.

``--peer DIR`` is a checkout of that repository (it is never copied here). Its ``HeuristicSearchAgent``
(level ``peer``: a depth-2 search over its own hand's combinations, pruning threshold 0.2 as its
``main.py``), ``NaiveTienLenAgent`` (``peer-naive``) and ``TienLenRandomAgent`` (``peer-random``)
become bots with our signature (:func:`peer_bot`): our seat view is translated into the ``state``
its environment builds (its cards are ``(rank 3..15, suit 0..3)``, the suits in our order, 3S =
``(3, 0)``), its legal actions come from ITS judger given the hand and the table, and its choice
is translated back to our card mask.

Its rules are not ours (``standard``): its judger gives no bomb on 2s (a 2 is classified as a
plain single, pair or triple, so its bomb code is never reached), lets any longer run of pairs
beat a run of pairs, leads no straight longer than three cards (longer ones only as answers), and
has no re-entry turn after a pass. A choice that is not one of our legal plays is replaced by Medium's
for that decision and counted (``fallbacks``); at a re-entry turn (its game would skip the
locked seat) the agent is not asked and passes (``reentry_passes``).

The games are our arena's duplicate deals (:mod:`tienlen.bots.arena`): each deal is played once
with the tested level in each seat, one hand a game, the other seats the opponent level, our bots
on the server's bot budget (``--budget``, default 0.2 s). Prints the arena's table and the
fallbacks on stderr and one JSON object (the arena summary plus ``peer``) on stdout.

Run with ``make bench-peer PEER=path/to/rl-tien-len``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.bots import DEFAULT_BUDGET_S, bot_rng, choose, deal_seed
from tienlen.bots.arena import ArenaConfig, DealResult, format_table, summarize
from tienlen.bots.base import PASS_ACTION, Action, play_action
from tienlen.bots.driver import ARENA_LEVELS
from tienlen.bots.medium import choose_medium
from tienlen.bots.progress import progress_bar
from tienlen.engine.match import LegalPlays, Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView, seat_view

PEER_NAME = "hoangdung-nguyen/rl-tien-len"
# Our level name of each of the peer's agents that needs no training.
PEER_AGENTS = {"peer": "HeuristicSearchAgent", "peer-naive": "NaiveTienLenAgent", "peer-random": "TienLenRandomAgent"}
LEVEL_CHOICES = (*ARENA_LEVELS, *PEER_AGENTS)

Bot = Callable[[SeatView, LegalPlays, random.Random], Action]
PeerCard = tuple[int, int]


@dataclass(slots=True)
class PeerCounts:
    """What the adapter did: decisions asked of the peer, Medium's stand-ins, re-entry passes."""

    decisions: int = 0
    fallbacks: int = 0
    reentry_passes: int = 0
    examples: list[str] = field(default_factory=list)  # a few refused choices, for the report


def peer_card(index: int) -> PeerCard:
    """Our card number (rank * 4 + suit, rank 0 = '3') as the peer's (rank 3..15, suit)."""
    return (index >> 2) + 3, index & 3


def peer_cards(mask: int) -> list[PeerCard]:
    """A card mask as the peer's sorted card list."""
    return [peer_card(i) for i in range(52) if mask >> i & 1]


def our_mask(cards: Any) -> int:
    """The peer's cards as our card mask."""
    mask = 0
    for rank, suit in cards:
        mask |= 1 << ((rank - 3) * 4 + suit)
    return mask


def load_peer(directory: str) -> tuple[Any, Any]:
    """The peer's ``agents.agents`` module and a judger of its game (its modules are untyped)."""
    sys.path.insert(0, str(Path(directory).resolve()))
    agents = importlib.import_module("agents.agents")  # imports torch, for its trained agents
    judger = importlib.import_module("game.judger").TienLenJudger()
    return agents, judger


def make_agent(agents: Any, judger: Any, level: str) -> Any:
    """A new instance of the peer's agent behind one of our level names."""
    name = PEER_AGENTS[level]
    return getattr(agents, name)(judger) if name == "HeuristicSearchAgent" else getattr(agents, name)()


def peer_state(view: SeatView, judger: Any) -> dict[str, Any]:
    """The state the peer's environment (envs/tienlen_env.py) gives an agent, for our seat view."""
    import numpy as np

    hand = peer_cards(view.hand)
    stack = [peer_cards(mask) for _seat, mask in view.history if mask]
    last_move = None if view.table is None else peer_cards(view.table.mask)
    kind = "NONE" if last_move is None else judger.get_type(last_move)[0]
    is_first = view.start_card is not None and not view.history
    lowest = peer_card(view.start_card) if view.start_card is not None else (3, 0)
    legal = judger.get_legal_actions(hand, last_move, kind, is_first, lowest)
    obs = np.zeros(159, dtype=np.float32)  # only its Naive agent reads it (the opponents' card counts)
    for rank, suit in hand:
        obs[(rank - 3) * 4 + suit] = 1
    if stack:
        for rank, suit in stack[-1]:
            obs[52 + (rank - 3) * 4 + suit] = 1
        for move in stack:
            for rank, suit in move:
                obs[104 + (rank - 3) * 4 + suit] = 1
    others = [view.cards_left[s] / 13.0 for s in range(view.players) if s != view.seat]
    obs[156 : 156 + len(others)] = others
    raw = {"hand": hand, "current_stack": stack, "state": kind, "legal_actions": legal, "player_id": view.seat}
    # The action features (a neural net's input) are left out: none of these agents reads them.
    return {"obs": obs, "legal_actions": dict.fromkeys(legal), "raw_obs": raw, "raw_legal_actions": legal}


def peer_bot(agent: Any, judger: Any, counts: PeerCounts) -> Bot:
    """Our bot signature around the peer's agent; Medium decides where its choice is not legal for us."""

    def choose_peer(view: SeatView, legal: LegalPlays, rng: random.Random) -> Action:
        if view.reentry:  # the peer's game skips a seat that passed until the battle ends
            counts.reentry_passes += 1
            return PASS_ACTION
        counts.decisions += 1
        random.seed(rng.getrandbits(32))  # its random agent draws from the random module
        choice = tuple(agent.step(peer_state(view, judger)) or ())
        if not choice and legal.can_pass:
            return PASS_ACTION
        mask = our_mask(choice)
        if choice and any(play.mask == mask for play in legal.plays):
            return play_action(mask)
        counts.fallbacks += 1
        if len(counts.examples) < 5:
            table = "lead" if view.table is None else str(view.table)
            counts.examples.append(f"{choice or 'pass'} on {table}")
        return choose_medium(view, legal, rng)

    return choose_peer


@dataclass(frozen=True, slots=True)
class PeerArena:
    """An arena run with the peer's agents among the levels."""

    config: ArenaConfig
    bots: dict[str, Bot]  # the peer levels' bots, by level name


def play_seated(arena: PeerArena, deal: int, tested_seat: int, times: dict[str, list[float]]) -> int:
    """Play the deal with the tested level in one seat, as the arena's ``_play_seated``; its place (0 = first)."""
    config = arena.config
    rules = resolve_rules({"preset": config.preset, "hands": 1}, players=config.players)
    match, _ = Match.new(rules, random.Random(deal_seed(config.seed, deal)))
    levels = {s: config.tested if s == tested_seat else config.opponent for s in range(config.players)}
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        level = levels[seat]
        started = time.perf_counter()
        view, legal = seat_view(match, seat), match.legal_plays()
        rng = bot_rng(match, seat)
        if level in arena.bots:
            action = arena.bots[level](view, legal, rng)
        else:
            action = choose(level, view, legal, rng, budget_s=config.budget_s)
        times.setdefault(level, []).append((time.perf_counter() - started) * 1000.0)
        if action.is_pass:
            match.pass_turn(seat)
        else:
            match.play(seat, action.mask)
    return match.completed[0].places.index(tested_seat)


def play_deal(arena: PeerArena, deal: int) -> DealResult:
    """One duplicate deal: played once with the tested level in each seat."""
    result = DealResult()
    players = arena.config.players
    for tested_seat in range(players):
        place = play_seated(arena, deal, tested_seat, result.times)
        result.firsts.append(1 if place == 0 else 0)
        result.points.append(players - 1 - place)
    return result


def main(argv: list[str]) -> int:
    """Play the peer's agents against our levels over duplicate deals; print the table and a JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", required=True, metavar="DIR", help=f"a checkout of {PEER_NAME}")
    parser.add_argument("--tested", choices=LEVEL_CHOICES, default="peer", help="the level in the tested seat")
    parser.add_argument("--opponent", choices=LEVEL_CHOICES, default="medium", help="the level of the other seats")
    parser.add_argument("--deals", type=int, default=50, help="seeded deals, each played once a seat")
    parser.add_argument("--seed", type=int, default=1, help="seed of the fixed deal set")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="our bot budget (Hard's seconds)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="players a game")
    parser.add_argument("--json", metavar="PATH", default=None, help="also write the summary as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.budget <= 0:
        print("--deals must be at least 1 and --budget positive", file=sys.stderr)
        return 2
    agents, judger = load_peer(args.peer)
    counts = PeerCounts()
    bots = {
        level: peer_bot(make_agent(agents, judger, level), judger, counts)
        for level in {args.tested, args.opponent}
        if level in PEER_AGENTS
    }
    config = ArenaConfig(
        tested=args.tested,
        opponent=args.opponent,
        deals=args.deals,
        preset="standard",
        seed=args.seed,
        players=args.players,
        budget_s=args.budget,
    )
    arena = PeerArena(config, bots)
    started = time.perf_counter()
    results: list[DealResult] = []
    bar = progress_bar(args.deals, not args.no_progress, f"{args.tested} vs {args.opponent}")
    for deal in range(args.deals):
        results.append(play_deal(arena, deal))
        next(bar, None)
    next(bar, None)
    summary = summarize(config, results)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    summary["peer"] = {
        "name": PEER_NAME,
        "agents": {level: PEER_AGENTS[level] for level in bots},
        "decisions": counts.decisions,
        "fallbacks": counts.fallbacks,
        "fallback_share": round(counts.fallbacks / max(counts.decisions, 1), 4),
        "reentry_passes": counts.reentry_passes,
        "fallback_examples": counts.examples,
    }
    print(format_table([summary]), file=sys.stderr)
    print(
        f"peer: {counts.decisions} decisions, {counts.fallbacks} by Medium instead "
        f"({summary['peer']['fallback_share']:.2%}), {counts.reentry_passes} re-entry turns passed; "
        f"{summary['seconds']} s",
        file=sys.stderr,
    )
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
