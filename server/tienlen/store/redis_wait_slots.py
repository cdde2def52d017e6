"""Waiting slots counted for all servers: how many long polls and streams one account, or one address, holds.

The :class:`~.wait_slots.WaitSlots` on the matches' Redis.

Each who (an account, a client address) has a sorted set ``tl:{waits:<digest>}`` (its own hash tag: a
Cluster slot of its own): slot id → when its lease ends (ms, Redis's clock). A waiter takes a slot in each
of its sets before it waits, one script a set (:data:`TAKE`: drop the leases that ended, refuse at the cap,
else add), renews its leases while it waits (:data:`RENEW`, every :data:`RENEW_S`), and gives them back
as soon as it ends. A worker that dies holds its slots at most :data:`LEASE_S` more: its leases end and
the next take drops them. The digest keeps addresses and account ids out of key names.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any, cast

from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError, TooManyWaitsError
from .wait_slots import Cap

LEASE_S = 60  # a slot not renewed for this long is free (its worker died)
RENEW_S = LEASE_S / 3  # how often a waiter renews its leases

# KEYS: the who's set. ARGV: slot id, the cap, lease (ms). 1: taken; 0: the who holds ``cap`` slots already.
TAKE = WriteScript("""
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
""")

# KEYS: the who's set. ARGV: slot id, lease (ms). Moves the slot's lease on (only if it is still held).
RENEW = WriteScript("""
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', ms + tonumber(ARGV[2]), ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 1
""")


def slots_key(who: str) -> str:
    """The key of the slots ``who`` (``account:<id>`` or ``address:<address>``) holds."""
    return "tl:{waits:" + hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32] + "}"


class RedisWaitSlots:
    """The waiting slots of every account and address, in the matches' Redis (one server, Sentinel or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client

    def take(self, caps: Sequence[Cap]) -> str:
        """Take a slot under every cap; the slot's id. :class:`TooManyWaitsError` (nothing kept) when one is full."""
        slot = secrets.token_hex(8)
        taken: list[str] = []
        for cap in caps:
            key = slots_key(cap.who)
            if not run_script(self._redis, TAKE, [key], [slot, cap.most, LEASE_S * 1000]):
                self.release(slot, taken)
                kind = cap.who.partition(":")[0]
                raise TooManyWaitsError(kind, cap.most)
            taken.append(key)
        return slot

    def renew(self, slot: str, caps: Sequence[Cap]) -> None:
        """Move the slot's leases on (it is still waiting)."""
        for cap in caps:
            run_script(self._redis, RENEW, [slots_key(cap.who)], [slot, LEASE_S * 1000])

    def release(self, slot: str, keys_or_caps: Sequence[str | Cap]) -> None:
        """Give the slot back under each cap (or key) at once."""
        for item in keys_or_caps:
            key = item if isinstance(item, str) else slots_key(item.who)
            self._call(key, slot)

    def held(self, who: str) -> int:
        """How many slots ``who`` holds now (leases that ended included until the next take drops them)."""
        try:
            return int(cast(Any, self._redis).zcard(slots_key(who)))
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def _call(self, key: str, slot: str) -> Any:
        try:
            return self._redis.zrem(key, slot)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
