"""`tienlen-tournament`: outside bots play their seat over HTTP against our levels on duplicate deals.

One run (a real server on a private Redis, real bot processes) seats the example bot of
clients/python and three deliberately broken bots (tests/tournament/broken_bot.py); each is
reported for what it did and none stops the run.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from tienlen_tournament import main
from tienlen_tournament.runner import TournamentConfig, plan_matches
from tienlen_tournament.seating import bot_command
from tienlen_tournament.server import refused_actions

from tienlen import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = f"{sys.executable} {ROOT / 'clients' / 'python' / 'lowest_bot.py'}"
BROKEN_BOT = f"{sys.executable} {Path(__file__).with_name('broken_bot.py')}"
PLAYERS = 3
DEALS = 1
MATCHES = DEALS * PLAYERS  # one opponent level

pytestmark = pytest.mark.xdist_group("tournament")  # one worker runs the module's one tournament


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """One tournament of the example bot and the crashing, illegal and slow bots against Easy; report and text."""
    work = tmp_path_factory.mktemp("tournament")
    report_path = work / "report.json"
    capture = work / "stdout.txt"
    argv = ["--bot", EXAMPLE_BOT]
    for mode in ("crash", "illegal", "slow"):
        argv += ["--bot", f"{BROKEN_BOT} {mode}"]
    argv += ["--opponent", "easy", "--deals", str(DEALS), "--players", str(PLAYERS), "--timeout", "3"]
    argv += ["--startup", "5", "--parallel", "4", "--workers", "1", "--no-progress"]
    argv += ["--logs", str(work / "logs"), "--json", str(report_path)]
    original = sys.stdout
    with capture.open("w", encoding="utf-8") as out:
        sys.stdout = out
        try:
            code = main(argv)
        finally:
            sys.stdout = original
    assert code == 0
    return json.loads(report_path.read_text()), capture.read_text()


def _bot(report: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = report["bots"][number - 1]
    assert found["bot"] == number
    return found


def test_example_bot_plays_every_seat_of_every_deal_without_incident(tournament: tuple[dict[str, Any], str]) -> None:
    """Rule: a bot that plays legally and in time gets a result in each seat of each deal, no incident,
    and its first-place rate and mean points with 95% intervals, printed and in the JSON."""
    report, printed = tournament
    bot = _bot(report, 1)
    assert bot["matches"] == MATCHES
    assert bot["incidents"] == {
        "crashes": 0,
        "timeouts": 0,
        "stood_in": 0,
        "illegal_actions": 0,
        "killed": 0,
        "stalled": 0,
    }
    (row,) = bot["results"]
    assert row["opponent"] == "easy" and row["games"] == MATCHES and row["deals"] == DEALS
    low, high = row["first_rate_ci95"]
    assert 0 <= low <= row["first_rate"] <= high <= 1
    assert 0 <= row["mean_points_ci95"][0] <= row["mean_points"] <= row["mean_points_ci95"][1] <= PLAYERS - 1
    assert set(report["intervals"]) == {"first_rate_ci95", "mean_points_ci95"}
    assert f"bot 1: {EXAMPLE_BOT}" in printed
    assert "0 crashes, 0 timeouts, 0 illegal actions" in printed


def test_a_crashing_bot_is_reported_and_its_seat_played_out(tournament: tuple[dict[str, Any], str]) -> None:
    """Rule: a bot process that exits while its match needs it is a crash; the tournament plays the seat to
    the end (so the deal still counts) and shows the bot's last words."""
    report, printed = tournament
    bot = _bot(report, 2)
    assert bot["incidents"]["crashes"] == MATCHES
    assert bot["incidents"]["stood_in"] == MATCHES
    assert bot["incidents"]["timeouts"] == 0 and bot["incidents"]["illegal_actions"] == 0
    assert bot["results"][0]["games"] == MATCHES
    assert "broken bot: crashing on purpose" in bot["notes"]
    assert f"{MATCHES} crashes" in printed


def test_illegal_actions_are_counted_and_the_bot_plays_on(tournament: tuple[dict[str, Any], str]) -> None:
    """Rule: every action the server refuses as illegal (422) is counted for the bot that sent it; the bot
    keeps its seat (it then plays legally, so no timeout and no crash)."""
    report, _ = tournament
    bot = _bot(report, 3)
    assert bot["incidents"]["illegal_actions"] >= MATCHES  # at least one turn a match, one illegal play a turn
    assert bot["incidents"]["crashes"] == bot["incidents"]["timeouts"] == bot["incidents"]["stood_in"] == 0
    assert bot["results"][0]["games"] == MATCHES
    assert _bot(report, 1)["incidents"]["illegal_actions"] == 0


def test_a_slow_bot_times_out_then_is_stopped_and_played_for(tournament: tuple[dict[str, Any], str]) -> None:
    """Rule: a turn longer than the per-decision timeout is played for the bot (pass, else lowest play) and
    counted; after two in a row (the default) its process is stopped and the seat played to the end."""
    report, _ = tournament
    bot = _bot(report, 4)
    assert bot["incidents"]["timeouts"] == 2 * MATCHES
    assert bot["incidents"]["stood_in"] == bot["incidents"]["killed"] == MATCHES
    assert bot["incidents"]["crashes"] == 0 and bot["incidents"]["illegal_actions"] == 0
    assert bot["results"][0]["games"] == MATCHES


