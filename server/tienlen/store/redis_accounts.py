"""Accounts in Redis: credentials, sessions and personal tokens, each token kept only as its SHA-256 digest.

The :class:`~.accounts.AccountStore` on the matches' Redis.

Keys (each account's own share the hash tag ``{acct:<id>}`` so a Redis Cluster
keeps them on one slot; a name and a token each have a slot of their own):

- ``tl:{name:<digest of the folded name>}`` the account id a name belongs to (``-`` once the account is
  deleted: the name stays closed, and no key or value still spells it)
- ``tl:{acct:<id>}:account`` hash: ``name``, ``kind``, ``created_at``, ``password`` (the Argon2id hash)
- ``tl:{acct:<id>}:tokens`` hash: token id → the personal token's JSON (label, scopes, created, digest)
- ``tl:{acct:<id>}:sessions`` sorted set: the digests of the account's sessions by when each expires (to
  revoke them all; the expired ones are dropped as a new one is added)
- ``tl:{token:<sha256>}`` the JSON of what a token may do (account id, token id, scopes); a session's
  expires with the session, a personal token's never
- ``tl:{fails:<throttle>}:<who>`` failed logins (throttle ``login``) or lookups of unknown room codes
  (``rooms``), counted for a while; ``who`` names a name only by its digest (:func:`name_digest`). The
  counters of one throttle share a slot, so one script checks and counts all of a request's at once

Accounts have no lifetime; sessions do. A name is claimed with ``SET NX``
after its account is written, so a name never points at nothing.
"""

from __future__ import annotations

import time
from typing import Any

from .. import wire
from .accounts import AccountRecord, Grant, TokenRecord, name_digest
from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError

CLOSED = "-"  # the name index's value once its account is deleted

# Count one attempt on every counter, unless one is full: then count nothing and answer the milliseconds
# left of the fullest. KEYS: the counters (one throttle's: one slot). ARGV: the window in seconds, then
# the most each counter allows. Answers 0 when counted.
_ATTEMPT = """
local left = 0
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('EXPIRE', KEYS[i], ARGV[1])
      ttl = tonumber(ARGV[1]) * 1000
    end
    if ttl > left then left = ttl end
  end
end
if left > 0 then return left end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  if redis.call('TTL', key) < 0 then redis.call('EXPIRE', key, ARGV[1]) end
end
return 0
"""

# Take back one attempt on every counter (it did not fail); a counter at zero goes. KEYS: the counters.
_REFUND = """
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 1 then redis.call('DECR', key) elseif count == 1 then redis.call('DEL', key) end
end
return 0
"""

# List a personal token unless the account holds the most already. KEYS: the tokens hash. ARGV: the most, the
# token id, its entry. Answers 1 when listed.
_ADD_TOKEN = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
"""


def name_key(name: str) -> str:
    """The key of a name's index entry (names are unique once folded, :func:`fold_name`)."""
    return f"tl:{{name:{name_digest(name)}}}"


def account_key(account_id: str) -> str:
    """The key of an account's hash."""
    return f"tl:{{acct:{account_id}}}:account"


def tokens_key(account_id: str) -> str:
    """The key of an account's personal tokens."""
    return f"tl:{{acct:{account_id}}}:tokens"


def sessions_key(account_id: str) -> str:
    """The key of the sorted set of an account's session digests (scored by expiry, epoch seconds)."""
    return f"tl:{{acct:{account_id}}}:sessions"


def token_key(digest: str) -> str:
    """The key of a token's grant, by the token's digest."""
    return f"tl:{{token:{digest}}}"


def fails_key(throttle: str, who: str) -> str:
    """The key counting the failures of ``who`` (``name:<digest>`` or ``addr:<address>``) for ``throttle``
    (``login`` or ``rooms``); a throttle's counters share its hash tag."""
    return f"tl:{{fails:{throttle}}}:{who}"


def _grant_json(grant: Grant) -> bytes:
    return wire.dumps({"a": grant.account_id, "t": grant.token_id, "s": list(grant.scopes)})


