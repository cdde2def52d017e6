"""Fixtures of the API tests beside the suite's own (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tienlen.local_redis import LocalRedis


@pytest.fixture
def db(redis_server: LocalRedis) -> Iterator[Any]:
    """A client of the tests' Redis, to read what the server kept (never to change it)."""
    client = redis.Redis.from_url(redis_server.url)
    yield client
    client.close()
