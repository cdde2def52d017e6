"""Follows between accounts in Redis: whom each follows, its followers, its fans, and its ``friends`` setting.

The :class:`~.follows.FollowStore` on the matches' Redis.

Keys (an account's own share its hash tag ``{acct:<id>}``):

- ``tl:{acct:<id>}:following`` sorted set: the account ids it follows → when it followed each (the cap is
  counted here, checked and added in one script)
- ``tl:{acct:<id>}:followers`` sorted set: the accounts that follow it → when each followed (its count is public)
- ``tl:{acct:<id>}:fans`` sorted set: of those, the ones whose ``friends`` setting is on → when each followed
  (the first ones are told when it starts a match)
- ``tl:{acct:<id>}:friends`` ``1`` while the account's ``friends`` inbox setting is on

The follower's key and the followed account's are on two slots: the follower's list is written first (the
truth, with the cap), its place in the other's followers and fans after. A failure between leaves a follower
uncounted; following again (idempotent) or unfollowing mends it.
"""

from __future__ import annotations

from typing import Any

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .follows import Followed

FORGET_PAGE = 500  # followers read a page at a time when an account is deleted

# KEYS: the follower's following set, its friends flag. ARGV: the followed id, when, the most.
# Answers {0: already, 1: followed, -1: full; the flag}.
_FOLLOW = """
local told = redis.call('EXISTS', KEYS[2])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {0, told} end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {-1, told} end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return {1, told}
"""


def following_key(account_id: str) -> str:
    """Key of the accounts ``account_id`` follows."""
    return f"tl:{{acct:{account_id}}}:following"


def followers_key(account_id: str) -> str:
    """Key of the accounts that follow ``account_id``."""
    return f"tl:{{acct:{account_id}}}:followers"


def fans_key(account_id: str) -> str:
    """Key of the followers of ``account_id`` whose ``friends`` setting is on."""
    return f"tl:{{acct:{account_id}}}:fans"


def friends_key(account_id: str) -> str:
    """Key of the account's ``friends`` inbox setting (present: on)."""
    return f"tl:{{acct:{account_id}}}:friends"


class RedisFollows:
    """The :class:`FollowStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client  # one server or a cluster: both register scripts
        self._follow = scripts.register_script(_FOLLOW)

    def _call(self, work: Any) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def follow(self, account_id: str, target_id: str, at: float, most: int) -> Followed:
        """Follow (the cap checked with the add in one script), then join the target's followers (and fans)."""
        keys = [following_key(account_id), friends_key(account_id)]
        outcome, told = self._call(lambda: self._follow(keys=keys, args=[target_id, repr(at), most]))
        if int(outcome) < 0:
            return Followed.FULL
        if int(outcome) == 0:  # mend a place the first follow may not have written
            found = self._call(lambda: self._redis.zscore(following_key(account_id), target_id))
            at = at if found is None else float(found)
        self._call(lambda: self._redis.zadd(followers_key(target_id), {account_id: at}, nx=True))
        if int(told):
            self._call(lambda: self._redis.zadd(fans_key(target_id), {account_id: at}, nx=True))
        return Followed.FOLLOWED if int(outcome) == 1 else Followed.ALREADY

    def unfollow(self, account_id: str, target_id: str) -> None:
        """Leave the target's fans and followers, then the follower's own list."""
        self._call(lambda: self._redis.zrem(fans_key(target_id), account_id))
        self._call(lambda: self._redis.zrem(followers_key(target_id), account_id))
        self._call(lambda: self._redis.zrem(following_key(account_id), target_id))

    def following(self, account_id: str) -> list[tuple[str, float]]:
        """The accounts followed, oldest follow first."""
        found = self._call(lambda: self._redis.zrange(following_key(account_id), 0, -1, withscores=True))
        return [(member.decode(), float(score)) for member, score in found]

    def followers_count(self, account_id: str) -> int:
        """How many accounts follow ``account_id``."""
        return int(self._call(lambda: self._redis.zcard(followers_key(account_id))))

    def fans(self, account_id: str, most: int) -> list[str]:
        """The first ``most`` followers with the ``friends`` setting on."""
        if most <= 0:
            return []
        found = self._call(lambda: self._redis.zrange(fans_key(account_id), 0, most - 1))
        return [member.decode() for member in found]

    def friends_told(self, account_id: str) -> bool:
        """Whether the account's ``friends`` setting is on."""
        return bool(self._call(lambda: self._redis.exists(friends_key(account_id))))

    def set_friends_told(self, account_id: str, told: bool) -> None:
        """Keep the setting, then join (or leave) the fans of every account followed (one command each)."""
        if told:
            self._call(lambda: self._redis.set(friends_key(account_id), 1))
        else:
            self._call(lambda: self._redis.delete(friends_key(account_id)))
        for target_id, at in self.following(account_id):
            if told:
                self._call(lambda t=target_id, a=at: self._redis.zadd(fans_key(t), {account_id: a}, nx=True))
            else:
                self._call(lambda t=target_id: self._redis.zrem(fans_key(t), account_id))

    def forget(self, account_id: str) -> None:
        """Leave the followers and fans of all followed, leave the lists of all followers, drop the own keys."""
        for target_id, _ in self.following(account_id):
            self._call(lambda t=target_id: self._redis.zrem(fans_key(t), account_id))
            self._call(lambda t=target_id: self._redis.zrem(followers_key(t), account_id))
        start = 0
        while True:
            page = self._call(lambda s=start: self._redis.zrange(followers_key(account_id), s, s + FORGET_PAGE - 1))
            for follower in (member.decode() for member in page):
                self._call(lambda f=follower: self._redis.zrem(following_key(f), account_id))
            if len(page) < FORGET_PAGE:
                break
            start += FORGET_PAGE
        keys = [following_key(account_id), followers_key(account_id), fans_key(account_id), friends_key(account_id)]
        self._call(lambda: self._redis.delete(*keys))
