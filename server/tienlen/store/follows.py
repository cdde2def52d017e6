"""What a follow store is: whom each account follows, who follows it, and who of those hears of its matches.

The service is written against :class:`FollowStore`; :mod:`.redis_follows` keeps them in Redis. An account
follows at most a given number of others (the caller's cap, checked with the add in one step); the lists of
followers are private (only their count is public), and *fans* are the followers whose ``friends`` inbox
setting is on, in the order they followed: the first ones are told when the followed account starts a match.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class Followed(StrEnum):
    """What a follow did: ``followed`` (new), ``already`` (nothing changed) or ``full`` (the cap: nothing kept)."""

    FOLLOWED = "followed"
    ALREADY = "already"
    FULL = "full"


class FollowStore(Protocol):
    """Follows between accounts, their counts, and each account's ``friends`` inbox setting."""

    def follow(self, account_id: str, target_id: str, at: float, most: int) -> Followed:
        """``account_id`` follows ``target_id`` from ``at``, unless it follows ``most`` already (checked with the
        add in one step: racing follows never pass the cap); following again changes nothing."""
        ...

    def unfollow(self, account_id: str, target_id: str) -> None:
        """``account_id`` follows ``target_id`` no more (nothing when it did not)."""
        ...

    def following(self, account_id: str) -> list[tuple[str, float]]:
        """The accounts ``account_id`` follows, with when it followed each, oldest first."""
        ...

    def followers_count(self, account_id: str) -> int:
        """How many accounts follow ``account_id``."""
        ...

    def fans(self, account_id: str, most: int) -> list[str]:
        """The first ``most`` followers of ``account_id`` (by when they followed) with the ``friends`` setting on."""
        ...

    def friends_told(self, account_id: str) -> bool:
        """Whether the account's ``friends`` inbox setting is on (off by default)."""
        ...

    def set_friends_told(self, account_id: str, told: bool) -> None:
        """Turn the account's ``friends`` inbox setting on or off (it joins or leaves the fans of all it follows)."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: it follows nobody and nobody follows it any more; its setting goes."""
        ...
