"""The key snapshot that "changes nothing" checks compare (``tests.support.accounts.keys``) leaves out only what
changes on its own: a sweeper's passing locks, an earlier test's match watchers and the events a deleted match leaves
behind for a minute."""

from __future__ import annotations

import redis

from tests.support.accounts import keys
from tienlen.local_redis import LocalRedis


def test_a_deleted_matchs_lingering_events_are_left_out_and_a_live_matchs_keys_are_not(
    redis_server: LocalRedis,
) -> None:
    client = redis.Redis.from_url(redis_server.url)
    gone, live = b"tl:{snapshot-test-gone}", b"tl:{snapshot-test-live}"
    watchers = b"tl:{spec:snapshot-test-live}"
    written = [gone + b":events", live + b":events", live + b":state", b"tl:{tour-lock:snapshot-test}", watchers]
    try:
        client.xadd(gone + b":events", {"e": "{}"})
        client.xadd(live + b":events", {"e": "{}"})
        client.hset((live + b":state").decode(), "v", "1")
        client.set(b"tl:{tour-lock:snapshot-test}", b"1")
        client.hset(watchers.decode(), "w1", "1")
        found = keys(client)
        assert {live + b":events", live + b":state"} <= found
        assert gone + b":events" not in found and b"tl:{tour-lock:snapshot-test}" not in found
        assert watchers not in found
        client.delete(gone + b":events")  # its minute ran out between two snapshots
        client.delete(watchers)  # the last watcher was last seen a while ago
        assert keys(client) == found
        client.delete(live + b":events")  # a live match's events going is a change
        assert keys(client) != found
    finally:
        client.delete(*written)
        client.close()
