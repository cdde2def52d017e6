"""The challenge calls: challenge accounts and house bots, read a challenge, accept, decline or withdraw it."""

from __future__ import annotations

from typing import Any, cast

from ..challenges import Challenge
from .base import BaseClient
from .bodies import segment

__all__ = ["ChallengeCalls"]


class ChallengeCalls(BaseClient):
    """``/v1/challenges``."""

    def challenge(
        self,
        token: str,
        to: list[str],
        players: int = 2,
        *,
        preset: str | None = None,
        rated: bool = False,
        **options: Any,
    ) -> Challenge:
        """``POST /v1/challenges`` → 201 :class:`~.challenges.Challenge`: challenge accounts and house bots.

        ``to`` names the players of seats 1, 2, …; the last fills the seats
        left (a house bot then: an account holds one seat). The account of
        ``token`` (scope ``play``) sits at seat 0. The house bots (``easy``,
        ``medium``, ``hard``) accept at once: a challenge of house bots alone
        answers ``status`` ``started`` with ``match_id``, ``match`` (dealt) and
        the challenger's seat token in ``tokens`` (the account's token acts for
        the seat too: :meth:`seat`). A challenge of accounts is ``pending``
        until each accepts (:meth:`accept_challenge`); each must be online
        (listening to its events) and take the kind (rated or casual), else
        :class:`ApiError` ``player_offline`` or ``challenge_refused``. With
        ``rated`` the match moves every rating in it when it ends.
        ``options`` adds other fields (``takeover``).

        Sent once, never retried: the server keeps no answer to give a retry,
        so a lost answer might have made a challenge (and, of house bots, a
        match: look for it in the account's :meth:`player_matches` once it ends).
        """
        body: dict[str, Any] = {"to": to, "players": players, "rated": rated, **options}
        if preset is not None:
            body["preset"] = preset
        return cast(Challenge, self.request("POST", "/v1/challenges", body, token=token, expect=201, once=True))

    def challenge_status(self, token: str, challenge_id: str) -> Challenge:
        """``GET /v1/challenges/{id}`` → the challenge, for its sender or a challenged account (else 404)."""
        path = f"/v1/challenges/{segment(challenge_id)}"
        return cast(Challenge, self.request("GET", path, token=token, expect=200))

    def accept_challenge(self, token: str, challenge_id: str) -> Challenge:
        """``POST /v1/challenges/{id}/accept`` → the challenge; ``started``, with its match, once all accepted.

        Safe to send again: an accept sent again answers the challenge as it
        is, also once the match started. The account's ``token`` then acts for
        its seat (:meth:`seat` with ``match_id``). Refusals: ``not_challenged``
        (403), ``challenge_expired`` (410), ``challenge_closed`` (409).
        """
        path = f"/v1/challenges/{segment(challenge_id)}/accept"
        return cast(Challenge, self.request("POST", path, token=token, expect=200))

    def decline_challenge(self, token: str, challenge_id: str) -> Challenge:
        """``POST /v1/challenges/{id}/decline`` → the challenge, ``declined``; the others hear of it.

        Sent once, never retried: declining again answers 409 ``challenge_closed``.
        """
        path = f"/v1/challenges/{segment(challenge_id)}/decline"
        return cast(Challenge, self.request("POST", path, token=token, expect=200, once=True))

    def withdraw_challenge(self, token: str, challenge_id: str) -> None:
        """``DELETE /v1/challenges/{id}`` → 204: its sender withdraws a pending challenge; the challenged hear.

        Sent once, never retried: withdrawing again answers 409 ``challenge_closed``.
        """
        self.request("DELETE", f"/v1/challenges/{segment(challenge_id)}", token=token, expect=204, once=True)
