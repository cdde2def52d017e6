"""``tienlen-bot --tournament ID`` against a real server process: bot accounts enter a Swiss, play every round's
table unattended as their inboxes tell them and stop once it is over (exit status 0), the tournament finished with
standings; a refused entry (bots not admitted), a withdrawal from another client and a cancellation each end the
bot with its documented exit status and one clear log line."""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import Client
from tienlen_client.bot import Config, Runner
from tienlen_client.bot import tournament as tournament_module
from tienlen_client.bot.config import parse_config
from tienlen_client.bot.policy import lowest
from tienlen_client.bot.tournament import EXIT_CANCELLED, EXIT_REFUSED

from tests.clients.people import Member, new_member
from tests.clients.test_bot_runner import wait_until

pytestmark = pytest.mark.xdist_group("live_server")

LATER = "2100-01-01T00:00:00Z"


class Started:
    """A runner for ``--tournament`` in a thread of its own; ``status`` once it returned."""

    def __init__(self, url: str, member: Member, tournament_id: str) -> None:
        self.runner = Runner(
            Config(url=url, token=member.token, policy="test", tournament=tournament_id), lambda: lowest
        )
        self.status: list[int] = []
        self.thread = threading.Thread(target=lambda: self.status.append(self.runner.run()), daemon=True)
        self.thread.start()

    def ended(self, timeout: float) -> int:
        """Its exit status, once it returned within ``timeout`` seconds (stopped and failed otherwise)."""
        self.thread.join(timeout)
        if self.thread.is_alive():
            self.runner.stop()
            self.thread.join(10)
            raise AssertionError("the runner did not stop by itself")
        return self.status[0]


def test_bots_enter_a_swiss_and_play_every_round_to_its_end(live_server: str, caplog: pytest.LogCaptureFixture) -> None:
    """Rule: four tienlen-bot instances with --tournament enter a Swiss of 2 rounds at tables of 2 (hands=1, bots
    admitted, starting when full), play each round's table as `tournament_table_ready` tells them, and each stops
    with status 0 once it is over; the tournament is finished, each entrant played both rounds, the final standings
    rank all four, each runner finished two matches."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    client = Client(live_server)
    creator = new_member(client)
    tid = client.create_tournament(
        creator.token, "Bot Swiss", "swiss", players=2, rounds=2, hands=1, max_entrants=4, bots=True, turn_seconds=20
    )["tournament_id"]
    members = [new_member(client) for _ in range(4)]
    started = [Started(live_server, member, tid) for member in members]
    assert [one.ended(120) for one in started] == [0, 0, 0, 0]
    over = client.tournament(tid)
    assert over["status"] == "finished" and [r["number"] for r in over["rounds"]] == [1, 2]
    assert all(table["ended"] for r in over["rounds"] for table in r["tables"])
    standings = client.standings(tid)
    assert standings["final"] is True
    assert sorted(s["name"] for s in standings["standings"]) == sorted(m.name for m in members)
    assert [s["rank"] for s in standings["standings"]] == [1, 2, 3, 4]
    assert all(s["matches"] == 2 and s["bot"] for s in standings["standings"])
    for line in standings["standings"]:  # each bot's placing kept in its account's list (its profile's tournaments)
        (placing,) = client.player_tournaments(line["name"])
        assert (placing["tournament_id"], placing["place"], placing["entrants"]) == (tid, line["rank"], 4)
    assert [one.runner.finished for one in started] == [2, 2, 2, 2]
    lines = [r.getMessage() for r in caplog.records if r.name == "tienlen_bot"]
    assert sum(f"tournament {tid} (Bot Swiss) finished: place" in line for line in lines) == 4


@pytest.mark.parametrize("case", ["bots_not_admitted", "withdrawn", "cancelled"])
def test_a_refused_withdrawn_or_cancelled_entry_ends_the_bot_with_its_status(
    live_server: str, case: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: a tournament that does not admit bots refuses the bot's entry: exit 3 at once, the reason logged; an
    entry withdrawn from another client (seen when the tournament is read again): exit 3; a tournament cancelled by
    its creator (heard on the inbox): exit 4."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    monkeypatch.setattr(tournament_module, "CHECK_S", 0.2)
    client = Client(live_server)
    creator, bot = new_member(client), new_member(client)
    bots = case != "bots_not_admitted"
    tid = client.create_tournament(creator.token, "Later", "swiss", rounds=1, starts_at=LATER, bots=bots)[
        "tournament_id"
    ]
    one = Started(live_server, bot, tid)
    if case != "bots_not_admitted":
        wait_until(lambda: client.tournament(tid, bot.token)["entered"], what="the bot to enter")
        if case == "withdrawn":
            client.withdraw_from_tournament(bot.token, tid)
        else:
            client.cancel_tournament(creator.token, tid)
    expected = {"bots_not_admitted": EXIT_REFUSED, "withdrawn": EXIT_REFUSED, "cancelled": EXIT_CANCELLED}[case]
    assert one.ended(20) == expected
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR and r.name == "tienlen_bot"]
    said = {
        "bots_not_admitted": "refused the entry",
        "withdrawn": "withdrawn from tournament",
        "cancelled": "was cancelled",
    }[case]
    assert any(said in line and tid in line for line in errors), errors
    if case == "bots_not_admitted":
        assert any("bots_not_admitted" in line for line in errors)


def test_the_command_line_takes_a_tournament_but_not_with_a_queue() -> None:
    """Rule: --tournament ID sets the config's tournament; with --queue it is a usage error (status 2)."""
    config = parse_config(["--token", "t", "--policy", "m:p", "--tournament", "abc"], {})
    assert config.tournament == "abc"
    with pytest.raises(SystemExit) as usage:
        parse_config(["--token", "t", "--policy", "m:p", "--tournament", "abc", "--queue", "4"], {})
    assert usage.value.code == 2
