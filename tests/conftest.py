"""Shared fixtures: a private Redis server for the session, the app, a client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tienlen.api import create_app
from tienlen.embedded_redis import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    """A Redis server of our own on a free port in a temp dir, stopped at the end."""
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def app(redis_server: EmbeddedRedis) -> Flask:
    """The app on the session's Redis, with a small bot budget to keep tests quick."""
    return create_app({"REDIS_URL": redis_server.url, "TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


class Api:
    """Small conveniences over the test client, used by the API tests."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def create(self, **body: Any) -> dict[str, Any]:
        """Create a match; assert 201; answer the body."""
        response = self.client.post("/v1/matches", json=body)
        assert response.status_code == 201, response.json
        data: dict[str, Any] = response.json  # type: ignore[assignment]
        return data

    def auth(self, token: str) -> dict[str, str]:
        """The Authorization header of a token."""
        return {"Authorization": f"Bearer {token}"}

    def view(self, match_id: str, token: str) -> dict[str, Any]:
        """A seat's view; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}/view", headers=self.auth(token))
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[return-value]

    def public(self, match_id: str) -> dict[str, Any]:
        """The public match; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}")
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[return-value]

    def legal(self, match_id: str, token: str) -> dict[str, Any]:
        """A seat's legal plays; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}/legal", headers=self.auth(token))
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[return-value]

    def act(self, match_id: str, token: str, body: dict[str, Any], **headers: str) -> Any:
        """POST an action; answer the raw response."""
        return self.client.post(
            f"/v1/matches/{match_id}/actions", json=body, headers=self.auth(token) | headers
        )


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """Conveniences over the test client."""
    return Api(client)