class RedisAccounts:
    """The :class:`AccountStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client  # one server or a cluster: both register scripts
        self._attempt = scripts.register_script(_ATTEMPT)
        self._refund = scripts.register_script(_REFUND)
        self._add_token = scripts.register_script(_ADD_TOKEN)

    def _call(self, work: Any) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def create(self, record: AccountRecord) -> bool:
        """Write a new account and claim its name; False (nothing kept) when the name is taken."""
        fields = {
            "name": record.name,
            "kind": record.kind,
            "created_at": repr(record.created_at),
            "password": record.password_hash,
        }
        self._call(lambda: self._redis.hset(account_key(record.account_id), mapping=fields))
        if self._call(lambda: self._redis.set(name_key(record.name), record.account_id, nx=True)):
            return True
        self._call(lambda: self._redis.delete(account_key(record.account_id)))
        return False

    def find(self, name: str) -> AccountRecord | None:
        """The account of ``name`` (any case), or None."""
        account_id = self._call(lambda: self._redis.get(name_key(name)))
        if account_id is None or account_id.decode() == CLOSED:
            return None
        return self.get(account_id.decode())

    def get(self, account_id: str) -> AccountRecord | None:
        """The account ``account_id``, or None."""
        found = self._call(lambda: self._redis.hgetall(account_key(account_id)))
        if not found:
            return None
        text = {key.decode(): value.decode() for key, value in found.items()}
        return AccountRecord(account_id, text["name"], text["kind"], float(text["created_at"]), text["password"])

    def grant(self, digest: str) -> Grant | None:
        """What the token of ``digest`` may do, or None (unknown, revoked or expired)."""
        found = self._call(lambda: self._redis.get(token_key(digest)))
        if found is None:
            return None
        data = wire.loads(found)
        return Grant(data["a"], data["t"], tuple(data["s"]))

    def add_session(self, account_id: str, digest: str, ttl_s: int) -> None:
        """Keep a session token's digest for ``ttl_s`` seconds."""
        grant = Grant(account_id, None, ("play", "account"))
        now = time.time()
        self._call(lambda: self._redis.zremrangebyscore(sessions_key(account_id), "-inf", now))
        self._call(lambda: self._redis.zadd(sessions_key(account_id), {digest: now + ttl_s}))
        self._call(lambda: self._redis.set(token_key(digest), _grant_json(grant), ex=ttl_s))

    def drop_session(self, account_id: str, digest: str) -> None:
        """Revoke a session."""
        self._call(lambda: self._redis.delete(token_key(digest)))
        self._call(lambda: self._redis.zrem(sessions_key(account_id), digest))

    def add_token(self, account_id: str, token: TokenRecord, most: int) -> bool:
        """Keep a personal token (no lifetime), unless the account holds ``most`` already (checked and added in
        one script: racing requests never pass the cap); its grant is written once it is listed."""
        listed = {
            "id": token.token_id,
            "label": token.label,
            "scopes": list(token.scopes),
            "created_at": token.created_at,
            "digest": token.digest,
        }
        grant = Grant(account_id, token.token_id, token.scopes)
        entry = wire.dumps(listed).decode()
        if not self._call(lambda: self._add_token(keys=[tokens_key(account_id)], args=[most, token.token_id, entry])):
            return False
        self._call(lambda: self._redis.set(token_key(token.digest), _grant_json(grant)))
        return True

    def tokens(self, account_id: str) -> list[TokenRecord]:
        """The account's personal tokens, oldest first."""
        found = self._call(lambda: self._redis.hvals(tokens_key(account_id)))
        records = [
            TokenRecord(d["id"], d["label"], tuple(d["scopes"]), float(d["created_at"]), d["digest"])
            for d in (wire.loads(value) for value in found)
        ]
        return sorted(records, key=lambda token: (token.created_at, token.token_id))

    def drop_token(self, account_id: str, token_id: str) -> bool:
        """Revoke a personal token; False when the account has none of that id."""
        found = self._call(lambda: self._redis.hget(tokens_key(account_id), token_id))
        if found is None:
            return False
        self._call(lambda: self._redis.delete(token_key(wire.loads(found)["digest"])))
        self._call(lambda: self._redis.hdel(tokens_key(account_id), token_id))
        return True

    def erase(self, record: AccountRecord) -> None:
        """Delete the account's credentials and every token; its name stays closed."""
        account_id = record.account_id
        digests = [token.digest for token in self.tokens(account_id)]
        digests += [d.decode() for d in self._call(lambda: self._redis.zrange(sessions_key(account_id), 0, -1))]
        for digest in digests:  # each token has a slot of its own: one DEL each
            self._call(lambda digest=digest: self._redis.delete(token_key(digest)))
        self._call(lambda: self._redis.set(name_key(record.name), CLOSED))
        keys = [account_key(account_id), tokens_key(account_id), sessions_key(account_id)]
        self._call(lambda: self._redis.delete(*keys))

    def challenge_settings(self, account_id: str) -> tuple[bool, bool]:
        """Whether the account takes rated challenges, and casual ones (both by default)."""
        rated, casual = self._call(lambda: self._redis.hmget(account_key(account_id), ["takes_rated", "takes_casual"]))
        return rated != b"0", casual != b"0"

    def set_challenge_settings(self, account_id: str, rated: bool, casual: bool) -> None:
        """Keep whether the account takes rated challenges, and casual ones (in the account's hash)."""
        fields = {"takes_rated": int(rated), "takes_casual": int(casual)}
        self._call(lambda: self._redis.hset(account_key(account_id), mapping=fields))

    def attempt(self, throttle: str, counters: dict[str, int], window_s: int) -> float:
        """Count one attempt on each counter unless one is full (see :meth:`AccountStore.attempt`): one script."""
        keys = [fails_key(throttle, who) for who in counters]
        left_ms = self._call(lambda: self._attempt(keys=keys, args=[window_s, *counters.values()]))
        return int(left_ms) / 1000

    def refund(self, throttle: str, counters: list[str]) -> None:
        """Take back an attempt on each counter (one script; a counter at zero goes)."""
        keys = [fails_key(throttle, who) for who in counters]
        self._call(lambda: self._refund(keys=keys))
