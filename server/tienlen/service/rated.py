"""Rated play: the house bots' accounts, settling a finished rated match exactly once, leaderboards, profiles.

A rated match is settled when it is kept (:meth:`~.history.HistoryService.keep`: right after the write that
finished it, else by the sweeper). The first settlement of a match is kept for good (``SET NX``: whoever comes
later, from a retry or another worker, reads the same), and each account's share is applied as a change once
per account and match (:meth:`~tienlen.store.rating_store.RatingStore.apply`), so the end of a match processed twice
or by two workers at once moves every rating once.

Places for rating purposes are the kept record's (:func:`~.kept.places`), except that a seat whose player left
or was taken over is ranked last (seats that left share the last rank); an abandoned match (every remote seat
gone) ranks the seats that stayed first. An account in several seats (a house bot repeated) is rated once: by
the mean of its seats' changes.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bots import LEVELS
from ..events import ABANDONED
from ..store.accounts import AccountRecord
from ..store.base import MatchStore
from ..store.records import MatchRecord
from .errors import InvalidRequest
from .kept import places
from .rating_model import TABLE_SIZES, Rating, rate

HOUSE_BOTS: tuple[str, ...] = LEVELS  # each level of the server's bots is a rated account of that name
HOUSE_KIND = "bot"
NO_PASSWORD = ""  # not an Argon2 hash: no password ever matches it, so nobody logs in as a house bot
_ACCOUNT_ID_HEX = 20


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """An account's rating at one table size: the shown number, its rated games, provisional or not."""

    players: int
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """A leaderboard line: rank (1 = best), the account's name and kind, rating, games, provisional, and a live
    match of the account that may be watched (None: none; filled by :meth:`~.history.HistoryService.leaderboard`,
    where the accounts' live matches are known)."""

    rank: int | None
    name: str
    kind: str
    rating: int
    games: int
    provisional: bool
    watch: str | None = None


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of a leaderboard, best first, and the cursor of the next page (None on the last)."""

    entries: tuple[BoardEntry, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class ListedBoard:
    """A page of a leaderboard with each line's account id (``accounts[i]`` is ``entries[i]``'s), not shown."""

    accounts: tuple[str, ...]
    entries: tuple[BoardEntry, ...]
    next_cursor: str | None


Moves = dict[int, tuple[int, int]]  # seat -> (shown rating before, after)


def encode_board_cursor(rating: int, account_id: str) -> str:
    """An opaque cursor into a leaderboard: where the last page ended."""
    return base64.urlsafe_b64encode(f"{rating}:{account_id}".encode()).decode().rstrip("=")


def decode_board_cursor(cursor: str) -> tuple[int, str]:
    """The position a leaderboard cursor names; :class:`InvalidRequest` when it is not one of ours."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        rating, account_id = text.split(":")
        if len(account_id) != _ACCOUNT_ID_HEX or any(c not in "0123456789abcdef" for c in account_id):
            raise ValueError(text)
        return int(rating), account_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidRequest("cursor: not a cursor this server gave", errors={"cursor": ["unknown cursor"]}) from None


def rating_places(record: MatchRecord) -> list[int]:
    """Each seat's rank for rating: its final place, a seat that left or was taken over last (1 = best)."""
    engine = record.engine
    assert engine is not None
    abandoned = record.ended == ABANDONED
    standing = places(engine, abandoned)
    last = len(record.seats) + 1
    ranks: list[int] = []
    for seat, place in zip(record.seats, standing, strict=True):
        if seat.taken_over:
            ranks.append(last)
        else:
            ranks.append(1 if place is None else place)
    return ranks


