"""Master on the server like every level: a bot seat and the takeover bot (the house bot: tests/api/test_api_rated.py).

Rule checked: a match with a Master seat and ``takeover: master`` is played to its end through the API, Master's
seat acting (every action checked by the engine).
"""

from __future__ import annotations

from tests.support.api import Api
from tests.support.lifecycle import events, play_out


def test_a_match_against_master_is_played_to_its_end(api: Api) -> None:
    seats = [{"name": "Remote"}, {"name": "Master", "bot": "master"}]
    created = api.create(seats=seats, rules={"hands": 1}, seed=45, takeover="master")
    match_id = created["match_id"]
    play_out(api, match_id, {0: created["tokens"][0]["token"]})
    assert any(e["type"] in {"played", "passed"} and e["seat"] == 1 for e in events(api.client, match_id))
    assert api.public(match_id)["status"] == "finished"
