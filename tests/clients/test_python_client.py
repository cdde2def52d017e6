"""The Python client and the example bot script against a real server process."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import play_match
from tienlen_client import ApiError, Client


def test_four_bot_scripts_play_a_match_to_the_end_by_long_polling(live_server: str) -> None:
    host = Client(live_server)
    created = host.create_match([{"open": True}] * 4, rules={"hands": 1}, seed=99)
    match_id = created["match_id"]
    finals: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            client = Client(live_server)
            token = client.join(match_id, name)["token"]
            finals.append(play_match(client.seat(match_id, token), wait=5))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(f"bot{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert len(finals) == 4 and all(f["status"] == "finished" for f in finals)
    assert sorted(f["seat"] for f in finals) == [0, 1, 2, 3]
    assert host.match(match_id)["winner"] is not None


def test_client_raises_api_errors_with_reason(live_server: str) -> None:
    client = Client(live_server)
    with pytest.raises(ApiError) as caught:
        client.match("0123456789abcdef0123")
    assert caught.value.status == 404 and caught.value.reason == "match_not_found"
    created = client.create_match([{"name": "A"}, {"name": "B", "bot": "easy"}], seed=1)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    hint = seat.hint()
    assert hint["explanation"]
    with pytest.raises(ApiError) as refused:
        seat.play(["3S", "3S"])
    assert refused.value.reason in {"duplicate_cards", "not_your_turn"}
