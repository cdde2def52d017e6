"""A small, dependency-free Python client for the Tiến Lên server's API v1.

    from tienlen_client import Client

    client = Client("http://127.0.0.1:8000")
    created = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], seed=7)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    print(seat.view()["cards"], seat.legal())
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from typing import Any


class ApiError(Exception):
    """A non-2xx answer: ``status`` and the machine-readable ``reason``."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('reason')}: {body.get('message')}")
        self.status = status
        self.reason = str(body.get("reason"))
        self.body = body


class Client:
    """Calls that need no seat token. Keeps one HTTP connection alive."""

    def __init__(self, base_url: str, timeout: float = 40.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        self._host = parsed.hostname or "127.0.0.1"
        self._port = parsed.port or 80
        self._timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, headers: dict[str, str] | None = None
    ) -> Any:
        """Send one request and answer its JSON body; raise :class:`ApiError` on non-2xx."""
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        for attempt in range(2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            try:
                self._connection.request(method, path, body=data, headers=sent)
                response = self._connection.getresponse()
                payload = json.loads(response.read() or b"null")
                break
            except (http.client.HTTPException, ConnectionError):
                self._connection.close()
                self._connection = None
                if attempt:
                    raise
        if response.status >= 400:
            raise ApiError(response.status, payload)
        return payload

    def create_match(
        self,
        seats: list[dict[str, Any]],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: list[list[str]] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/matches``."""
        body: dict[str, Any] = {"seats": seats}
        if rules is not None:
            body["rules"] = rules
        if seed is not None:
            body["seed"] = seed
        if deal is not None:
            body["deal"] = deal
        return dict(self.request("POST", "/v1/matches", body))

    def join(self, match_id: str, name: str) -> dict[str, Any]:
        """``POST /v1/matches/{id}/join`` → ``{seat, token}``."""
        return dict(self.request("POST", f"/v1/matches/{match_id}/join", {"name": name}))

    def match(self, match_id: str) -> dict[str, Any]:
        """The public state."""
        return dict(self.request("GET", f"/v1/matches/{match_id}"))

    def events(self, match_id: str, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """Events after ``after``, waiting up to ``wait`` seconds for one."""
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return dict(self.request("GET", f"/v1/matches/{match_id}/events?{query}"))

    def rules(self) -> dict[str, Any]:
        """The presets."""
        return dict(self.request("GET", "/v1/rules"))

    def seat(self, match_id: str, token: str) -> Seat:
        """Calls made with one seat's token."""
        return Seat(self, match_id, token)


class Seat:
    """One seat of one match, authenticated by its token."""

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        self.client = client
        self.match_id = match_id
        self.token = token

    def view(self) -> dict[str, Any]:
        """The seat's view (public state plus its own cards)."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/view", token=self.token))

    def legal(self) -> dict[str, Any]:
        """``{can_pass, plays}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/legal", token=self.token))

    def hint(self) -> dict[str, Any]:
        """``{action, explanation}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/hint", token=self.token))

    def play(self, cards: list[str], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Play cards; answers the view after every bot reply."""
        return self._act({"type": "play", "cards": cards}, version, key)

    def pass_turn(self, version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Pass."""
        return self._act({"type": "pass"}, version, key)

    def _act(self, body: dict[str, Any], version: int | None, key: str | None) -> dict[str, Any]:
        if version is not None:
            body["version"] = version
        headers = {"Idempotency-Key": key} if key else None
        path = f"/v1/matches/{self.match_id}/actions"
        return dict(self.client.request("POST", path, body, token=self.token, headers=headers))
