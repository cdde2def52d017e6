"""A player's history: the answers of the history calls (typed dictionaries, their JSON as it comes: times are
RFC 3339 text), and :class:`Export`, a player's replays read one NDJSON line at a time."""

from __future__ import annotations

import http.client
import json
import ssl
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Literal, TypedDict

from .transport import (
    CONNECTION_ERRORS,
    ApiError,
    ConnectionFailed,
    Endpoint,
    Response,
    RetryPolicy,
    error_body,
    retry_after_s,
    should_retry,
)

__all__ = ["NDJSON", "Export", "KeptMatch", "KeptPage", "KeptSeat", "Player", "PlayingMatch"]

NDJSON = "application/x-ndjson"
"""The media type of an export: one JSON document a line."""

READ_SIZE = 64 * 1024
"""The most an export reads from its connection at once."""


class PlayerRating(TypedDict):
    """A player's rating at one table size: the number shown (1500 for a new player), its rated games."""

    players: int
    rating: int
    games: int
    provisional: bool


class PlayingMatch(TypedDict):
    """A live match a player sits in (a Watch link when ``watchable``: ``GET /v1/matches/{match_id}/stream``);
    ``started_at`` is when its first hand was dealt."""

    match_id: str
    watchable: bool
    players: int
    rated: bool
    started_at: str


class Player(TypedDict):
    """An account's public profile: ``GET /v1/players/{name}`` (``games`` kept, ``wins`` among them, ratings, how many
    accounts follow it, the matches it plays now)."""

    name: str
    kind: Literal["human", "bot"]
    joined_at: str
    games: int
    wins: int
    ratings: list[PlayerRating]
    followers: int
    playing: list[PlayingMatch]


class KeptSeat(TypedDict):
    """A seat of a kept match: ``place`` its final standing (1 = winner; None when the match was abandoned),
    ``points`` its final match score; ``name`` is ``(deleted)`` for an account deleted since."""

    seat: int
    name: str | None
    account: bool
    bot: str | None
    place: int | None
    points: int
    rating_before: int | None  # the account's shown rating before a rated match; None when unrated
    rating_after: int | None


class KeptMatch(TypedDict):
    """A match a player sat in, as kept after it ended; ``seat`` is the player's own seat."""

    match_id: str
    created_at: str
    ended_at: str
    rules: dict[str, Any]
    hands: int
    abandoned: bool
    rated: bool
    seat: int
    seats: list[KeptSeat]


class KeptPage(TypedDict):
    """One page of a player's matches, newest first; ``next_cursor`` asks for the next page (None: the last)."""

    matches: list[KeptMatch]
    next_cursor: str | None


class Export(Iterator[dict[str, Any]]):
    """A player's replays, newest first, read from ``GET /v1/players/{name}/matches/export`` one line at a time.

    Each item is one line's JSON: a ``tienlen-replay/1`` document with the
    match's ``match_id`` and ``ended_at``. The answer is read as it comes (a
    line is decoded when it is asked for, never the whole body at once), on a
    connection of the export's own, so the :class:`~tienlen_client.Client`
    that made it stays free for other calls. Nothing is sent until the first
    ``next()``. Asking for the export is retried as any read is (after a failed
    connection, a 503, a 429 ``rate_limited``; ``retry``); a refusal (404
    ``player_not_found``, 422 ``invalid_request``) raises :class:`ApiError`. A
    connection that fails in the middle of the answer raises
    :class:`ConnectionFailed` (:attr:`yielded` says how many lines came
    before). :meth:`close` (or the end of a ``with``) drops the connection.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        path: str,
        *,
        timeout: float = 40.0,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Read ``path`` (the API path with its query) from ``endpoint``; ``timeout`` seconds for any one read."""
        self.endpoint = endpoint
        self.path = path
        self.yielded = 0
        self.ended = False
        self._timeout = timeout
        self._retry = retry if retry is not None else RetryPolicy()
        self._sleep = sleep
        self._connection: http.client.HTTPConnection | None = None
        self._response: http.client.HTTPResponse | None = None
        self._buffer = bytearray()

    def __iter__(self) -> Export:
        """The export itself."""
        return self

    def __next__(self) -> dict[str, Any]:
        """The next replay; StopIteration after the last line."""
        while not self.ended:
            if self._response is None:
                self._response = self._open()
            line = self._next_line(self._response).strip()
            if not line:
                continue  # a blank line, or the end of the answer (then ``ended``)
            document: dict[str, Any] = json.loads(line)
            self.yielded += 1
            return document
        raise StopIteration

    def _next_line(self, response: http.client.HTTPResponse) -> bytes:
        """The next line of the answer (without a newline is the last one); closes the export at the end.

        ``readline()`` of ``http.client`` takes a chunked answer cut short for
        its end, so the body is read with ``read1`` (which raises
        ``IncompleteRead`` then) and split here.

        Raises:
            ConnectionFailed: when the connection fails or the answer is cut before its end.
        """
        searched = 0
        while (end := self._buffer.find(b"\n", searched)) < 0:
            searched = len(self._buffer)
            try:
                data = response.read1(READ_SIZE)
                if not data and response.length:  # a length the answer did not come up to
                    raise http.client.IncompleteRead(b"", response.length)
            except (OSError, http.client.HTTPException, ValueError, AttributeError) as error:  # cut, or closed
                self.close()
                message = f"the export from {self.endpoint.url} broke off after {self.yielded} lines: {error!r}"
                raise ConnectionFailed(message, error, 1) from error
            if not data:
                line = bytes(self._buffer)
                self.close()
                return line
            self._buffer += data
        line = bytes(self._buffer[: end + 1])
        del self._buffer[: end + 1]
        return line

    def _open(self) -> http.client.HTTPResponse:
        """Ask for the export, retried as a read is; the 200 answer, its body still to read."""
        policy = self._retry
        attempt = 0
        while True:
            attempt += 1
            connection = self._connection = self.endpoint.connect(self._timeout)
            try:
                connection.request("GET", self.endpoint.target(self.path), headers={"Accept": NDJSON})
                response = connection.getresponse()
            except CONNECTION_ERRORS as error:
                self.close()
                if attempt >= policy.attempts or isinstance(error, ssl.SSLCertVerificationError):
                    message = f"no answer from {self.endpoint.url} (GET {self.path}) after {attempt} attempts: {error}"
                    raise ConnectionFailed(message, error, attempt) from error
                self.ended = False
                self._sleep(policy.pause_s(attempt))
                continue
            if response.status == 200:
                return response
            headers = {name.lower(): value for name, value in response.getheaders()}
            refusal = Response(response.status, _read_quietly(response), headers)
            self.close()
            wait = retry_after_s(headers.get("retry-after"))
            if attempt < policy.attempts and should_retry("GET", refusal) and (wait or 0) <= policy.max_retry_after_s:
                self.ended = False
                self._sleep(policy.pause_s(attempt, wait))
                continue
            raise ApiError(refusal.status, error_body(refusal), f"GET {self.path}", attempt)

    def close(self) -> None:
        """Stop reading and close the connection."""
        self.ended = True
        self._response = None
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()

    def __enter__(self) -> Export:
        """The export itself; closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the connection."""
        self.close()


def _read_quietly(response: http.client.HTTPResponse) -> bytes:
    """The body of a refusal, or what could be read of it."""
    try:
        return response.read()
    except CONNECTION_ERRORS:
        return b""
