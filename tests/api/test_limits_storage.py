"""Where the rate limits are counted: beside the matches, whatever the store (issue: a new store kind needs no
edit in limits.py)."""

from __future__ import annotations

import pytest
from limits.storage import MemoryStorage, storage_from_string

from tienlen.api.limits import storage_uri

# (the store's limits URI, where the limiter counts)
URIS = [
    ("redis://127.0.0.1:6390/0", "tienlen+redis://127.0.0.1:6390/0"),
    ("rediss://cache.example:6380/0", "tienlen+rediss://cache.example:6380/0"),
    ("unix:///run/redis.sock", "tienlen+unix:///run/redis.sock"),
    ("redis+cluster://127.0.0.1:7000", "tienlen+redis+cluster://127.0.0.1:7000"),
    ("redis+sentinel://10.0.0.1:26379/mymaster", "tienlen+redis+sentinel://10.0.0.1:26379/mymaster"),
    ("memory://", "memory://"),
    ("mongodb://db.example:27017", "mongodb://db.example:27017"),
]


class _Store:
    """Only what the limiter asks a store: the URI of its limits' storage."""

    def __init__(self, uri: str) -> None:
        self.uri = uri

    def limits_uri(self) -> str:
        return self.uri

    def limits_options(self) -> dict[str, str]:
        return {}


@pytest.mark.parametrize(("given", "counted"), URIS)
def test_limits_on_redis_use_our_guarded_storage_and_any_other_store_the_library_own(given: str, counted: str) -> None:
    """Rule: a Redis store's limits are counted by our guarded storages (tienlen+), any other store's by the
    limits library's storage for its URI, unchanged."""
    assert storage_uri(_Store(given)) == counted  # type: ignore[arg-type]


def test_a_store_counting_in_memory_needs_nothing_of_ours() -> None:
    """Rule: the URI given back for a store that is not Redis opens the library's own storage, without options."""
    assert isinstance(storage_from_string(storage_uri(_Store("memory://"))), MemoryStorage)  # type: ignore[arg-type]
