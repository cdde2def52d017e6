"""Friends: an account follows others, sees who of them plays (with their live matches), is online or away.

Following is one-way and private: the followed account is not told, and only the number of its followers is
public (its profile's ``followers``). An account follows at most :data:`MAX_FOLLOWED` others. With its
``friends`` inbox setting on, an account hears ``friend_started`` when one it follows starts a match
(:mod:`.live_seats`).

Presence, from the most present: ``playing`` (seated in a live match: dealt, not over, at a seat it still
plays), ``online`` (listened to its inbox in the last :data:`~.inbox.ONLINE_S` seconds), ``away``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..store.accounts import AccountRecord
from ..store.base import MatchStore
from ..store.follows import Followed
from .accounts import authorized
from .errors import InvalidRequest, PlayerNotFound, TooManyFollowed
from .inbox import ONLINE_S
from .live_seats import LiveSeatsKeeper, PlayingMatch
from .rated import RatedService

MAX_FOLLOWED = 500
"""How many accounts one account may follow."""

PRESENCES = ("playing", "online", "away")
"""An account's presence, from the most present."""


@dataclass(frozen=True, slots=True)
class Friend:
    """An account followed: its name, whether it is a bot, its presence, its live matches, when it last listened."""

    name: str
    bot: bool
    presence: str
    matches: tuple[PlayingMatch, ...]
    last_seen: float | None


class FriendsService:
    """Follow and unfollow accounts by name, and list those followed with their presence."""

    def __init__(self, store: MatchStore, rated: RatedService, now: Callable[[], float]) -> None:
        self.accounts = store.accounts()
        self.follows = store.follows()
        self.inbox = store.inbox()
        self.live_seats = LiveSeatsKeeper(store, now)
        self.rated = rated
        self.now = now

    def _target(self, name: str) -> AccountRecord:
        """The account named ``name`` (any case); :class:`PlayerNotFound` for none (never made, or deleted)."""
        found = self.accounts.find(name)
        if found is None:
            raise PlayerNotFound(f"no player is named {name!r}")
        return found

    def follow(self, token: str | None, name: str) -> None:
        """The token's account (scope ``play``) follows ``name``; again changes nothing.

        Refused: an unknown name (:class:`PlayerNotFound`), itself or a house bot (:class:`InvalidRequest`),
        and a follow past :data:`MAX_FOLLOWED` (:class:`TooManyFollowed`); a refusal changes nothing.
        """
        account = authorized(self.accounts, token, "play")
        target = self._target(name)
        if target.account_id == account.account_id:
            raise InvalidRequest("an account cannot follow itself")
        if target.account_id in {house.account_id for house in self.rated.house_bots().values()}:
            raise InvalidRequest(f"{target.name!r} is a house bot: it is always there to play, not to follow")
        if self.follows.follow(account.account_id, target.account_id, self.now(), MAX_FOLLOWED) is Followed.FULL:
            raise TooManyFollowed(f"an account follows at most {MAX_FOLLOWED} others: unfollow one first")

    def unfollow(self, token: str | None, name: str) -> None:
        """The token's account (scope ``play``) follows ``name`` no more (nothing when it did not)."""
        account = authorized(self.accounts, token, "play")
        self.follows.unfollow(account.account_id, self._target(name).account_id)

    def following(self, token: str | None) -> list[Friend]:
        """The accounts the token's account (scope ``play``) follows, playing first, then online, then away,
        each by name. A followed account deleted since leaves the list."""
        account = authorized(self.accounts, token, "play")
        found: list[Friend] = []
        for target_id, _ in self.follows.following(account.account_id):
            target = self.accounts.get(target_id)
            if target is None:
                self.follows.unfollow(account.account_id, target_id)
                continue
            found.append(self.friend(target))
        return sorted(found, key=lambda f: (PRESENCES.index(f.presence), f.name.casefold(), f.name))

    def friend(self, account: AccountRecord) -> Friend:
        """One account as its followers see it: presence, live matches, when it last listened to its inbox."""
        matches = tuple(self.live_seats.live(account.account_id))
        last_seen = self.inbox.last_seen(account.account_id, account.kind)
        if matches:
            presence = "playing"
        elif last_seen is not None and last_seen >= self.now() - ONLINE_S:
            presence = "online"
        else:
            presence = "away"
        return Friend(account.name, account.kind == "bot", presence, matches, last_seen)

    def followers(self, account_id: str) -> int:
        """How many accounts follow ``account_id`` (public: the profile's ``followers``)."""
        return self.follows.followers_count(account_id)
