"""The few API calls the tournament makes, over the standard library (one connection a call)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

__all__ = ["Api", "ApiAnswer"]


class ApiAnswer:
    """An answer: its status and decoded JSON body (``None`` when it had none)."""

    def __init__(self, status: int, body: Any) -> None:
        """Keep the status and body."""
        self.status = status
        self.body = body

    @property
    def reason(self) -> str | None:
        """The error's machine-readable ``reason``, if the body has one."""
        return self.body.get("reason") if isinstance(self.body, dict) else None

    def expect(self, status: int) -> Any:
        """The body when the status is ``status``; otherwise RuntimeError naming the answer."""
        if self.status != status:
            raise RuntimeError(f"the tournament's server answered {self.status} {self.reason}: {self.body}")
        return self.body


class Api:
    """Calls to the tournament's server at ``base_url``."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        """Keep the base URL and the per-call timeout in seconds."""
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> ApiAnswer:
        """One call; any status is answered (errors of the connection itself are raised)."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return ApiAnswer(answer.status, _decode(answer.read()))
        except urllib.error.HTTPError as error:
            with error:
                return ApiAnswer(error.code, _decode(error.read()))

    def create_match(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /v1/matches``: the created match (``match_id``, ``tokens``, ``match``)."""
        created: dict[str, Any] = self.call("POST", "/v1/matches", body).expect(201)
        return created

    def match(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}``: the public match."""
        found: dict[str, Any] = self.call("GET", f"/v1/matches/{match_id}").expect(200)
        return found

    def stand_in(self, match_id: str, token: str, version: int) -> bool:
        """Act for the seat as a turn clock does: pass when it may, else its lowest legal play.

        ``version`` is the match version the seat's turn was seen at: when the
        seat has acted since, nothing is done. Whether the action was applied.
        """
        legal = self.call("GET", f"/v1/matches/{match_id}/legal", token=token)
        if legal.status != 200:
            return False
        action: dict[str, Any] = {"type": "pass", "version": version}
        if not legal.body["can_pass"] and legal.body["plays"]:
            action = {"type": "play", "cards": legal.body["plays"][0]["cards"], "version": version}
        answer = self.call("POST", f"/v1/matches/{match_id}/actions", action, token=token)
        if answer.status in (409, 422):  # the seat acted first (stale version, turn moved on)
            return False
        answer.expect(200)
        return True


def _decode(data: bytes) -> Any:
    """JSON, or None for an empty or non-JSON body."""
    try:
        return json.loads(data) if data else None
    except json.JSONDecodeError:
        return None
