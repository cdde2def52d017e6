"""One match of a tournament: an outside bot's process in one seat, our levels in the others, a steward.

The match is created on the tournament's server with the outside bot's seat
remote and every other seat a server bot of the opponent level. The bot's
command runs as a process with the server URL, match id and token (see
:func:`bot_command`); the steward watches the match meanwhile:

- a turn of the bot's seat that lasts longer than the per-decision timeout is
  played for it as a turn clock would (pass when it may, else its lowest legal
  play) and counted as a timeout; after ``max_timeouts`` in a row the process
  is stopped and the steward plays the seat to the end (``stood_in``);
- a process that ends while the match still needs it, or with a non-zero
  status, is a crash; the steward plays the seat to the end;
- once the match is over the process gets a few seconds to exit, then is killed.

Illegal actions are counted afterwards from the server's request log.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tienlen_client import ApiError, Client, Seat

from .processes import stop_process

__all__ = ["MatchPlan", "SeatOutcome", "Stewarding", "bot_command", "play_match"]

_POLL_S = 0.05
_CALL_TIMEOUT_S = 60.0
_EXIT_GRACE_S = 5.0
_KILL_WAIT_S = 5.0


@dataclass(frozen=True, slots=True)
class Stewarding:
    """How the steward treats a bot: seconds a decision, timeouts in a row before it stands in, limits."""

    timeout_s: float = 5.0
    max_timeouts: int = 2
    startup_s: float = 10.0
    match_limit_s: float = 600.0


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """One match to play: which bot (index and command), which opponent level, which deal and seat."""

    bot: int
    command: str
    opponent: str
    deal: int
    seed: int
    seat: int
    players: int
    preset: str


@dataclass(slots=True)
class SeatOutcome:
    """What happened to the outside bot in one match."""

    plan: MatchPlan
    match_id: str = ""
    place: int | None = None
    exit_code: int | None = None
    crashed: bool = False
    timeouts: int = 0
    stood_in: bool = False
    killed: bool = False
    stalled: bool = False
    illegal_actions: int = 0
    note: str = ""

    @property
    def points(self) -> int | None:
        """``players - 1 - place``, as the arena scores (None without a result)."""
        return None if self.place is None else self.plan.players - 1 - self.place


def bot_command(command: str, url: str, match_id: str, token: str, seat: int) -> list[str]:
    """The bot's argument list: ``{url}``, ``{match_id}``, ``{token}`` and ``{seat}`` filled in when the
    command names any of them, else the URL, match id and token appended (as ``clients/python/lowest_bot.py``
    takes them)."""
    words = shlex.split(command)
    fields = {"url": url, "match_id": match_id, "token": token, "seat": str(seat)}
    if any("{" + name + "}" in word for word in words for name in fields):
        filled = []
        for word in words:
            for name, value in fields.items():
                word = word.replace("{" + name + "}", value)
            filled.append(word)
        return filled
    return [*words, url, match_id, token]


def play_match(base_url: str, plan: MatchPlan, stewarding: Stewarding, logs: Path) -> SeatOutcome:
    """Create the match on the server at ``base_url``, run the bot's process in its seat and steward the match
    to its end (over a client of its own: one match a thread)."""
    with Client(base_url, timeout=_CALL_TIMEOUT_S) as api:
        return _play_match(api, base_url, plan, stewarding, logs)


def _play_match(api: Client, base_url: str, plan: MatchPlan, stewarding: Stewarding, logs: Path) -> SeatOutcome:
    """:func:`play_match` over ``api``."""
    outcome = SeatOutcome(plan)
    seats: list[dict[str, Any]] = [
        {"name": f"bot{plan.bot + 1}"} if s == plan.seat else {"name": f"{plan.opponent}{s}", "bot": plan.opponent}
        for s in range(plan.players)
    ]
    created = api.create_match(seats, rules={"preset": plan.preset, "hands": 1}, seed=plan.seed)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    outcome.match_id = match_id
    argv = bot_command(plan.command, base_url, match_id, token, plan.seat)
    env = os.environ | {
        "TIENLEN_URL": base_url,
        "TIENLEN_MATCH_ID": match_id,
        "TIENLEN_TOKEN": token,
        "TIENLEN_SEAT": str(plan.seat),
    }
    log_path = logs / f"bot{plan.bot + 1}-{plan.opponent}-deal{plan.deal}-seat{plan.seat}.log"
    with log_path.open("wb") as log:
        try:
            process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        except OSError as error:
            outcome.crashed = True
            outcome.note = f"could not start: {error}"
            process = None
        try:
            final = _steward(api, outcome, process, token, stewarding)
        except (ApiError, OSError, KeyError, TypeError) as error:  # the server failed us, not the bot
            outcome.stalled = True
            outcome.note = f"the tournament lost the match: {error}"
            final = None
            if process is not None and process.poll() is None:
                stop_process(process, _KILL_WAIT_S)
                outcome.killed = True
        if process is not None:
            _finish_process(process, outcome)
    if final is not None and final["status"] == "finished" and final["hands"]:
        outcome.place = list(final["hands"][0]["places"]).index(plan.seat)
    if outcome.crashed and not outcome.note:
        outcome.note = _tail(log_path)
    return outcome


def _steward(
    api: Client, outcome: SeatOutcome, process: subprocess.Popen[bytes] | None, token: str, stewarding: Stewarding
) -> dict[str, Any] | None:
    """Watch the match until it is finished, acting for the seat when its bot is too slow or gone."""
    seat, match_id = outcome.plan.seat, outcome.match_id
    started = time.monotonic()
    standing_in = outcome.stood_in = process is None
    in_a_row = 0
    watched: int | None = None  # the version at which the seat's current turn was first seen
    turn_deadline = 0.0
    while True:
        match = api.match(match_id)
        now = time.monotonic()
        if match["status"] == "finished":
            return match
        if now - started > stewarding.match_limit_s:
            outcome.stalled = True
            outcome.note = f"no end after {stewarding.match_limit_s:.0f} s"
            if process is not None and process.poll() is None:
                stop_process(process, _KILL_WAIT_S)
                outcome.killed = True
            return None
        if not standing_in and process is not None and process.poll() is not None:
            match = api.match(match_id)  # it may have exited just after the match ended, since the read above
            if match["status"] == "finished":
                return match
            outcome.crashed = True  # gone while the match still needs it
            standing_in = outcome.stood_in = True
        on_turn = match["status"] == "playing" and match["turn"] == seat
        if on_turn and standing_in:
            if not _stand_in(api.seat(match_id, token), match["version"]):
                time.sleep(_POLL_S)
            continue
        if on_turn and match["version"] != watched:
            if watched is not None:
                in_a_row = 0  # a new turn of the seat, and the steward did not end the last one: the bot acted
            watched = match["version"]
            turn_deadline = max(now + stewarding.timeout_s, started + stewarding.startup_s)
        elif on_turn and now > turn_deadline:
            if _stand_in(api.seat(match_id, token), match["version"]):
                outcome.timeouts += 1
                in_a_row += 1
                watched = None
                if in_a_row >= stewarding.max_timeouts:
                    standing_in = True
                    outcome.stood_in = True
                    if process is not None and process.poll() is None:
                        stop_process(process, _KILL_WAIT_S)
                        outcome.killed = True
                continue
        elif not on_turn and watched is not None:
            in_a_row = 0  # the seat's turn ended without the steward: the bot acted itself
            watched = None
        time.sleep(_POLL_S)


def _stand_in(seat: Seat, version: int) -> bool:
    """Act for the seat as a turn clock does: pass when it may, else its lowest legal play.

    ``version`` is the match version the seat's turn was seen at: when the
    seat has acted since, nothing is done. Whether the action was applied.
    """
    try:
        legal = seat.legal()
    except ApiError:
        return False
    try:
        if not legal["can_pass"] and legal["plays"]:
            seat.play(list(legal["plays"][0]["cards"]), version=version)
        else:
            seat.pass_turn(version=version)
    except ApiError as error:
        if error.status in (409, 422):  # the seat acted first (stale version, turn moved on)
            return False
        raise
    return True


def _finish_process(process: subprocess.Popen[bytes], outcome: SeatOutcome) -> None:
    """Give the process a few seconds to exit after the match; a non-zero status (not ours) is a crash."""
    if process.poll() is None:
        try:
            process.wait(timeout=_EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            stop_process(process, _KILL_WAIT_S)
            outcome.killed = True
    outcome.exit_code = process.returncode
    if process.returncode != 0 and not outcome.killed:
        outcome.crashed = True


def _tail(path: Path, lines: int = 3) -> str:
    """The last lines of a bot's output, on one line."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:])
