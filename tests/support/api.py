"""Small conveniences over Flask's test client, used by the API tests (the ``api`` fixture)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

__all__ = ["Api", "json_object"]


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
