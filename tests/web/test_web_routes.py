"""The browser table's routes, Swagger UI served offline, and CORS from TIENLEN_CORS_ORIGINS."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tienlen.api import create_app
from tienlen.api.routes.web import documented_headers
from tienlen.local_redis import LocalRedis
from tienlen.settings import Settings, checkout_web_dir

ROOT = Path(__file__).resolve().parents[2]


def _client(redis_server: LocalRedis, **extra: str) -> FlaskClient:
    config = {"REDIS_URL": redis_server.url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_ANONYMOUS_HOSTING": "1"} | extra
    return create_app(config).test_client()


def test_table_page_served_at_root_and_match_link(client: FlaskClient) -> None:
    """Rule: the page is served at each of its views' paths: the lobby, a match, its replay, the match watched, a
    profile, the account."""
    for path in (
        "/",
        "/m/abc123",
        "/m/abc123/replay",
        "/m/abc123/watch",
        "/p/Ann",
        "/p/ann-b_2",
        "/leaderboard",
        "/account",
        "/friends",
        "/puzzles",
        "/moderate",
        "/tournaments",
        "/t/0123456789abcdef0123",
    ):
        answer = client.get(path)
        assert answer.status_code == 200
        assert b'<script type="module"' in answer.data
    assert client.get("/web/js/main.js").status_code == 200


def test_missing_web_file_is_404_not_found(client: FlaskClient) -> None:
    answer = client.get("/web/nope.js")
    assert answer.status_code == 404
    assert answer.get_json()["reason"] == "not_found"


def test_docs_load_swagger_ui_from_this_server_only(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page
    assert "http://" not in page and "https://" not in page
    for name in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert client.get(f"/docs/assets/{name}").status_code == 200


def test_seats_tag_shows_token_placeholder_as_code() -> None:
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    seats = next(tag for tag in spec["tags"] if tag["name"] == "seats")
    assert "`Authorization: Bearer <token>`" in seats["description"]


def test_no_cors_headers_by_default(client: FlaskClient) -> None:
    answer = client.get("/v1/rules", headers={"Origin": "http://other.example"})
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_cors_origins_allow_listed_origin_only(redis_server: LocalRedis) -> None:
    client = _client(redis_server, TIENLEN_CORS_ORIGINS="http://table.example:3000")
    preflight = client.options(
        "/v1/matches",
        headers={
            "Origin": "http://table.example:3000",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "http://table.example:3000"
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    other = client.get("/v1/rules", headers={"Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def _listed(value: str) -> set[str]:
    """The names of a comma-separated header list, lower-cased (header names are case-insensitive)."""
    return {name.strip().lower() for name in value.split(",") if name.strip()}


def test_a_page_on_another_origin_may_send_the_api_headers_and_read_every_documented_one(
    redis_server: LocalRedis,
) -> None:
    """Rule: the preflight allows the request headers clients send; every answer exposes the documented headers."""
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    documented = documented_headers(spec)
    assert {"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(documented)
    origin = "http://table.example:3000"
    client = _client(redis_server, TIENLEN_CORS_ORIGINS=origin, TIENLEN_RATE_LIMITS="create=1/minute")
    client.environ_base["REMOTE_ADDR"] = "10." + ".".join(str(random.randrange(256)) for _ in range(3))  # my own count
    sent = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"]
    preflight = client.options(
        "/v1/matches",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": ",".join(name.lower() for name in sent),
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == origin
    assert _listed(preflight.headers["Access-Control-Allow-Headers"]) == {name.lower() for name in sent}
    body = {"seats": [{"name": "A"}, {"open": True}]}
    answers = [client.post("/v1/matches", json=body, headers={"Origin": origin}) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 429]
    for answer in answers:  # a limited answer and the refusal: the page reads the limit and when to retry
        assert answer.headers["Access-Control-Allow-Origin"] == origin
        exposed = _listed(answer.headers["Access-Control-Expose-Headers"])
        assert {name.lower() for name in documented} | {"allow"} <= exposed, exposed
        sent_back = {name.lower() for name, _ in answer.headers.items()}
        assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= sent_back
    assert answers[1].headers["Retry-After"]
    missing = client.get("/v1/matches/0123456789abcdef0123", headers={"Origin": origin})
    assert missing.status_code == 404 and "retry-after" in _listed(missing.headers["Access-Control-Expose-Headers"])


def test_bad_cors_origin_refused_at_start() -> None:
    with pytest.raises(ValueError, match="TIENLEN_CORS_ORIGINS"):
        Settings.load({"TIENLEN_CORS_ORIGINS": "not an origin"})
    assert Settings.load({"TIENLEN_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    assert Settings.load({"TIENLEN_CORS_ORIGINS": ""}).cors_origins == ()


def test_the_table_comes_from_the_checkout_by_default_and_from_tienlen_web_dir_when_set(
    redis_server: LocalRedis, tmp_path: Path
) -> None:
    """Rule: a checkout serves its clients/web/public; ``TIENLEN_WEB_DIR`` (the Docker image's) replaces it."""
    assert checkout_web_dir() == ROOT / "clients" / "web" / "public"
    assert Settings.load({}).web_dir == ROOT / "clients" / "web" / "public"
    (tmp_path / "index.html").write_text("<p>another table</p>")
    client = _client(redis_server, TIENLEN_WEB_DIR=str(tmp_path))
    assert client.get("/").data == b"<p>another table</p>"
    assert client.get("/web/js/main.js").status_code == 404


def test_without_web_files_the_table_answers_404_saying_what_to_set(redis_server: LocalRedis) -> None:
    """Rule: an installed package without the files (no checkout, no TIENLEN_WEB_DIR) answers 404 not_found."""
    settings = Settings.load({"REDIS_URL": redis_server.url, "TIENLEN_LOG_LEVEL": "WARNING"})
    client = create_app(replace(settings, web_dir=None)).test_client()
    answer = client.get("/")
    assert answer.status_code == 404
    assert answer.json is not None and answer.json["reason"] == "not_found"
    assert "TIENLEN_WEB_DIR" in answer.json["message"]
