"""The Python client and the example bot script against a real server process: bot scripts play
whole matches, refusals raise ``ApiError``. Following a match is in test_client_follow.py, the
kept-alive connection in test_client_connection.py."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import lowest_from_legal, lowest_from_view, play_match
from tienlen_client import ApiError, Client

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"

pytestmark = pytest.mark.xdist_group("live_server")


@pytest.mark.parametrize("long_poll", [False, True], ids=["stream", "long-poll"])
def test_four_bot_scripts_play_a_match_to_the_end(live_server: str, long_poll: bool) -> None:
    host = Client(live_server)
    created = host.create_match([{"open": True}] * 4, rules={"hands": 2})
    match_id = created["match_id"]
    finals: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(name: str, from_view: bool) -> None:
        try:
            client = Client(live_server)
            token = client.join(match_id, name)["token"]
            choose = lowest_from_view if from_view else lowest_from_legal
            finals.append(play_match(client.seat(match_id, token), wait=5, choose=choose, long_poll=long_poll))
        except BaseException as error:
            errors.append(error)

    # two bots ask GET .../legal, two work their plays out from their views
    threads = [threading.Thread(target=run, args=(f"bot{i}", i >= 2)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert len(finals) == 4 and all(f["status"] == "finished" for f in finals)
    assert sorted(f["seat"] for f in finals) == [0, 1, 2, 3]
    final = host.match(match_id)
    assert final["winner"] is not None
    # two hands, and a third only when the deal (a fair one: nobody fixed it) left the highest total shared
    totals = [sum(hand["points"][seat] for hand in final["hands"][:2]) for seat in range(4)]
    tied = totals.count(max(totals)) > 1
    assert len(final["hands"]) == (3 if tied else 2), (totals, final["hands"])


def test_client_raises_api_errors_with_reason(live_server: str) -> None:
    client = Client(live_server)
    assert client.health() == {"status": "ok"}
    with pytest.raises(ApiError) as caught:
        client.match("0123456789abcdef0123")
    assert caught.value.status == 404 and caught.value.reason == "match_not_found"
    assert caught.value.request == "GET /v1/matches/0123456789abcdef0123"
    answer = client.send("GET", "/v1/matches/0123456789abcdef0123")
    assert answer.status == 404 and answer.json()["reason"] == "match_not_found"
    created = client.create_match([{"name": "A"}, {"name": "B", "bot": "easy"}], seed=1)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    hint = seat.hint()
    assert hint["explanation"]
    with pytest.raises(ApiError) as refused:
        seat.play(["3S", "3S"])
    assert refused.value.reason in {"duplicate_cards", "not_your_turn"}


def _without_tienlen() -> dict[str, str]:
    """An environment for ``python -S``: no site-packages, so no ``tienlen`` (nor anything installed)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


def test_the_bot_script_plays_with_the_standard_library_only(live_server: str) -> None:
    env = _without_tienlen()
    bare = subprocess.run([sys.executable, "-S", "-c", "import tienlen"], env=env, capture_output=True, check=False)
    assert bare.returncode != 0, "python -S still finds the tienlen package: this test would prove nothing"
    created = Client(live_server).create_match(
        [{"open": True}, {"name": "Bo", "bot": "easy"}, {"name": "Cy", "bot": "easy"}], rules={"hands": 1}
    )
    script = [sys.executable, "-S", str(CLIENTS / "lowest_bot.py"), live_server, created["match_id"]]
    result = subprocess.run([*script, "--join", "Robo"], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("match over: winner seat ")
    again = Client(live_server).create_match(
        [{"name": "Bo", "bot": "easy"}, {"open": True}, {"name": "Cy", "bot": "easy"}], rules={"hands": 1}
    )
    script[-1] = again["match_id"]
    result = subprocess.run(
        [*script, "--join", "Robo", "--long-poll"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("match over: winner seat ")
    refused = subprocess.run(
        [*script, "--join", "Ann", "--from-view"], env=env, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and "--from-view needs the tienlen package" in refused.stderr
