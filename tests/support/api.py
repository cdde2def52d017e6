"""Small conveniences over Flask's test client, used by the API tests (the ``api`` fixture)."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

__all__ = ["Api", "OwnAddressClient", "json_object", "own_address_client"]


class OwnAddressClient(FlaskClient):
    """A test client that calls from an address of its own (a fresh IPv6 address each client).

    The server counts some things per client address in Redis (failed logins: 30 in 15 minutes an address, then
    429), and the session's Redis is shared by every test: with the test client's default address, other tests'
    wrong passwords could use up a test's allowance. A test that needs two clients at one address sets
    ``environ_base["REMOTE_ADDR"]`` itself.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.environ_base["REMOTE_ADDR"] = "fd00:7e57::" + ":".join(secrets.token_hex(2) for _ in range(3))


def own_address_client(app: Flask) -> FlaskClient:
    """A test client of ``app`` calling from an address of its own (:class:`OwnAddressClient`)."""
    return OwnAddressClient(app, app.response_class, use_cookies=True)


def json_object(response: TestResponse) -> dict[str, Any]:
    """The JSON object a response carries (fails the test when it carries anything else)."""
    data = response.get_json(silent=True)
    assert isinstance(data, dict), f"HTTP {response.status_code}: not a JSON object: {response.data[:300]!r}"
    return data


class Api:
    """Calls of the API through the test client, each checking its status."""

    def __init__(self, client: FlaskClient) -> None:
        """Wrap a test client of the app."""
        self.client = client

    def create(self, **body: Any) -> dict[str, Any]:
        """Create a match; assert 201; answer the body."""
        response = self.client.post("/v1/matches", json=body)
        assert response.status_code == 201, response.json
        return json_object(response)

    def auth(self, token: str) -> dict[str, str]:
        """The Authorization header of a token."""
        return {"Authorization": f"Bearer {token}"}

    def view(self, match_id: str, token: str) -> dict[str, Any]:
        """A seat's view; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}/view", headers=self.auth(token))
        assert response.status_code == 200, response.json
        return json_object(response)

    def public(self, match_id: str) -> dict[str, Any]:
        """The public match; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}")
        assert response.status_code == 200, response.json
        return json_object(response)

    def legal(self, match_id: str, token: str) -> dict[str, Any]:
        """A seat's legal plays; assert 200."""
        response = self.client.get(f"/v1/matches/{match_id}/legal", headers=self.auth(token))
        assert response.status_code == 200, response.json
        return json_object(response)

    def act(self, match_id: str, token: str, body: dict[str, Any], **headers: str) -> TestResponse:
        """POST an action; answer the raw response."""
        return self.client.post(f"/v1/matches/{match_id}/actions", json=body, headers=self.auth(token) | headers)
