"""Puzzle attempts and ratings in Redis: the :class:`~.puzzles.PuzzleStore` on the matches' Redis.

Keys:

- ``tl:{acct:<id>}:puzzles`` hash: puzzle id → ``open``, ``won`` or ``lost`` (its attempt)
- ``tl:{acct:<id>}:puzzle_rating`` the account's puzzle rating (the service's JSON)
- ``tl:{puzzles}:ratings`` hash: puzzle id → the puzzle's rating (the service's JSON)

An attempt is decided once: the change from ``open`` is one script, so two racing answers rate it once. The
account's rating and the puzzle's are on two slots and written after it; a failure between leaves the
attempt decided and a rating unmoved (never moved twice).
"""

from __future__ import annotations

from typing import Any

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .puzzles import OPEN

PUZZLE_RATINGS_KEY = "tl:{puzzles}:ratings"

# KEYS: the account's attempts. ARGV: the puzzle id, the result. Answers 1 when the attempt was open.
_DECIDE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'open' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


def attempts_key(account_id: str) -> str:
    """Key of the account's puzzle attempts."""
    return f"tl:{{acct:{account_id}}}:puzzles"


def rating_key(account_id: str) -> str:
    """Key of the account's puzzle rating."""
    return f"tl:{{acct:{account_id}}}:puzzle_rating"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisPuzzles:
    """The :class:`~.puzzles.PuzzleStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client  # one server or a cluster: both register scripts
        self._decide = scripts.register_script(_DECIDE)

    def _call(self, work: Any) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def attempts(self, account_id: str) -> dict[str, str]:
        """The account's attempts."""
        found = self._call(lambda: self._redis.hgetall(attempts_key(account_id)))
        return {_text(k): _text(v) for k, v in found.items()}

    def open_attempt(self, account_id: str, puzzle_id: str) -> bool:
        """HSETNX: only the first answer opens it."""
        return bool(self._call(lambda: self._redis.hsetnx(attempts_key(account_id), puzzle_id, OPEN)))

    def decide_attempt(self, account_id: str, puzzle_id: str, result: str) -> bool:
        """From ``open`` to the result, in one script."""
        keys = [attempts_key(account_id)]
        return bool(int(self._call(lambda: self._decide(keys=keys, args=[puzzle_id, result]))))

    def account_rating(self, account_id: str) -> str | None:
        """The stored text, or None."""
        found = self._call(lambda: self._redis.get(rating_key(account_id)))
        return None if found is None else _text(found)

    def puzzle_ratings(self) -> dict[str, str]:
        """Every stored puzzle rating."""
        found = self._call(lambda: self._redis.hgetall(PUZZLE_RATINGS_KEY))
        return {_text(k): _text(v) for k, v in found.items()}

    def set_ratings(self, account_id: str, account_rating: str, puzzle_id: str, puzzle_rating: str) -> None:
        """Two writes: the account's key, then the puzzles' hash."""
        self._call(lambda: self._redis.set(rating_key(account_id), account_rating))
        self._call(lambda: self._redis.hset(PUZZLE_RATINGS_KEY, puzzle_id, puzzle_rating))

    def forget(self, account_id: str) -> None:
        """Both of the account's keys (one slot)."""
        self._call(lambda: self._redis.delete(attempts_key(account_id), rating_key(account_id)))