class RatedService:
    """Ratings over the store: house bots, settling rated matches, leaderboards and profiles' ratings."""

    def __init__(self, store: MatchStore) -> None:
        self.ratings = store.ratings()
        self.accounts = store.accounts()
        self._house: dict[str, AccountRecord] = {}
        self._house_found = False

    # ----- the house bots -----------------------------------------------------------------

    def house_bots(self) -> dict[str, AccountRecord]:
        """The house bots' accounts by level, made the first time (idempotent: a name is claimed once).

        A level whose name a person took before the level existed (a server that
        ran an older version) has no house bot: the name stays that person's, a
        challenge to it challenges them, and quick play fills seats with the
        other levels.
        """
        if self._house_found:
            return self._house
        for level in HOUSE_BOTS:
            found = self.accounts.find(level)
            if found is None:
                made = AccountRecord(secrets.token_hex(10), level, HOUSE_KIND, time.time(), NO_PASSWORD)
                self.accounts.create(made)  # a racing worker may win the name: then read its account
                found = self.accounts.find(level)
            if found is None:
                raise InvalidRequest(f"the house bot {level!r} has no account")  # its name was closed: cannot be
            if found.kind == HOUSE_KIND:
                self._house[level] = found
        self._house_found = True
        return self._house

    # ----- settling a rated match -----------------------------------------------------------

    def settle(self, record: MatchRecord, present: set[str]) -> Moves:
        """Move every rating of a finished rated match, once; each rated seat's shown rating before and after.

        ``present`` are the match's accounts that still exist (a deleted one is not rated).
        """
        players = len(record.seats)
        result = self.ratings.settled(record.match_id)
        if result is None:
            proposal = self._propose(record, present)
            if proposal is None:
                return {}
            result = self.ratings.settle(record.match_id, proposal)
        accounts: Mapping[str, Any] = result["accounts"]
        for account_id, entry in accounts.items():
            if account_id not in present:
                continue
            before, after = Rating.from_dict(entry["before"]), Rating.from_dict(entry["after"])
            change = (after.mu - before.mu, after.sigma / before.sigma)
            self.ratings.apply(account_id, record.match_id, players, change, Rating.new().to_dict())
            self._rank(account_id, players)
        moves: Moves = {}
        for seat, account_id in result["seats"].items():
            entry = accounts[account_id]
            moves[int(seat)] = (Rating.from_dict(entry["before"]).shown, Rating.from_dict(entry["after"]).shown)
        return moves

    def _propose(self, record: MatchRecord, present: set[str]) -> dict[str, Any] | None:
        """The settlement of a rated match from its accounts' ratings now; None with fewer than two accounts."""
        players = len(record.seats)
        seats = [(i, s.account) for i, s in enumerate(record.seats) if s.account is not None and s.account in present]
        if len({account for _, account in seats}) < 2:
            return None
        before: dict[str, Rating] = {}
        for _, account_id in seats:
            if account_id not in before:
                kept = self.ratings.ratings(account_id).get(players)
                before[account_id] = Rating.new() if kept is None else Rating.from_dict(kept)
        ranks = rating_places(record)
        rated = rate([(before[account_id], ranks[i]) for i, account_id in seats])
        changes: dict[str, list[tuple[float, float]]] = {}
        for (_, account_id), after in zip(seats, rated, strict=True):
            first = before[account_id]
            changes.setdefault(account_id, []).append((after.mu - first.mu, after.sigma / first.sigma))
        accounts: dict[str, Any] = {}
        for account_id, shares in changes.items():
            first = before[account_id]
            mu = sum(share[0] for share in shares) / len(shares)
            ratio = sum(share[1] for share in shares) / len(shares)
            after_all = Rating(first.mu + mu, first.sigma * ratio, first.games + 1)
            accounts[account_id] = {"before": first.to_dict(), "after": after_all.to_dict()}
        return {"players": players, "accounts": accounts, "seats": {str(i): a for i, a in seats}}

    def _rank(self, account_id: str, players: int) -> None:
        """Put the account on its board with its rating now."""
        account = self.accounts.get(account_id)
        kept = self.ratings.ratings(account_id).get(players)
        if account is not None and kept is not None:
            self.ratings.rank(players, account.kind, account_id, Rating.from_dict(kept).shown)

    # ----- reading --------------------------------------------------------------------------

    def of(self, account_id: str) -> tuple[PlayerRating, ...]:
        """The account's ratings, one per table size it has played rated."""
        found = self.ratings.ratings(account_id)
        shown = []
        for players in TABLE_SIZES:
            if players in found:
                rating = Rating.from_dict(found[players])
                shown.append(PlayerRating(players, rating.shown, rating.games, rating.provisional))
        return tuple(shown)

    def board(self, players: int, kind: str, cursor: str | None, limit: int) -> ListedBoard:
        """A page of the leaderboard of ``kind`` accounts at ``players`` seats, best first, with their ids."""
        before = None if cursor is None else decode_board_cursor(cursor)
        accounts: list[str] = []
        entries: list[BoardEntry] = []
        more = False
        while not more:
            page = self.ratings.board_page(players, kind, before, limit - len(entries) + 1)
            if not page:
                break
            for account_id, shown in page:
                if len(entries) == limit:
                    more = True
                    break
                before = (shown, account_id)
                entry = self._entry(players, kind, account_id)
                if entry is not None:
                    accounts.append(account_id)
                    entries.append(entry)
        next_cursor = encode_board_cursor(*before) if more and before is not None else None
        return ListedBoard(tuple(accounts), tuple(entries), next_cursor)

    def _entry(self, players: int, kind: str, account_id: str) -> BoardEntry | None:
        account = self.accounts.get(account_id)
        kept = self.ratings.ratings(account_id).get(players)
        if account is None or kept is None:  # deleted meanwhile
            return None
        rating = Rating.from_dict(kept)
        position = self.ratings.position(players, kind, account_id)
        rank = None if position is None else position + 1
        return BoardEntry(rank, account.name, account.kind, rating.shown, rating.games, rating.provisional)

    def forget(self, account_id: str) -> None:
        """The account was deleted: its ratings go, and it leaves every board."""
        self.ratings.forget(account_id)
