"""Each answer schema's planned dump writes exactly what marshmallow itself writes (api/schemas/dumping.py).

The service's domain objects of a whole match, played by the bots from the
remote seat's hints, are written both ways and compared: the public match,
each view, legal plays, hints, action and leave outcomes, event pages, the
lobby, created matches, tokens and the rules catalogue.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from tienlen.api import schemas
from tienlen.api.schemas.dumping import AnswerSchema
from tienlen.api.services import services_of
from tienlen.engine import DEFAULT_PRESET, PARAMETERS, PRESETS
from tienlen.service import MatchServices, match_state
from tienlen.service.commands import Join


def same(schema: AnswerSchema, obj: Any) -> dict[str, Any]:
    planned = schema.dump(obj)
    assert planned == schema.reference_dump(obj), type(schema).__name__
    return planned  # type: ignore[no-any-return]


def test_planned_dumps_equal_marshmallows_over_a_whole_match(app: Flask) -> None:
    service: MatchServices = services_of(app).game
    body = {
        "seats": [{"name": "Ann", "entropy": "ann 7f3a"}, {"name": "Bo", "bot": "easy"}, {"open": True}],
        "rules": {"preset": "standard", "hands": 2},
        "listed": True,
        "clock": {"turn_seconds": 60, "timeouts_before_takeover": 2},
        "takeover": "medium",
    }
    created = service.matches.create(schemas.CreateMatchSchema().load(body))
    same(schemas.CreatedMatchSchema(), created)
    page = service.lobby.lobby(players=3, preset=None, limit=50, cursor=None)
    assert any(entry.match_id == created.match_id for entry in page.matches)
    same(schemas.LobbySchema(), page)
    joined = service.matches.join(created.match_id, Join("Cy", "cy!"))
    same(schemas.SeatTokenSchema(), joined)
    token = created.tokens[0].token
    seen_kinds: set[str] = set()
    for _ in range(200):
        view = service.reads.view(created.match_id, token)
        written = same(schemas.SeatViewSchema(), view)
        same(schemas.MatchSchema(), match_state(service.reads.get(created.match_id)))
        same(schemas.LegalSchema(), service.reads.legal(created.match_id, token))
        if written["status"] != "playing":
            break
        seat = written["turn"]
        mover = token if seat == 0 else joined.token if seat == joined.seat else None
        if mover is None:
            break
        hint = service.reads.hint(created.match_id, mover)
        same(schemas.HintSchema(), hint)
        action = schemas.ActionSchema().load({"type": hint.action.type, "cards": hint.action.cards})
        outcome = service.matches.act(created.match_id, mover, action, None)
        answered = same(schemas.ActionAnswerSchema(), outcome)
        seen_kinds.update(event["type"] for event in answered["events"])
    assert {"played", "passed"} <= seen_kinds
    same(schemas.EventPageSchema(), service.reads.events(created.match_id, 0, 0))
    same(schemas.LeaveAnswerSchema(), service.lifecycle.leave(created.match_id, joined.token))
    catalogue = {"default_preset": DEFAULT_PRESET, "presets": PRESETS, "parameters": {p.name: p for p in PARAMETERS}}
    rules = same(schemas.RuleCatalogSchema(), catalogue)
    assert set(rules["parameters"]) == {p.name for p in PARAMETERS}
