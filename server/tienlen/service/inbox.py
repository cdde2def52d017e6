"""An account's one connection: its inbox of events (long poll or stream), who is online, and its challenge settings.

An account listening to its inbox (``GET /v1/me/events`` or its stream) is
*online* for :data:`ONLINE_S` after it last did; ``GET /v1/bots`` lists the bot
accounts online, each with its ratings and whether it takes rated or casual
challenges (its owner's settings, ``PUT /v1/me/settings``, which also say whether
it hears ``friend_started`` of the accounts it follows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..store.accounts import AccountRecord
from ..store.base import MatchStore
from .accounts import authorized
from .commands import ChangeSettings
from .rated import PlayerRating, RatedService

ONLINE_S = 60.0
MAX_BOTS_LISTED = 200
EventDict = dict[str, Any]


@dataclass(frozen=True, slots=True)
class InboxPage:
    """Events of an account's inbox after a cursor, oldest first, and the seq to ask after next."""

    events: tuple[EventDict, ...]
    last_seq: int


@dataclass(frozen=True, slots=True)
class ChallengeSettings:
    """Which challenges an account takes: rated ones, casual ones (both by default)."""

    rated: bool
    casual: bool

    def takes(self, rated: bool) -> bool:
        """Whether a challenge, rated or casual as given, is taken."""
        return self.rated if rated else self.casual


@dataclass(frozen=True, slots=True)
class MySettings:
    """An account's inbox settings: the challenges it takes, and whether it hears of its friends' matches."""

    rated: bool
    casual: bool
    friends: bool


@dataclass(frozen=True, slots=True)
class OnlineBot:
    """A bot account listening to its inbox: its name, ratings, challenge settings and when it last listened."""

    name: str
    ratings: tuple[PlayerRating, ...]
    settings: ChallengeSettings
    last_seen: float


class InboxService:
    """Inbox pages and streams for a token's account, presence, and challenge settings."""

    def __init__(self, store: MatchStore, rated: RatedService, now: Callable[[], float]) -> None:
        self.inbox = store.inbox()
        self.accounts = store.accounts()
        self.follows = store.follows()
        self.rated = rated
        self.now = now

    def _listener(self, token: str | None) -> AccountRecord:
        account = authorized(self.accounts, token, "play")
        self.inbox.seen(account.account_id, account.kind, self.now())
        return account

    def events(self, token: str | None, after: int, wait_s: float) -> InboxPage:
        """The events of the token's account (scope ``play``) after ``after``, waiting up to ``wait_s`` for one.

        Marks the account online. ``last_seq`` is the last event's seq, or
        ``after`` when none came (so a client can always pass it back).
        """
        account = self._listener(token)
        found = self.inbox.events(account.account_id, after, wait_s)
        return InboxPage(tuple(found), found[-1]["seq"] if found else after)

    def follow(self, token: str | None, after: int, idle_s: float) -> InboxFollowing:
        """Follow the token's account's inbox after ``after``: batches as they come, empty ones when idle.

        The account stays online while it follows (each batch, heartbeats too, marks it).
        """
        account = self._listener(token)
        return InboxFollowing(self, account, self.inbox.follow(account.account_id, after, idle_s))

    def online(self, account: AccountRecord) -> bool:
        """Whether the account listened to its inbox in the last :data:`ONLINE_S` seconds."""
        seen = self.inbox.last_seen(account.account_id, account.kind)
        return seen is not None and seen >= self.now() - ONLINE_S

    def bots(self) -> list[OnlineBot]:
        """The bot accounts online, the latest to listen first (at most :data:`MAX_BOTS_LISTED`)."""
        found = []
        for account_id, seen in self.inbox.online("bot", self.now() - ONLINE_S)[:MAX_BOTS_LISTED]:
            account = self.accounts.get(account_id)
            if account is None:
                continue
            found.append(OnlineBot(account.name, self.rated.of(account_id), self.settings_of(account_id), seen))
        return found

    def settings_of(self, account_id: str) -> ChallengeSettings:
        """The challenges the account takes."""
        rated, casual = self.accounts.challenge_settings(account_id)
        return ChallengeSettings(rated, casual)

    def _mine(self, account_id: str) -> MySettings:
        takes = self.settings_of(account_id)
        return MySettings(takes.rated, takes.casual, self.follows.friends_told(account_id))

    def settings(self, token: str | None) -> MySettings:
        """The settings of the token's account (scope ``play``)."""
        return self._mine(authorized(self.accounts, token, "play").account_id)

    def set_settings(self, token: str | None, changes: ChangeSettings) -> MySettings:
        """Change the token's account's settings (scope ``account``); the settings now."""
        account = authorized(self.accounts, token, "account")
        now = self._mine(account.account_id)
        rated = now.rated if changes.rated is None else changes.rated
        casual = now.casual if changes.casual is None else changes.casual
        friends = now.friends if changes.friends is None else changes.friends
        if (rated, casual) != (now.rated, now.casual):
            self.accounts.set_challenge_settings(account.account_id, rated, casual)
        if friends != now.friends:
            self.follows.set_friends_told(account.account_id, friends)
        return MySettings(rated, casual, friends)


class InboxFollowing(Iterator[list[EventDict]]):
    """Batches of an account's inbox as they come (empty when idle); the account is marked online on each."""

    def __init__(self, service: InboxService, account: AccountRecord, batches: Iterator[list[EventDict]]) -> None:
        self._service = service
        self._account = account
        self._batches = batches

    def __next__(self) -> list[EventDict]:
        batch = next(self._batches)
        self._service.inbox.seen(self._account.account_id, self._account.kind, self._service.now())
        return batch

    def close(self) -> None:
        """Stop following (gives the store's waiter place back)."""
        close = getattr(self._batches, "close", None)
        if close is not None:
            close()
