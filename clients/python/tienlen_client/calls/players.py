"""The players' calls: a profile, the matches a player sat in (a page, all of them, or their replays
exported), and the leaderboard."""

from __future__ import annotations

import datetime
import urllib.parse
from collections.abc import Iterator
from typing import cast

from ..history import Export, KeptMatch, KeptPage, Player
from ..ratings import Leaderboard
from .base import BaseClient
from .bodies import instant, segment

__all__ = ["PlayerCalls"]


class PlayerCalls(BaseClient):
    """``/v1/players/{name}`` (its matches and their export) and ``/v1/leaderboard``."""

    def player(self, name: str) -> Player:
        """``GET /v1/players/{name}``: an account's profile (name in any case; 404 ``player_not_found``)."""
        return cast(Player, self.request("GET", f"/v1/players/{segment(name)}", expect=200))

    def player_matches(self, name: str, cursor: str | None = None, limit: int = 20) -> KeptPage:
        """``GET /v1/players/{name}/matches``: one page of the matches the player sat in, newest first.

        ``limit`` is 1 to 100 (else 422 ``invalid_request``); pass a page's
        ``next_cursor`` as ``cursor`` for the next one: a cursor names a
        position, so no match is skipped or repeated while new ones end.
        """
        query: dict[str, str | int] = {"limit": limit}
        if cursor is not None:
            query["cursor"] = cursor
        path = f"/v1/players/{segment(name)}/matches?{urllib.parse.urlencode(query)}"
        return cast(KeptPage, self.request("GET", path, expect=200))

    def all_player_matches(self, name: str, page_size: int = 100) -> Iterator[KeptMatch]:
        """Every match the player sat in, newest first, asking for one page (``page_size``) at a time.

        Nothing is asked before the first match is; each page is a read of its own, retried as reads are.
        """
        cursor: str | None = None
        while True:
            page = self.player_matches(name, cursor, page_size)
            yield from page["matches"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def export(
        self, name: str, since: datetime.datetime | str | None = None, until: datetime.datetime | str | None = None
    ) -> Export:
        """``GET /v1/players/{name}/matches/export``: the player's replays, one at a time (see :class:`Export`).

        Each is a ``tienlen-replay/1`` document with ``match_id`` and
        ``ended_at``, newest first; ``since`` <= ``ended_at`` < ``until``
        (RFC 3339 text, or datetimes with a time zone). The answer is read
        line by line on a connection of its own as the items are asked for.

        Raises:
            ValueError: for a datetime without a time zone.
        """
        query = {key: instant(value) for key, value in (("since", since), ("until", until)) if value is not None}
        path = f"/v1/players/{segment(name)}/matches/export"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        transport = self.transport
        return Export(self.endpoint, path, timeout=transport.timeout, retry=transport.retry, sleep=transport.sleep)

    def leaderboard(
        self, players: int = 4, kind: str = "human", cursor: str | None = None, limit: int = 20
    ) -> Leaderboard:
        """``GET /v1/leaderboard``: one page of the ratings at ``players`` seats of ``kind`` accounts, best first.

        Pass a page's ``next_cursor`` as ``cursor`` for the next one.
        """
        query: dict[str, str | int] = {"players": players, "kind": kind, "limit": limit}
        if cursor is not None:
            query["cursor"] = cursor
        return cast(Leaderboard, self.request("GET", f"/v1/leaderboard?{urllib.parse.urlencode(query)}", expect=200))
