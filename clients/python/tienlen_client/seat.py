"""One seat's calls: :class:`Seat`, authenticated by the seat's token or by its account's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .chat import chat_body

if TYPE_CHECKING:
    from .api import Client

__all__ = ["Seat", "key_header"]


class Seat:
    """One seat of one match, authenticated by a token that acts for it.

    ``token`` is the seat's own token, or a token (scope ``play``) of the
    account that holds the seat: an account's token acts for the seat its
    account holds in every match, so a bot that plays under an account needs
    one token for all its matches (``client.seat(match_id, account_token)``).
    With an account's token, a call for a match where the account holds no
    seat answers 403 ``not_seated``; a token without the ``play`` scope 403
    ``scope_missing``.
    """

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        """A seat of ``match_id`` whose calls go through ``client`` with ``token`` (the seat's or its account's)."""
        self.client = client
        self.match_id = match_id
        self.token = token

    def _call(self, method: str, tail: str, body: Any = None, key: str | None = None, expect: int = 200) -> Any:
        return self.client.request(
            method, f"/v1/matches/{self.match_id}{tail}", body, token=self.token, headers=key_header(key), expect=expect
        )

    def chat(self, text: str | None = None, *, phrase: str | None = None) -> dict[str, Any]:
        """Say ``text`` (1-200 characters) or a quick ``phrase``'s id in the seats' room (``table``); the message.
        Sent once (not idempotent)."""
        body = chat_body("table", text, phrase)
        return dict(
            self.client.request(
                "POST", f"/v1/matches/{self.match_id}/chat", body, token=self.token, expect=201, once=True
            )
        )

    def events(self, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """The match's events as this seat reads them (the seats' chat room included)."""
        return self.client.events(self.match_id, after, wait, token=self.token)

    def view(self) -> dict[str, Any]:
        """The seat's view (public state plus its own cards)."""
        return dict(self._call("GET", "/view"))

    def legal(self) -> dict[str, Any]:
        """``{can_pass, plays}``."""
        return dict(self._call("GET", "/legal"))

    def hint(self) -> dict[str, Any]:
        """``{action, explanation}``."""
        return dict(self._call("GET", "/hint"))

    def play(self, cards: list[str], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Play cards; answers the view after every bot reply (see :meth:`act` for retries)."""
        return self.act({"type": "play", "cards": cards}, version, key)

    def pass_turn(self, version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Pass (see :meth:`act` for retries)."""
        return self.act({"type": "pass"}, version, key)

    def act(self, action: dict[str, Any], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """``POST …/actions`` with an optional ``version``; answers the seat's view after every bot reply.

        Safe to retry: the server keeps the answer under the ``Idempotency-Key``
        (``key``, else a fresh one for this call) for 24 h and answers a retry
        with it, applying nothing again, also after a 503 ``outcome_unknown``.
        """
        body = dict(action)
        if version is not None:
            body["version"] = version
        return dict(self._call("POST", "/actions", body, key))

    def leave(self, *, key: str | None = None) -> dict[str, Any]:
        """``POST …/leave`` → the public match: the seat opens again (waiting) or a bot takes it over.

        Retried, but the server keeps no answer for it (the ``Idempotency-Key``
        it carries, as every write does, is ignored): leaving twice changes
        nothing more, yet the seat's token stops working once it has left, so a
        retry after an attempt that was applied (e.g. one answered 503
        ``outcome_unknown``) answers 401 ``invalid_token``; when
        :attr:`ApiError.attempts` > 1, read the match to tell.
        """
        return dict(self._call("POST", "/leave", key=key))

    def rematch(self, *, key: str | None = None) -> dict[str, Any]:
        """``POST …/rematch`` → 201 ``{match_id, seat, token}`` in the next match (409 ``match_not_finished``).

        Safe to retry: the same seat's call again answers the same seat and token.
        A seat its account holds stays the account's in the next match: the
        account's token acts for it there too (``client.seat(match_id, account_token)``).
        """
        return dict(self._call("POST", "/rematch", key=key, expect=201))

    def cancel(self, *, key: str | None = None) -> None:
        """``DELETE /v1/matches/{id}`` → 204: the host cancels a match still waiting for seats (409
        ``match_not_waiting``; another seat: 403 ``not_host``, it leaves instead).

        Retried, but the server keeps no answer for it (the ``Idempotency-Key``
        it carries is ignored): a cancelled match is gone, so a retry after an
        attempt that was applied answers 404 ``match_not_found``; when
        :attr:`ApiError.attempts` > 1, that most likely means the match was
        cancelled by this call.
        """
        self._call("DELETE", "", key=key, expect=204)


def key_header(key: str | None) -> dict[str, str] | None:
    """The ``Idempotency-Key`` header for a given key (None: the transport makes a fresh one)."""
    return {"Idempotency-Key": key} if key else None