def test_every_deal_is_played_once_a_seat_with_the_same_seed() -> None:
    """Rule: duplicate deals: each bot plays each deal in every seat, with the same seed, against each level."""
    config = TournamentConfig(commands=("a", "b"), opponents=("easy", "hard"), deals=3, players=4)
    plans = plan_matches(config)
    assert len(plans) == 2 * 2 * 3 * 4
    for deal in range(3):
        seeds = {p.seed for p in plans if p.deal == deal}
        assert len(seeds) == 1
        for bot in (0, 1):
            for level in ("easy", "hard"):
                seats = sorted(p.seat for p in plans if (p.deal, p.bot, p.opponent) == (deal, bot, level))
                assert seats == [0, 1, 2, 3]
    assert len({p.seed for p in plans}) == 3


def test_bot_command_gets_url_match_and_token_as_arguments_or_where_it_names_them() -> None:
    """Rule: the URL, match id and token are appended (as lowest_bot.py takes them) unless the command names
    {url}, {match_id}, {token} or {seat}; the command is split as a shell would, but run without one."""
    assert bot_command("python 'my bot.py' --fast", "http://h:1", "m1", "t1", 2) == [
        "python",
        "my bot.py",
        "--fast",
        "http://h:1",
        "m1",
        "t1",
    ]
    assert bot_command("bot --server={url} -m {match_id} -t {token} -s {seat}", "http://h:1", "m1", "t1", 2) == [
        "bot",
        "--server=http://h:1",
        "-m",
        "m1",
        "-t",
        "t1",
        "-s",
        "2",
    ]


def test_refused_actions_are_counted_per_match_from_the_request_log(tmp_path: Path) -> None:
    """Rule: only POST …/actions answered 400 or 422 count as illegal; 409 (a lost race) and other calls do not."""
    log = tmp_path / "server.log"
    route = "/v1/matches/<match_id>/actions"
    lines = [
        {"method": "POST", "route": route, "match_id": "a", "status": 422},
        {"method": "POST", "route": route, "match_id": "a", "status": 400},
        {"method": "POST", "route": route, "match_id": "a", "status": 409},
        {"method": "POST", "route": route, "match_id": "b", "status": 200},
        {"method": "GET", "route": "/v1/matches/<match_id>/legal", "match_id": "b", "status": 422},
        {"method": "POST", "route": route, "match_id": "c", "status": 422},
    ]
    log.write_text("[gunicorn] starting\n" + "".join(json.dumps(line) + "\n" for line in lines) + "{broken\n")
    assert refused_actions(log) == {"a": 2, "c": 1}


def test_tournament_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: a tournament needs a bot, a known level and positive counts and timeouts."""
    for argv in (
        [],
        ["--bot", "x", "--opponent", "random"],
        ["--bot", "x", "--deals", "0"],
        ["--bot", "x", "--timeout", "0"],
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
    assert "--bot" in capsys.readouterr().err


def test_tournament_is_its_own_command_not_the_servers() -> None:
    """Rule: the tournament is a client of the server: the ``tienlen-tournament`` console script runs
    ``tienlen_tournament.main``, and the server's ``tienlen`` command has no ``tournament``."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = scripts["tienlen-tournament"].partition(":")
    assert getattr(importlib.import_module(module), name) is main
    with pytest.raises(SystemExit) as exited:
        cli.main(["tournament", "--bot", "x"])
    assert exited.value.code == 2


@pytest.mark.parametrize(
    ("options", "left"),
    [([], []), (["--logs", "out/logs", "--json", "out/report.json"], ["out"])],
    ids=["nothing asked", "logs and report asked"],
)
def test_a_tournament_run_leaves_the_working_directory_as_it_was(
    tmp_path: Path, options: list[str], left: list[str]
) -> None:
    """Rule: a run writes only where it is asked (--logs, --json): nothing else appears in the working
    directory, and what it kept in a temporary directory (the server, its Redis, the bots' output) is gone."""
    cwd, scratch = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir()
    scratch.mkdir()
    argv = [sys.executable, "-m", "tienlen_tournament", "--bot", EXAMPLE_BOT, "--opponent", "easy"]
    argv += ["--deals", "1", "--players", "2", "--workers", "1", "--timeout", "3", "--no-progress", *options]
    done = subprocess.run(
        argv, cwd=cwd, env=os.environ | {"TMPDIR": str(scratch)}, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "0 crashes, 0 timeouts, 0 illegal actions" in done.stdout
    assert sorted(p.name for p in cwd.iterdir()) == left
    assert list(scratch.iterdir()) == []
    if options:
        assert json.loads((cwd / "out" / "report.json").read_text())["bots"][0]["matches"] == 2
        assert (cwd / "out" / "logs" / "server.log").is_file()
