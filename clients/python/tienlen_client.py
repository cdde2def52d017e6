"""A small, dependency-free Python client for the Tiến Lên server's API v1.

    from tienlen_client import Client

    client = Client("http://127.0.0.1:8000")
    created = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], seed=7)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    print(seat.view()["cards"], seat.legal())

A :class:`Client` keeps one HTTP/1.1 connection alive and reuses it for every
call; after a failure it closes it and the next call opens a new one. It is
not thread-safe: give each thread its own. Every call but :meth:`Client.send`
checks the answer's status and raises :class:`ApiError` with the server's
``reason`` when it is not the expected one; :meth:`Client.send` answers any
status with its raw body. Errors of the connection itself (refused, reset,
timed out) are raised as they come (``OSError``, ``http.client.HTTPException``).

Only the standard library is used, so this file can be copied next to a bot
script and run anywhere (``lowest_bot.py`` is such a script).
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from dataclasses import dataclass
from types import TracebackType
from typing import Any

__all__ = ["ApiError", "Client", "Response", "Seat"]


class ApiError(Exception):
    """An answer with an unexpected status: ``status``, the machine-readable ``reason``, the ``body``.

    ``request`` names the call (e.g. ``"POST /v1/matches/…/actions"``) when known.
    """

    def __init__(self, status: int, body: Any, request: str | None = None) -> None:
        """Keep the status and the (decoded) error body; ``reason`` is ``"None"`` when the body has none."""
        details: dict[str, Any] = body if isinstance(body, dict) else {"message": body}
        message = f"{status} {details.get('reason')}: {details.get('message')}"
        super().__init__(f"{message} ({request})" if request else message)
        self.status = status
        self.reason = str(details.get("reason"))
        self.body = body
        self.request = request


@dataclass(frozen=True)
class Response:
    """One answer as it came: its status and raw body."""

    status: int
    data: bytes

    def json(self) -> Any:
        """The body decoded from JSON (None when it is empty).

        Raises:
            ValueError: when the body is not JSON.
        """
        return json.loads(self.data) if self.data else None


def _error_body(response: Response) -> Any:
    """The body of a refusal: its JSON, else its text (e.g. a proxy's HTML page)."""
    try:
        return response.json()
    except ValueError:
        return response.data[:300].decode("utf-8", errors="replace")


class Client:
    """Calls that need no seat token, over one kept-alive HTTP connection."""

    def __init__(self, base_url: str, timeout: float = 40.0) -> None:
        """Remember the server's address (``http://host:port``); the connection opens on the first call."""
        parsed = urllib.parse.urlsplit(base_url)
        self._host = parsed.hostname or "127.0.0.1"
        self._port = parsed.port or 80
        self._timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    # ------------------------------------------------------------------ transport

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """Send one request and answer its status and raw body, whatever the status.

        ``body`` is sent as JSON; ``token`` as ``Authorization: Bearer``. A
        request on a kept-alive connection that the server has meanwhile
        closed is sent once more on a new connection; any other failure
        closes the connection (the next call opens a new one) and is raised.

        Raises:
            OSError, http.client.HTTPException: when the connection fails.
        """
        sent = {"Accept": "application/json", **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode()
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        while True:
            reused = self._connection is not None
            if self._connection is None:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            connection = self._connection
            try:
                connection.request(method, path, body=payload, headers=sent)
                response = connection.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                if reused and isinstance(error, (ConnectionError, http.client.HTTPException)):
                    continue  # the server closed the idle connection: once more on a new one
                raise
            if response.will_close:
                self.close()
            return Response(response.status, data)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        expect: int | None = None,
    ) -> Any:
        """Send one request and answer its JSON body.

        Raises:
            ApiError: when the status is not ``expect`` (or, without ``expect``, is 400 or more).
            ValueError: when an expected answer is not JSON.
            OSError, http.client.HTTPException: when the connection fails.
        """
        response = self.send(method, path, body, token=token, headers=headers)
        refused = response.status >= 400 if expect is None else response.status != expect
        if refused:
            raise ApiError(response.status, _error_body(response), f"{method} {path}")
        return response.json()

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Client:
        """The client itself; the connection is closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the connection."""
        self.close()

    # ------------------------------------------------------------------ calls

    def create_match(
        self,
        seats: list[dict[str, Any]],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: list[list[str]] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/matches`` → 201 ``{match_id, tokens, match}``."""
        body: dict[str, Any] = {"seats": seats}
        if rules is not None:
            body["rules"] = rules
        if seed is not None:
            body["seed"] = seed
        if deal is not None:
            body["deal"] = deal
        return dict(self.request("POST", "/v1/matches", body, expect=201))

    def join(self, match_id: str, name: str) -> dict[str, Any]:
        """``POST /v1/matches/{id}/join`` → 201 ``{seat, token}``."""
        return dict(self.request("POST", f"/v1/matches/{match_id}/join", {"name": name}, expect=201))

    def match(self, match_id: str) -> dict[str, Any]:
        """The public state."""
        return dict(self.request("GET", f"/v1/matches/{match_id}", expect=200))

    def events(self, match_id: str, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """Events after ``after``, waiting up to ``wait`` seconds for one."""
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return dict(self.request("GET", f"/v1/matches/{match_id}/events?{query}", expect=200))

    def rules(self) -> dict[str, Any]:
        """The presets."""
        return dict(self.request("GET", "/v1/rules", expect=200))

    def health(self) -> dict[str, Any]:
        """``GET /healthz`` → ``{"status": "ok"}`` (an :class:`ApiError` 503 when Redis does not answer)."""
        return dict(self.request("GET", "/healthz", expect=200))

    def seat(self, match_id: str, token: str) -> Seat:
        """Calls made with one seat's token."""
        return Seat(self, match_id, token)


class Seat:
    """One seat of one match, authenticated by its token."""

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        """A seat of ``match_id`` whose calls go through ``client`` with ``token``."""
        self.client = client
        self.match_id = match_id
        self.token = token

    def view(self) -> dict[str, Any]:
        """The seat's view (public state plus its own cards)."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/view", token=self.token, expect=200))

    def legal(self) -> dict[str, Any]:
        """``{can_pass, plays}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/legal", token=self.token, expect=200))

    def hint(self) -> dict[str, Any]:
        """``{action, explanation}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/hint", token=self.token, expect=200))

    def play(self, cards: list[str], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Play cards; answers the view after every bot reply."""
        return self._act({"type": "play", "cards": cards}, version, key)

    def pass_turn(self, version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Pass."""
        return self._act({"type": "pass"}, version, key)

    def _act(self, body: dict[str, Any], version: int | None, key: str | None) -> dict[str, Any]:
        """``POST …/actions`` with an optional ``version`` and ``Idempotency-Key``."""
        if version is not None:
            body["version"] = version
        headers = {"Idempotency-Key": key} if key else None
        path = f"/v1/matches/{self.match_id}/actions"
        return dict(self.client.request("POST", path, body, token=self.token, headers=headers, expect=200))
