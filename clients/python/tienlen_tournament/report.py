"""A tournament's figures: per bot and opponent level, first-place rate and mean points with 95% CIs, incidents."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from .intervals import BOOTSTRAP_RESAMPLES, bootstrap_mean_interval, wilson_interval
from .seating import SeatOutcome

__all__ = ["INTERVALS", "format_report", "summarize"]

INTERVALS = {
    "first_rate_ci95": "Wilson score interval of first places out of games (n = finished matches, each seat of "
    "each deal one game)",
    "mean_points_ci95": f"percentile bootstrap over deals ({BOOTSTRAP_RESAMPLES} resamples of the deals' mean "
    "points, seeded by the tournament's seed); the whole range 0 to players - 1 with fewer than 2 deals",
}
"""How the report's intervals are worked out, as the report states it."""


def summarize(
    commands: Sequence[str], opponents: Sequence[str], outcomes: Sequence[SeatOutcome], *, seed: int = 1
) -> dict[str, Any]:
    """The JSON-able report of a tournament (see :func:`_row` for the figures and their 95% intervals).

    A match without a result (stalled) is left out of the figures and counted.
    Incidents are counted per bot: crashes, timeouts, matches the tournament
    played to the end for it, illegal actions. ``seed`` seeds the bootstrap, so
    the same outcomes give the same report.
    """
    bots = []
    for index, command in enumerate(commands):
        mine = [o for o in outcomes if o.plan.bot == index]
        rows = []
        for opponent in opponents:
            played = [o for o in mine if o.plan.opponent == opponent and o.place is not None]
            rows.append(_row(opponent, played, seed=f"{seed}:{index}:{opponent}"))
        bots.append(
            {
                "bot": index + 1,
                "command": command,
                "matches": len(mine),
                "results": rows,
                "incidents": {
                    "crashes": sum(o.crashed for o in mine),
                    "timeouts": sum(o.timeouts for o in mine),
                    "stood_in": sum(o.stood_in for o in mine),
                    "illegal_actions": sum(o.illegal_actions for o in mine),
                    "killed": sum(o.killed for o in mine),
                    "stalled": sum(o.stalled for o in mine),
                },
                "notes": sorted({o.note for o in mine if o.note})[:5],
            }
        )
    return {"bots": bots}


def _row(opponent: str, played: Sequence[SeatOutcome], *, seed: str) -> dict[str, Any]:
    """One bot's figures against one opponent level, from its finished matches.

    First-place rate: first places out of games, with the Wilson score
    interval, n being the games (each seat of each deal one). The seats of a
    deal share its cards, so a deal's luck partly cancels over them: their
    first places vary less than independent games would, and the interval is
    if anything wider than it need be.

    Mean points (``players - 1 - place``): the mean over deals of each deal's
    mean over its seats, with a seeded bootstrap over deals (a deal's luck
    counted once); inside [0, players - 1], and that whole range with one deal.
    """
    by_deal: dict[int, list[SeatOutcome]] = {}
    for outcome in played:
        by_deal.setdefault(outcome.plan.deal, []).append(outcome)
    if not by_deal:
        return {"opponent": opponent, "games": 0, "deals": 0, "first_rate": None, "mean_points": None}
    players = played[0].plan.players
    games = len(played)
    firsts = sum(o.place == 0 for o in played)
    rate_low, rate_high = wilson_interval(firsts, games)
    points = [statistics.fmean(float(o.points or 0) for o in deal) for deal in by_deal.values()]
    mean = statistics.fmean(points)
    if len(points) < 2:
        mean_low, mean_high = 0.0, float(players - 1)
    else:
        mean_low, mean_high = bootstrap_mean_interval(points, seed=seed)
    return {
        "opponent": opponent,
        "games": games,
        "deals": len(by_deal),
        "first_places": firsts,
        "first_rate": round(firsts / games, 4),
        "first_rate_ci95": [round(rate_low, 4), round(rate_high, 4)],
        "parity_first_rate": round(1 / players, 4),
        "mean_points": round(mean, 4),
        "mean_points_ci95": [round(mean_low, 4), round(mean_high, 4)],
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as plain text, one block a bot."""
    lines = []
    for bot in report["bots"]:
        lines.append(f"bot {bot['bot']}: {bot['command']}")
        head = f"  {'opponent':<9} {'games':>6} {'1st rate':>9} {'95% CI':>17} {'points':>7} {'95% CI':>17}"
        lines += [head, "  " + "-" * (len(head) - 2)]
        for row in bot["results"]:
            if not row["games"]:
                lines.append(f"  {row['opponent']:<9} {0:>6}  no finished match")
                continue
            lo, hi = row["first_rate_ci95"]
            plo, phi = row["mean_points_ci95"]
            lines.append(
                f"  {row['opponent']:<9} {row['games']:>6} {row['first_rate']:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} "
                f"{row['mean_points']:>7.3f} {f'[{plo:.3f}, {phi:.3f}]':>17}"
            )
        found = bot["incidents"]
        lines.append(
            f"  incidents: {found['crashes']} crashes, {found['timeouts']} timeouts, "
            f"{found['illegal_actions']} illegal actions, {found['stood_in']} matches finished for it, "
            f"{found['killed']} processes killed, {found['stalled']} stalled ({bot['matches']} matches)"
        )
        lines += [f"  note: {note}" for note in bot["notes"]]
    return "\n".join(lines)
