"""Master on the server like every level: a bot seat and the takeover bot (the house bot: tests/api/test_api_rated.py).

Rule checked: a match with a Master seat and ``takeover: master`` is played to its end through the API, Master's
seat acting (every action checked by the engine).
"""

from __future__ import annotations

from tienlen_client.botkit import lowest_play

from tests.support.api import Api, json_object


def test_a_match_against_master_is_played_to_its_end(api: Api) -> None:
    seats = [{"name": "Remote"}, {"name": "Master", "bot": "master"}]
    created = api.create(seats=seats, rules={"hands": 1}, seed=45, takeover="master")
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    for _ in range(200):
        view = api.view(match_id, token)
        if view["status"] == "finished":
            break
        cards = lowest_play(view)
        body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        assert api.act(match_id, token, body).status_code == 200
    events = json_object(api.client.get(f"/v1/matches/{match_id}/events?after=0"))["events"]
    assert any(e["type"] in {"played", "passed"} and e["seat"] == 1 for e in events)
    assert json_object(api.client.get(f"/v1/matches/{match_id}"))["status"] == "finished"
