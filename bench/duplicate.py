"""Duplicate scoring against card luck: equal-strength bots, scored by duplicate and by raw points
(``make bench-duplicate``).

Thirty-two entrants, all the same house bot level (``--level``, ``easy`` by
default: equal strength, so every difference between them is luck: the
cards', and the bots' own chance, each seat deciding with its own generator;
``medium`` decides deterministically, so every table plays a deal alike and
its duplicate spread is 0), play:

- a *duplicate* event: 24 deals at 8 tables of 4 (6 rounds of 4 deals), seated
  by :func:`tienlen.tournaments.duplicate_schedule`; every table of a round
  plays the same deals (deal ``d`` dealt from the fixed deal set,
  :func:`tienlen.bots.deal_set.deal_seed`), so seat s holds hand s;
  scored by :func:`tienlen.tournaments.standings` (matchpoints);
- a *Swiss* event of the same size (6 rounds of 4 deals, seated by
  :func:`tienlen.tournaments.swiss_round`), every table its own deals, scored
  by raw points: the points the hands gave (places scoring, 3/2/1/0).

Each hand is a one-hand match of the engine (``--preset``), played by the bots
from their seats' views; a table's places come from its points over its deals.
Scores are normalised to a percentage of their
maximum (duplicate: mean matchpoints x 100; raw: points / (hands x 3) x 100;
both average 50), and their spread across the 32 entrants is the population
standard deviation. ``--events`` independent events (seeds ``--seed``,
``--seed + 1``, ...) are played and the spreads averaged. Prints one JSON
object: ``duplicate_sd``, ``raw_sd`` (the Swiss event), ``raw_sd_same_deals``
(raw points of the duplicate event's own hands), ``ratio`` (duplicate_sd /
raw_sd: below 1 means duplicate scores carry less card luck), and the run's
size, seconds and machine. Matchpoints and raw points are not on quite the
same scale (a hand's matchpoints spread less than its 0..3 points even with
no card luck cancelled), so ``control_sd`` scores the Swiss event's hands in
matchpoints against the other tables' holders of the same seat and hand of
the round, who held *other* cards; ``ratio_control`` = duplicate_sd /
control_sd is the card luck duplicate removes, on one scale.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.bots.deal_set import deal_seed
from tienlen.bots.driver import choose
from tienlen.engine.match import Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import seat_view
from tienlen.tournaments import (
    Entrant,
    Format,
    HandScore,
    Sitter,
    Table,
    TableResult,
    Terms,
    duplicate_schedule,
    standings,
    swiss_round,
    verify_terms,
)
from tienlen.tournaments.standings import duplicate_matchpoints

SWISS_DEAL_BASE = 1_000_000  # the Swiss event's deals: numbers apart from the duplicate deal set's


def play_table(args: tuple[str, str, int, int, str, tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Play one table's deals (one one-hand match each) with the level in every seat; each hand's points by seat.

    Each seat decides with its own generator (``table`` names it), so two tables dealt the same cards do not
    play them move for move alike: the bots' own chance is part of what duplicate scoring measures.
    """
    level, preset, players, seed, table, deals = args
    rules = resolve_rules({"preset": preset, "hands": 1}, players=players)
    rngs = [random.Random(f"bench-duplicate:{seed}:{table}:{seat}") for seat in range(players)]
    scores = []
    for deal in deals:
        match, _ = Match.new(rules, random.Random(deal_seed(seed, deal)))
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            action = choose(level, seat_view(match, seat), match.legal_plays(), rngs[seat])
            if action.is_pass:
                match.pass_turn(seat)
            else:
                match.play(seat, action.mask)
        scores.append(tuple(match.completed[0].points))
    return tuple(scores)


def table_result(
    round_no: int, table: Table, deals: Sequence[int | None], hands: Sequence[tuple[int, ...]]
) -> TableResult:
    """A finished table as the tournament sees it: totals by seat, places by total (ties: lower seat first)."""
    totals = tuple(sum(points[seat] for points in hands) for seat in range(len(table.sitters)))
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    places = tuple(order.index(seat) + 1 for seat in range(len(totals)))
    scores = tuple(HandScore(deal, points) for deal, points in zip(deals, hands, strict=True))
    return TableResult(
        round_no, table.number, f"r{round_no}t{table.number}", table.sitters, places, totals, scores, 0.0
    )


def _percent_sd(values: Sequence[float]) -> float:
    return statistics.pstdev(values)


