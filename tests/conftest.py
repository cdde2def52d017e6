"""Shared fixtures: a private Redis server for the session, the app, a client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tienlen.api import create_app
from tienlen.embedded_redis import EmbeddedRedis, free_port


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


ServerStarter = Callable[[str, int, Path], subprocess.Popen[bytes]]


def start_server(redis_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """Run ``python -m tienlen serve`` on ``port`` against ``redis_url``; wait until healthy."""
    env = os.environ | {"REDIS_URL": redis_url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_BOT_BUDGET": "0.02"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tienlen", "serve", "--port", str(port), "--workers", "1", "--threads", "8"],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if json.loads(response.read()) == {"status": "ok"}:
                    return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")


@pytest.fixture(scope="session")
def server_starter() -> ServerStarter:
    """A function that starts a real server process and waits until it is healthy."""
    return start_server


@pytest.fixture(scope="session")
def live_server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real gunicorn server on the session's Redis; answers its base URL."""
    port = free_port()
    process = start_server(redis_server.url, port, tmp_path_factory.mktemp("server") / "server.log")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)
