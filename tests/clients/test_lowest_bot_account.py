"""The example bot plays under an account with a personal token (``--token`` or ``TIENLEN_TOKEN``), against a real
server process: it signs in, makes a match against house bots (or joins one by room code or by id) and plays it,
and its rematches, with that one token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import Client

from tests.clients.people import new_member

BOT = [sys.executable, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "lowest_bot.py")]

pytestmark = pytest.mark.xdist_group("live_server")


def _run(*args: str, token: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The bot with ``args``, ``TIENLEN_TOKEN`` set to ``token`` (unset for None)."""
    env = {k: v for k, v in os.environ.items() if k != "TIENLEN_TOKEN"}
    if token is not None:
        env["TIENLEN_TOKEN"] = token
    return subprocess.run([*BOT, *args], env=env, capture_output=True, text=True, timeout=timeout)


def test_the_bot_signs_in_with_a_personal_token_and_plays_a_new_match_against_house_bots(live_server: str) -> None:
    """Rule: with TIENLEN_TOKEN and no match, the bot signs in as the account, makes a match against house bots in
    which the account holds its seat, and plays it to the end."""
    client = Client(live_server)
    member = new_member(client)
    done = _run(live_server, "--players", "2", "--hands", "1", token=member.token)
    assert done.returncode == 0, done.stderr[-2000:]
    signed_in, made, over = done.stdout.splitlines()
    assert signed_in == f"signed in as {member.name} (bot)"
    assert made.startswith("match ") and made.endswith(" against 1 easy bots")
    assert over.startswith("match over: winner seat ")
    final = client.match(made.split()[1])
    assert final["status"] == "finished" and len(final["hands"]) == 1
    assert (final["seats"][0]["name"], final["seats"][0]["account"]) == (member.name, True)


def test_the_bot_joins_by_room_code_with_token_and_plays_its_rematch_with_the_same_token(live_server: str) -> None:
    """Rule: --room CODE with --token joins the room's match as the account; --matches 2 asks for the rematch and
    plays it with the account's token too."""
    client = Client(live_server)
    member = new_member(client)
    seats: list[dict[str, Any]] = [{"type": "bot", "name": "Bo", "bot": "easy"}, {"type": "open", "open": True}]
    created = client.create_match(seats, rules={"hands": 1})
    code = created["match"]["room_code"]
    done = _run(live_server, "--room", code.lower(), "--token", member.token, "--matches", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[:2] == [f"signed in as {member.name} (bot)", f"room {code}: match {created['match_id']}"]
    assert len(lines) == 4 and all(line.startswith("match over: winner seat ") for line in lines[2:])
    first = client.match(created["match_id"])
    assert first["status"] == "finished" and first["seats"][1]["account"] is True
    rematch = client.match(first["next_match_id"])
    assert rematch["status"] == "finished"
    assert (rematch["seats"][1]["name"], rematch["seats"][1]["account"]) == (member.name, True)


def test_the_bot_given_a_match_id_joins_it_as_the_account(live_server: str) -> None:
    """Rule: MATCH_ID with an account's token the match does not know yet (403 not_seated) joins it, then plays."""
    client = Client(live_server)
    member = new_member(client)
    created = client.create_match([{"type": "open", "open": True}, {"type": "bot", "name": "Bo", "bot": "easy"}],
                                  rules={"hands": 1})  # fmt: skip
    done = _run(live_server, created["match_id"], token=member.token)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("match over: winner seat ") and done.stdout.count("\n") == 1
    assert client.match(created["match_id"])["seats"][0]["name"] == member.name


def test_the_bot_with_a_token_the_server_does_not_know_prints_the_refusal_and_exits_1(live_server: str) -> None:
    """Rule: a bad personal token is one line on standard error (401 invalid_token) and exit status 1."""
    done = _run(live_server, "--token", "not-a-token")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("refused: 401 invalid_token: ") and done.stderr.count("\n") == 1


def test_the_bot_without_a_token_or_a_match_is_a_usage_error(live_server: str) -> None:
    """Rule: nothing to play with (no token, no --join) is a usage error (exit status 2), naming TIENLEN_TOKEN."""
    done = _run(live_server)
    assert done.returncode == 2 and "TIENLEN_TOKEN" in done.stderr and "Traceback" not in done.stderr
