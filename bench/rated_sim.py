"""Rated play through the quick-play queue: do ratings find the players' strengths? (``make bench-ratings``)

Accounts of four known strengths (``random``, ``easy``, ``medium``, ``hard``:
the bots' own policies, deciding from each seat's view) queue for rated
4-player one-hand matches (the ``ladder`` preset) round after round, are
seated by the queue's pairing (closest ratings first) and play every match to
its end through the match service; every rating moves as the server moves it.
Prints one JSON object:

- ``kendall_tau``: Kendall's tau-b between each account's final rating and its
  strength (levels ranked random < easy < medium < hard; accounts of one level
  tie), over every account;
- ``level_tau``: the same between the levels' mean ratings and their ranks;
- ``mean_rating``: the mean shown rating of each level's accounts;
- ``matches``, ``seconds``, ``table_spread``: rated matches played, how long it
  took, and the mean spread (highest minus lowest rating) within a table when it
  was seated.

A private Redis is started for the run (free port, temp dir) and stopped.
``--seed`` fixes the deals, the seat order and every bot's choices, so a run is
reproducible (Hard runs a fixed number of playouts, ``--hard-iterations``), and
the same on either build of the engine: Hard's other counts that the build
scales (its step budget, ``hard.search_scale``; the deal chains' pace,
``sampling.chain_pace``) are held at the pure Python build's
(:func:`same_counts_on_every_build`), no bot has a wall-clock budget, and the
compiled core's loops decide exactly as the Python ones for the same counts
(``tests/bots/test_bots_compiled.py``). So a seed's figures do not depend on
the build or on the machine's load.
``tests/api/test_api_queue_sim.py`` runs it with a fixed seed and asserts tau.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.bots import choose, hard, sampling
from tienlen.engine import seat_view
from tienlen.service import MatchServices
from tienlen.service.commands import Pass, Play
from tienlen.service.rating_model import Rating
from tienlen.store import RedisMatchStore, RedisOptions, token_digest
from tienlen.store.accounts import AccountRecord, TokenRecord
from tienlen.store.layout import Lifetimes

LEVELS = ("random", "easy", "medium", "hard")
PLAYERS = 4
PRESET = "ladder"
SETTLE_S = 300.0  # the clock moves this far before each pairing: every window is wide enough by then


@dataclass(frozen=True, slots=True)
class Player:
    """An account of known strength and the token it plays with."""

    account: AccountRecord
    level: str
    token: str


@contextmanager
def same_counts_on_every_build() -> Iterator[None]:
    """Within it Hard searches the pure Python build's counts on either build (scale 1, the Python chains' pace).

    The compiled core makes the same choices as the Python loops for the same
    counts (its differential tests), so with the counts held a seed plays the
    same games on both builds.
    """
    with (
        mock.patch.object(hard, "search_scale", lambda: 1),
        mock.patch.object(sampling, "chain_pace", lambda: sampling.PYTHON_PACE),
    ):
        yield


@contextmanager
def hard_playouts(playouts: int) -> Iterator[None]:
    """Within it Hard's fixed playout count a decision is ``playouts`` (not :data:`hard.DEFAULT_ITERATIONS`; the
    effort and the build's scale still multiply it), for a Hard that the caller runs through the service, where
    no count can be passed: a cheaper Hard that still searches."""
    with mock.patch.object(hard, "DEFAULT_ITERATIONS", playouts):
        yield


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b of two equally long lists (ties in either allowed)."""
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return 0.0 if denominator == 0 else (concordant - discordant) / denominator


def make_players(
    service: MatchServices, per_level: int, rng: random.Random, levels: Sequence[str] = LEVELS
) -> list[Player]:
    """``per_level`` accounts of each strength in ``levels``, each with a personal token (scope ``play``)."""
    players = []
    for level in levels:
        for index in range(per_level):
            record = AccountRecord(secrets.token_hex(10), f"sim-{level}-{index}-{rng.randrange(10**6)}", "human", 0, "")
            assert service.core.accounts.create(record)
            token = secrets.token_urlsafe(24)
            kept = TokenRecord(secrets.token_hex(8), "sim", ("play",), 0, token_digest(token))
            assert service.core.accounts.add_token(record.account_id, kept, most=1)
            players.append(Player(record, level, token))
    return players


def play_out(
    service: MatchServices,
    match_id: str,
    by_account: dict[str, Player],
    rngs: dict[str, random.Random],
    hard_iterations: int,
) -> None:
    """Every seat plays its account's policy until the match ends (through the service, as a client would)."""
    while True:
        record = service.reads.get(match_id)
        engine = record.engine
        if record.status != "playing" or engine is None or engine.turn is None:
            return
        seat = engine.turn
        account = record.seats[seat].account
        assert account is not None
        player = by_account[account]
        iterations = hard_iterations if player.level == "hard" else None
        action = choose(
            player.level, seat_view(engine, seat), engine.legal_plays(), rngs[account], iterations=iterations
        )
        command = Pass() if action.is_pass else Play.of(action.cards)
        service.matches.act(match_id, player.token, command, None)


