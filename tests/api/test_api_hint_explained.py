"""The hint's ``explanation_code``: its explanation in a machine-readable form (the sentence and what it names),
from which a client writes the sentence in its own language; the English ``explanation`` is that sentence."""

from __future__ import annotations

from typing import Any

from tests.support.api import Api, json_object
from tests.support.engine import mask
from tienlen.bots.explain import REASONS, TEMPLATES, Explanation, NearlyOut, words
from tienlen.engine import Combination, classify

# Seat 0 leads 3S and holds one card after 2H; seat 1 holds nothing that beats a 2 (no bomb, bombs exact).
DEAL = [
    ["3S", "2H", "9C"],
    ["4S", "5S", "5D", "7S", "9S", "JS"],
    ["4C", "6S", "8S", "10S"],
    ["4D", "6C", "8C", "10C"],
]


def _hint(api: Api, match_id: str, token: str) -> dict[str, Any]:
    response = api.client.get(f"/v1/matches/{match_id}/hint", headers=api.auth(token))
    assert response.status_code == 200, response.json
    return json_object(response)


def _combo(named: dict[str, Any] | None) -> Combination | None:
    """A combination of the answer (its cards), checked to be of the kind the answer says."""
    if named is None:
        return None
    combo = classify(mask(" ".join(named["cards"])))
    assert combo is not None and combo.kind.value == named["kind"], named
    return combo


def _english(code: dict[str, Any]) -> str:
    """The English sentence written from the answer's code alone, as the server writes it."""
    near = code["nearly_out"]
    return words(
        Explanation(
            code["template"],
            code["reason"],
            play=_combo(code["play"]),
            table=_combo(code["table"]),
            kept=_combo(code["kept"]),
            nearly_out=None if near is None else NearlyOut(near["seat"], near["cards_left"]),
        )
    )


def _check(hint: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The code's fields are all there, name the hint's own play and the view's table, and give its English."""
    code: dict[str, Any] = hint["explanation_code"]
    assert set(code) == {"template", "reason", "play", "table", "kept", "nearly_out"}
    assert code["template"] in TEMPLATES and code["reason"] in REASONS
    if hint["action"]["type"] == "play":
        assert code["play"]["cards"] == hint["action"]["cards"]
    else:
        assert code["play"] is None and code["template"].startswith("pass_")
    if code["table"] is not None:
        assert view["table"] is not None and code["table"]["cards"] == view["table"]["cards"]
        assert code["table"]["kind"] == view["table"]["kind"]
    if code["nearly_out"] is not None:
        near = code["nearly_out"]
        assert near["seat"] != view["seat"] and view["seats"][near["seat"]]["cards_left"] == near["cards_left"] <= 2
    assert _english(code) == hint["explanation"]
    return code


def test_a_pass_with_nothing_to_beat_names_the_table(api: Api) -> None:
    """Seat 1 cannot beat the single 2H: the hint passes, and says so with the table's card and kind."""
    created = api.create(seats=[{"name": n} for n in "ABCD"], rules={"hands": 1}, deal=DEAL)
    match_id, tokens = created["match_id"], [t["token"] for t in created["tokens"]]
    for seat, cards in ((0, ["3S"]), (1, ["4S"]), (2, ["6S"]), (3, ["8C"]), (0, ["2H"])):
        answer = api.act(match_id, tokens[seat], {"type": "play", "cards": cards})
        assert answer.status_code == 200, answer.json
    hint = _hint(api, match_id, tokens[1])
    code = _check(hint, api.view(match_id, tokens[1]))
    assert hint["action"] == {"type": "pass", "cards": []}
    assert code == {
        "template": "pass_cannot_beat",
        "reason": "none",
        "play": None,
        "table": {"cards": ["2H"], "kind": "single"},
        "kept": None,
        "nearly_out": None,
    }
    assert hint["explanation"] == "Passes: nothing you hold beats the single 2H."


def test_the_last_card_goes_out(api: Api) -> None:
    """Seat 0, on lead with one card left, is told to play it and go out."""
    created = api.create(seats=[{"name": n} for n in "ABCD"], rules={"hands": 1}, deal=DEAL)
    match_id, tokens = created["match_id"], [t["token"] for t in created["tokens"]]
    for seat, action in ((0, ["3S"]), (1, ["4S"]), (2, ["6S"]), (3, ["8C"]), (0, ["2H"]), (1, None), (2, None)):
        body = {"type": "pass"} if action is None else {"type": "play", "cards": action}
        answer = api.act(match_id, tokens[seat], body)
        assert answer.status_code == 200, answer.json
    answer = api.act(match_id, tokens[3], {"type": "pass"})
    assert answer.status_code == 200, answer.json
    hint = _hint(api, match_id, tokens[0])
    code = _check(hint, api.view(match_id, tokens[0]))
    assert code["template"] == "go_out" and code["play"] == {"cards": ["9C"], "kind": "single"}
    assert hint["explanation"] == "Plays single 9C, your last cards: you go out."


def test_every_hint_of_a_hand_carries_its_sentence(api: Api) -> None:
    """Over a hand of four remote seats, each playing the hinted action, every hint's code names its play, the
    table and any seat nearly out, and writes exactly its English explanation; leads, beats and passes all come."""
    created = api.create(seats=[{"name": n} for n in "ABCD"], rules={"hands": 1}, seed=5)
    match_id, tokens = created["match_id"], [t["token"] for t in created["tokens"]]
    templates: set[str] = set()
    for _ in range(200):
        match = api.public(match_id)
        if match["status"] != "playing":
            break
        token = tokens[match["turn"]]
        view = api.view(match_id, token)
        hint = _hint(api, match_id, token)
        templates.add(_check(hint, view)["template"])
        answer = api.act(match_id, token, hint["action"] | {"version": view["version"]})
        assert answer.status_code == 200, answer.json
    assert api.public(match_id)["status"] == "finished"
    passes = {"pass_cannot_beat", "pass_keep", "pass_save"}
    assert {"beat", "go_out"} <= templates and templates & {"lead", "lead_lowest"} and templates & passes, templates
