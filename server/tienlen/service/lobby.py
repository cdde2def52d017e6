"""The lobby (listed matches with an open seat, newest first) and replays of finished matches."""

from __future__ import annotations

from typing import Any

from ..store.records import MatchRecord, MatchStatus
from .core import Core
from .cursors import decode_cursor, encode_cursor
from .errors import MatchNotFinished
from .kept import replay_of
from .states import LobbyPage, lobby_entry
from .watching import check_kept_reader, reader_seat

SCAN_LIMIT = 500  # listed matches one lobby request looks at before it answers with a cursor
PAGE = 100


class Lobby:
    """The lobby and replays, over the shared :class:`~.core.Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def lobby(self, *, players: int | None, preset: str | None, limit: int, cursor: str | None) -> LobbyPage:
        """Listed matches waiting for players that have an open seat, newest first.

        Filters by player count and preset. The list is read from an index
        and every entry is checked against its record, so a full, cancelled
        or expired match never shows (and is dropped from the index).
        """
        before = None if cursor is None else decode_cursor(cursor)
        found: list[MatchRecord] = []
        scanned = 0
        more = True
        while len(found) < limit and scanned < SCAN_LIMIT:
            page = self.core.store.lobby_page(before, min(PAGE, SCAN_LIMIT - scanned))
            if not page:
                more = False
                break
            records = self.core.store.load_many([match_id for match_id, _ in page])
            for (match_id, created_ms), record in zip(page, records, strict=True):
                before = (created_ms, match_id)
                scanned += 1
                if record is None or not _open(record):
                    self.core.store.lobby_remove(match_id)
                elif _wanted(record, players, preset):
                    found.append(record)
                    if len(found) == limit:
                        break
        next_cursor = encode_cursor(*before) if more and before is not None else None
        return LobbyPage(tuple(lobby_entry(record) for record in found), next_cursor)

    def replay(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        """The whole match, to watch again or check: every hand's deal and actions, and the result.

        Once the live match is gone, a match an account sat in answers from
        what was kept of it (:mod:`.history`). A match whose host turned watching off answers only its seats
        (:class:`~.errors.NotWatchable`).
        """
        record = self.core.store.load(match_id).record
        if record is None:
            kept = self.core.history.kept_match(match_id)
            check_kept_reader(self.core, kept, token)
            return kept.replay()
        reader_seat(self.core, record, token)
        engine = record.engine
        if record.status != MatchStatus.FINISHED or engine is None or record.seed is None:
            raise MatchNotFinished("a replay is for a finished match (no deal is shown while it is played)")
        return replay_of(record, self.core.store.all_events(match_id))


def _open(record: MatchRecord) -> bool:
    return record.listed and record.status == MatchStatus.WAITING and any(s.open for s in record.seats)


def _wanted(record: MatchRecord, players: int | None, preset: str | None) -> bool:
    return (players is None or record.rules.players == players) and (preset is None or record.rules.preset == preset)