def simulate(
    service: MatchServices,
    matches: int,
    per_level: int,
    seed: int,
    hard_iterations: int,
    levels: Sequence[str] = LEVELS,
) -> dict[str, Any]:
    """Play ``matches`` rated matches through the queue; the figures (see the module's docstring).

    ``levels`` are the strengths taken part, weakest first (a subsequence of :data:`LEVELS`).
    """
    if not levels or any(level not in LEVELS for level in levels) or (len(levels) * per_level) % PLAYERS:
        raise ValueError(f"levels from {LEVELS}, and a number of accounts that fills tables of {PLAYERS}")
    rng = random.Random(seed)
    started = time.perf_counter()
    clock = [time.time()]
    service.core.now = lambda: clock[0]
    service.queue.fill_s = 24 * 3600.0  # only full tables of players
    service.queue.clock = None
    players = make_players(service, per_level, rng, levels)
    by_account = {p.account.account_id: p for p in players}
    rngs = {p.account.account_id: random.Random(rng.randrange(2**32)) for p in players}
    played = 0
    spreads: list[int] = []
    deals = random.Random(rng.randrange(2**32))
    fake_secrets = SimpleNamespace(randbits=deals.getrandbits, token_urlsafe=secrets.token_urlsafe)

    def fair_secrets() -> str:  # the fair deals' secrets, from the run's seed too
        return deals.getrandbits(256).to_bytes(32, "big").hex()

    id_draws = random.Random(f"match ids {seed}")

    def seeded_match_id() -> str:  # a fair deal is drawn from its match's id too: the ids come from the run's seed
        return f"{id_draws.getrandbits(80):020x}"

    with (
        mock.patch("tienlen.service.queue.secrets", fake_secrets),
        mock.patch("tienlen.store.records.new_fair_secret", fair_secrets),
        mock.patch("tienlen.service.queue.new_match_id", seeded_match_id),
        same_counts_on_every_build(),
    ):
        while played < matches:
            order = players[:]
            rng.shuffle(order)
            tickets = []
            for player in order:
                clock[0] += 0.01
                tickets.append(service.queue.queue_account(player.account, PLAYERS, PRESET, True).ticket)
            clock[0] += SETTLE_S
            service.queue.pair(force=True)
            match_ids: dict[str, list[int]] = {}
            for ticket in tickets:
                found = service.queue.tickets.get(ticket)
                assert found is not None and found.status == "matched" and found.match_id is not None, found
                match_ids.setdefault(found.match_id, []).append(found.rating)
            for match_id, ratings in match_ids.items():
                spreads.append(max(ratings) - min(ratings))
                play_out(service, match_id, by_account, rngs, hard_iterations)
                played += 1
    shown: dict[str, int] = {}
    for player in players:
        kept = service.core.history.rated.ratings.ratings(player.account.account_id).get(PLAYERS)
        shown[player.account.account_id] = (Rating.new() if kept is None else Rating.from_dict(kept)).shown
    ranks = [float(levels.index(p.level)) for p in players]
    final = [float(shown[p.account.account_id]) for p in players]
    means = {
        level: sum(shown[p.account.account_id] for p in players if p.level == level) / per_level for level in levels
    }
    return {
        "matches": played,
        "accounts": len(players),
        "kendall_tau": round(kendall_tau_b(ranks, final), 3),
        "level_tau": round(kendall_tau_b([float(i) for i in range(len(levels))], [means[lv] for lv in levels]), 3),
        "mean_rating": {level: round(mean) for level, mean in means.items()},
        "table_spread": round(sum(spreads) / len(spreads), 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def service_on(url: str, bot_budget_s: float = 0.02) -> MatchServices:
    """A match service on the Redis at ``url`` (no turn clocks, small bots)."""
    store = RedisMatchStore.connect(RedisOptions(url, False, 5.0, False), Lifetimes(3600, 3600, 3600), max_waiters=64)
    return MatchServices.on(store, bot_budget_s, queue_turn_s=None)


def main(argv: list[str] | None = None, run: Callable[..., dict[str, Any]] = simulate) -> None:
    """Start a Redis, run the simulation, print the figures."""
    from tienlen.local_redis import LocalRedis

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--per-level", type=int, default=3, help="accounts of each strength")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--hard-iterations", type=int, default=60, help="Hard's playouts a decision")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the strengths taking part, weakest first")
    args = parser.parse_args(argv)
    levels = tuple(args.levels.split(","))
    with tempfile.TemporaryDirectory() as folder, LocalRedis(Path(folder)) as redis_server:
        figures = run(
            service_on(redis_server.url), args.matches, args.per_level, args.seed, args.hard_iterations, levels
        )
    figures["machine"] = f"{platform.machine()} {platform.system()}, {os.cpu_count()} CPUs"
    figures["python"] = platform.python_version()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