def one_event(
    pool: Any, level: str, preset: str, entrants: int, players: int, deals: int, hands: int, seed: int
) -> dict[str, float]:
    """Play the duplicate and the Swiss event of one seed; their spreads."""
    field = [Entrant(f"bot-{i + 1}", f"{level} {i + 1}", True, 1500, i + 1) for i in range(entrants)]
    base = dict(name="bench", players=players, preset=preset, hands=hands, turn_seconds=30, starts_at=None)
    base |= dict(min_entrants=entrants, max_entrants=entrants, rated=False, bots=True)
    duplicate = Terms(format=Format.DUPLICATE, deals=deals, **base)  # type: ignore[arg-type]
    swiss = Terms(format=Format.SWISS, rounds=deals // hands, **base)  # type: ignore[arg-type]
    verify_terms(duplicate)
    verify_terms(swiss)

    results: list[TableResult] = []
    for round_no, tables in enumerate(duplicate_schedule(duplicate, field), start=1):
        jobs = [(level, preset, players, seed, f"d{round_no}.{t.number}", t.deals or ()) for t in tables]
        for table, hands_played in zip(tables, pool.map(play_table, jobs), strict=True):
            results.append(table_result(round_no, table, table.deals or (), hands_played))
    dup = standings(duplicate, field, results)
    hand_max = deals * (players - 1)
    duplicate_pct = [s.percent or 0.0 for s in dup]
    same_deals_raw = [100.0 * r for r in _raw(results, field)]
    same_deals_raw = [v / hand_max for v in same_deals_raw]

    swiss_results: list[TableResult] = []

    def house(i: int) -> Sitter:
        return Sitter(None, f"house {i + 1}")

    for round_no in range(1, deals // hands + 1):
        tables = swiss_round(swiss, field, swiss_results, round_no, house)
        jobs = []
        for t in tables:
            first = SWISS_DEAL_BASE + ((round_no - 1) * len(tables) + t.number - 1) * hands
            jobs.append((level, preset, players, seed, f"s{round_no}.{t.number}", tuple(range(first, first + hands))))
        for table, hands_played in zip(tables, pool.map(play_table, jobs), strict=True):
            swiss_results.append(table_result(round_no, table, [None] * hands, hands_played))
    raw_pct = [100.0 * v / hand_max for v in _raw(swiss_results, field)]
    # The control: the Swiss event's hands scored in matchpoints against the holders of the same seat and hand
    # of the round at the other tables, who held other cards: duplicate's scale without its cancelled luck.
    slots = [
        replace(r, hands=tuple(HandScore(r.round * 100 + k, h.points) for k, h in enumerate(r.hands)))
        for r in swiss_results
    ]
    control, held = duplicate_matchpoints(slots)
    control_pct = [float(100 * control.get(e.account_id, 0) / held[e.account_id]) for e in field]
    return {
        "control_sd": _percent_sd(control_pct),
        "duplicate_sd": _percent_sd(duplicate_pct),
        "raw_sd": _percent_sd(raw_pct),
        "raw_sd_same_deals": _percent_sd(same_deals_raw),
    }


def _raw(results: Sequence[TableResult], field: Sequence[Entrant]) -> list[float]:
    """Each entrant's raw points over the event."""
    raw = dict.fromkeys((e.account_id for e in field), 0)
    for result in results:
        for seat, sitter in enumerate(result.sitters):
            if sitter.entrant is not None:
                raw[sitter.entrant] += result.points[seat]
    return [float(raw[e.account_id]) for e in field]


def run(
    level: str, preset: str, entrants: int, players: int, deals: int, hands: int, events: int, seed: int, processes: int
) -> dict[str, Any]:
    """Play ``events`` events of each kind; the mean spreads and their ratio."""
    start = time.perf_counter()
    spreads = []
    with Pool(processes) as pool:
        for event in range(events):
            spreads.append(one_event(pool, level, preset, entrants, players, deals, hands, seed + event))
    mean = {key: statistics.fmean(s[key] for s in spreads) for key in spreads[0]}
    return {
        "level": level,
        "preset": preset,
        "entrants": entrants,
        "tables": entrants // players,
        "deals": deals,
        "hands_a_match": hands,
        "events": events,
        "seed": seed,
        "duplicate_sd": round(mean["duplicate_sd"], 3),
        "raw_sd": round(mean["raw_sd"], 3),
        "raw_sd_same_deals": round(mean["raw_sd_same_deals"], 3),
        "control_sd": round(mean["control_sd"], 3),
        "ratio_control": round(mean["duplicate_sd"] / mean["control_sd"], 3) if mean["control_sd"] else None,
        "ratio": round(mean["duplicate_sd"] / mean["raw_sd"], 3) if mean["raw_sd"] else None,
        "ratio_same_deals": round(mean["duplicate_sd"] / mean["raw_sd_same_deals"], 3)
        if mean["raw_sd_same_deals"]
        else None,
        "seconds": round(time.perf_counter() - start, 1),
        "machine": {"cpus": os.cpu_count(), "processes": processes, "python": platform.python_version()},
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="easy", help="the bot level of every entrant (medium is deterministic)")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--entrants", type=int, default=32)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--hands", type=int, default=4, help="deals a match (a round)")
    parser.add_argument("--events", type=int, default=20, help="independent events of each kind, spreads averaged")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    figures = run(
        args.level, args.preset, args.entrants, args.players, args.deals, args.hands, args.events, args.seed,
        args.processes,
    )  # fmt: skip
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
