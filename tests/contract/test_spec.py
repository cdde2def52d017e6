"""The OpenAPI document says exactly what the server takes and answers, in names that generate clean code."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tienlen.api import openapi_document
from tienlen.api.errors import REASON_STATUS, REASONS
from tienlen.bots import LEVELS
from tienlen.engine import PRESET_NAMES


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return openapi_document()


def schemas(spec: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"]
    return found


def refs(value: Any) -> set[str]:
    """Every schema name a part of the document refers to."""
    return set(re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(value)))


def test_every_schema_is_used_and_none_is_named_like_one_of_its_properties(spec: dict[str, Any]) -> None:
    found = schemas(spec)
    used = refs(spec["paths"])
    while True:  # what the operations use, and what those use in turn
        more = refs({name: found[name] for name in used}) - used
        if not more:
            break
        used |= more
    assert set(found) == used, f"unused schemas: {sorted(set(found) - used)}"
    assert "PaginationMetadata" not in found
    snake = {name: re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() for name in found}
    clashes = [name for name, body in found.items() if snake[name] in body.get("properties", {})]
    assert clashes == [], "a model's from_dict names its result after the model: it must not be a property too"


def test_the_document_names_its_servers(spec: dict[str, Any]) -> None:
    assert spec["servers"] and all("url" in server for server in spec["servers"])


def test_seats_are_exactly_one_of_remote_bot_or_open_and_a_named_seat_needs_a_name(spec: dict[str, Any]) -> None:
    found = schemas(spec)
    seat = found["SeatRequest"]
    assert [r["$ref"].rsplit("/", 1)[1] for r in seat["oneOf"]] == [
        "RemoteSeatRequest",
        "BotSeatRequest",
        "OpenSeatRequest",
    ]
    # Each case names its kind in `type`, documented as required with the union's discriminator (what a generated
    # client tells them apart by); a body without it is still accepted, a deprecated leniency the union says.
    assert found["RemoteSeatRequest"]["required"] == ["type", "name"]
    assert sorted(found["BotSeatRequest"]["required"]) == ["bot", "name", "type"]
    assert found["OpenSeatRequest"]["required"] == ["type", "open"]
    for name, kind in (("RemoteSeatRequest", "remote"), ("BotSeatRequest", "bot"), ("OpenSeatRequest", "open")):
        assert found[name]["properties"]["type"]["const"] == kind, name
        assert seat["discriminator"]["mapping"][kind] == f"#/components/schemas/{name}"
    assert seat["discriminator"]["propertyName"] == "type" and len(seat["discriminator"]["mapping"]) == 3
    assert "Deprecated leniency: a value without its `type` is still accepted" in seat["description"]
    oneofs = {name: schema for name, schema in found.items() if "oneOf" in schema}
    assert all("discriminator" in schema for schema in oneofs.values()), sorted(oneofs)
    # `open` is true or false only, written so that openapi-generator keeps it a boolean.
    assert found["OpenSeatRequest"]["properties"]["open"] == {"type": "boolean", "not": {"const": False}}
    assert found["RemoteSeatRequest"]["properties"]["open"]["not"] == {"const": True}
    assert all(found[name]["additionalProperties"] is False for name in ("RemoteSeatRequest", "OpenSeatRequest"))
    assert found["BotLevel"]["enum"] == list(LEVELS)
    assert found["BotSeatRequest"]["properties"]["bot"] == {"$ref": "#/components/schemas/BotLevel"}


def test_actions_and_events_are_discriminated_by_type_with_their_required_fields(spec: dict[str, Any]) -> None:
    found = schemas(spec)
    action = found["Action"]
    assert action["discriminator"]["propertyName"] == "type"
    assert set(action["discriminator"]["mapping"]) == {"play", "pass"}
    assert sorted(found["PlayAction"]["required"]) == ["cards", "type"]
    assert found["PlayAction"]["properties"]["cards"]["minItems"] == 1, "a play of no cards is no play"
    assert found["PassAction"]["required"] == ["type"] and found["PassAction"]["properties"]["cards"]["maxItems"] == 0
    event = found["Event"]
    expected = {
        "seat_joined": {"seat", "name"},
        "hand_started": {"hand_number", "leader"},
        "played": {"seat", "cards", "kind", "bomb"},
        "passed": {"seat"},
        "table_cleared": {"leader"},
        "went_out": {"seat", "place"},
        "hand_ended": {"hand_number", "places", "points"},
        "hand_shown": {"hand_number", "hands"},
        "match_ended": {"winner", "winners", "scores"},
        "timed_out": {"seat", "action"},
        "seat_taken_over": {"seat", "bot"},
        "seat_left": {"seat"},
        "match_abandoned": set(),
        "match_cancelled": set(),
        "rematch": {"next_match_id"},
        "chat_said": {"room", "name", "from_seat", "account", "text", "phrase", "said_at"},
        "chat_removed": {"message_seq"},
    }
    assert set(event["discriminator"]["mapping"]) == set(expected)
    for tag, ref in event["discriminator"]["mapping"].items():
        case = found[ref.rsplit("/", 1)[1]]
        assert case["properties"]["type"]["const"] == tag
        assert set(case["required"]) == expected[tag] | {"seq", "type"}, tag
        assert set(case["properties"]) == set(case["required"]), "every field of an event is always there"
    page = found["EventPage"]["properties"]["events"]["items"]
    assert page == {"$ref": "#/components/schemas/Event"}


def test_reason_and_bot_are_enums_from_the_one_list_of_each(spec: dict[str, Any]) -> None:
    found = schemas(spec)
    assert found["Error"]["properties"]["reason"]["enum"] == list(REASONS)
    assert set(REASON_STATUS) <= set(REASONS)
    seat_bot = found["MatchSeat"]["properties"]["bot"]
    assert seat_bot["anyOf"] == [{"$ref": "#/components/schemas/BotLevel"}, {"type": "null"}]
    assert found["Preset"]["enum"] == list(PRESET_NAMES)


def test_every_documented_reason_of_an_operation_is_a_known_reason(spec: dict[str, Any]) -> None:
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                listed = re.match(r"Reasons: ((?:`[a-z_]+`(?:, )?)+)", response.get("description", ""))
                named = re.findall(r"`([a-z_]+)`", listed.group(1)) if listed else []
                assert set(named) <= set(REASONS), (method, path, status)


def operations_by_id(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        operation["operationId"]: operation
        for operations in spec["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


def test_writes_that_a_client_retries_document_their_idempotency_key(spec: dict[str, Any]) -> None:
    by_id = operations_by_id(spec)
    for operation_id in ("create_match", "join_match", "post_action"):
        operation = by_id[operation_id]
        header = [p for p in operation.get("parameters", []) if p.get("in") == "header"]
        assert [p["name"] for p in header] == ["Idempotency-Key"], operation_id
        assert header[0]["required"] is False and header[0]["schema"]["maxLength"] == 200
        assert "idempotency_key_reused" in operation["responses"]["422"]["description"], operation_id
        assert "outcome_unknown" in operation["responses"]["503"]["description"], operation_id
    for operation_id in ("leave_match", "cancel_match", "rematch"):
        assert "outcome_unknown" in by_id[operation_id]["description"], f"{operation_id}: what to do after one"


def test_limited_answers_document_their_rate_limit_headers_and_waits_their_retry_after(spec: dict[str, Any]) -> None:
    from tienlen.api import create_app
    from tienlen.api.limits import limits_of

    by_id = operations_by_id(spec)
    counted = {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}
    limited = limits_of(create_app({"REDIS_URL": "redis://127.0.0.1:1/0"}))
    assert {view.operation_id for view in limited} == {
        "create_match", "join_match", "post_action", "get_hint", "get_events", "stream_events", "create_account",
        "post_chat", "report_chat_message",
        "login", "join_room", "export_player_matches", "create_challenge",
        "get_my_events", "stream_my_events", "enqueue", "get_ticket", "create_token", "follow", "unfollow",
        "create_tournament", "enter_tournament", "get_tournament_events", "stream_tournament_events",
        "post_puzzle_move",
    }  # fmt: skip
    for view in limited:
        responses = by_id[view.operation_id]["responses"]
        successes = [status for status in responses if status.startswith("2")]
        assert successes, view.operation_id
        for status in successes:
            assert set(responses[status].get("headers", {})) >= counted, (view.operation_id, status)
        assert set(responses["429"]["headers"]) == counted | {"Retry-After"}
        assert "Server-Timing" not in responses["429"].get("headers", {}), "a refused request waits for no turn"
    for operation_id in ("get_events", "stream_events"):
        waiters = by_id[operation_id]["responses"]["503"]
        assert "too_many_waiters" in waiters["description"] and "Retry-After" in waiters["headers"], operation_id
    assert "headers" not in by_id["get_match"]["responses"]["200"], "an operation that is not limited sends none"


def test_every_operation_names_its_security_a_token_exactly_where_invalid_token_is_an_answer(  # optional: both
    spec: dict[str, Any],
) -> None:
    optional = {
        "create_match",
        "join_match",
        "join_room",
        "get_tournament",
        "list_tournaments",
        "next_puzzle",
        "post_puzzle_move",
    }
    for operation_id, operation in operations_by_id(spec).items():
        needs_token = "invalid_token" in operation["responses"].get("401", {}).get("description", "")
        needs_token |= "not_moderator" in operation["responses"].get("403", {}).get("description", "")  # its token
        if operation_id in optional:
            assert needs_token and operation["security"] == [{}, {"bearerAuth": []}], operation_id
        else:
            assert operation["security"] == ([{"bearerAuth": []}] if needs_token else []), operation_id
    assert "security" not in spec, "no global security: each operation says its own"


def test_the_document_names_its_license(spec: dict[str, Any]) -> None:
    assert spec["info"]["license"] == {"name": "MIT", "identifier": "MIT"}


def every_schema_object(value: Any) -> list[dict[str, Any]]:
    """Every object of a part of the document, nested ones included."""
    if isinstance(value, dict):
        return [value, *(found for item in value.values() for found in every_schema_object(item))]
    if isinstance(value, list):
        return [found for item in value for found in every_schema_object(item)]
    return []


def test_no_schema_has_a_default_and_a_request_default_is_in_its_description(spec: dict[str, Any]) -> None:
    """openapi-typescript makes a property with a ``default`` required: in a request body it must stay optional."""
    found = schemas(spec)
    assert [body for body in every_schema_object(found) if "default" in body] == []
    assert "listed" not in found["CreateMatch"].get("required", [])
    assert found["CreateMatch"]["properties"]["listed"]["description"].endswith("(default `false`)")
    assert found["CreateMatch"]["properties"]["takeover"]["description"].endswith("(default `medium`)")
    assert found["ClockRequest"]["properties"]["timeouts_before_takeover"]["description"].endswith("(default `2`)")


def test_no_boolean_is_an_enum_or_a_const(spec: dict[str, Any]) -> None:
    """openapi-generator's python client turns a boolean enum or const into strings that no boolean passes."""
    booleans = [body for body in every_schema_object(spec) if body.get("type") == "boolean"]
    assert booleans and [body for body in booleans if "enum" in body or "const" in body] == []
