"""The friends calls: follow and unfollow accounts, and list those followed with their presence.

(``follow_account``, not ``follow``: :meth:`~tienlen_client.Client.follow` follows a match's events.)"""

from __future__ import annotations

from typing import cast

from ..friends import Friend
from .base import BaseClient
from .bodies import segment

__all__ = ["FriendCalls"]


class FriendCalls(BaseClient):
    """``/v1/me/following`` (and one account followed)."""

    def follow_account(self, token: str, name: str) -> None:
        """``PUT /v1/me/following/{name}`` → 204: follow the account (any case; not told to it). Scope ``play``.

        404 ``player_not_found``; 422 ``invalid_request`` for the account itself or a house bot; 409
        ``too_many_followed`` past the cap. Safe to retry: following again changes nothing.
        """
        self.request("PUT", f"/v1/me/following/{segment(name)}", token=token, expect=204)

    def unfollow_account(self, token: str, name: str) -> None:
        """``DELETE /v1/me/following/{name}`` → 204: follow the account no more (also when it was not followed).

        404 ``player_not_found`` for an unknown name. Safe to retry.
        """
        self.request("DELETE", f"/v1/me/following/{segment(name)}", token=token, expect=204)

    def following(self, token: str) -> list[Friend]:
        """``GET /v1/me/following``: the accounts followed, ``playing`` first (with their live matches), then
        ``online``, then ``away``, each by name. Scope ``play``."""
        return cast(list[Friend], self.request("GET", "/v1/me/following", token=token, expect=200)["following"])
