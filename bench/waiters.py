"""The waiting clients of ``make bench-waiting``: streams and long polls in asyncio processes, and the health probe.

Each waiter process opens its share of the waiting clients with a
hand-written HTTP/1.1 client over ``asyncio.open_connection`` (thousands of
sockets, no thread each), records every event it receives with its arrival
time and a checksum, and sends a :class:`ProcessReport` back when told to
stop. ``bench/waiting.py`` drives them; see its docstring for the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import threading
import time
import zlib
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from http_players import HOST

READY_TIMEOUT_S = 60.0  # how long the waiters may take to be held


def checksum(event: dict[str, Any]) -> int:
    """A checksum of an event's JSON, the same for the same content however it was written."""
    return zlib.crc32(json.dumps(event, sort_keys=True, separators=(",", ":")).encode())


def raise_open_files_limit() -> None:
    """Every waiter is a socket: allow as many open files as the hard limit does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---------------------------------------------------------------------------- waiters (asyncio, own processes)


@dataclass(frozen=True)
class Assignment:
    """One waiting client: which match it follows, how, and after which event."""

    index: int
    match: int  # index into the benchmark's list of matches
    match_id: str
    kind: str  # "stream" or "poll"
    after: int
    by_header: bool = False  # a stream asks with Last-Event-ID instead of ?after=
    watcher: str | None = None  # a long poll names this spectator id (``&watcher=``: counted among the spectators)


@dataclass
class WaiterResult:
    """What one waiting client received: ``(seq, arrival, checksum)`` in arrival order."""

    index: int
    match: int
    kind: str
    after: int
    received: list[tuple[int, float, int]] = field(default_factory=list)
    errors: int = 0
    connections: int = 0


@dataclass
class ProcessReport:
    """What one waiter process sends back at the end."""

    results: list[WaiterResult]
    min_held_during_play: int
    error_samples: list[str]
    cpu_play_s: float


class WaiterError(Exception):
    """An answer a waiter did not expect (a refusal, a stream cut in the middle, a malformed answer)."""


class HttpConnection:
    """A hand-written HTTP/1.1 client connection over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int) -> HttpConnection:
        """Connect."""
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        return cls(reader, writer)

    async def send(self, path: str, headers: dict[str, str] | None = None) -> None:
        """Send a GET."""
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await self.writer.drain()

    async def head(self) -> tuple[int, dict[str, str]]:
        """The status and the (lower-cased) headers of the next answer."""
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = raw.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        return status, headers

    async def body(self, headers: dict[str, str]) -> bytes:
        """A whole (non-streamed) body."""
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while (chunk := await self.chunk()) is not None:
                parts.append(chunk)
            return b"".join(parts)
        return await self.reader.readexactly(int(headers.get("content-length", "0")))

    async def chunk(self) -> bytes | None:
        """The next chunk of a chunked body, or None after the last one (a cut raises)."""
        size_line = await self.reader.readline()
        if not size_line:
            raise WaiterError("the connection closed in the middle of a chunked answer")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            while (await self.reader.readline()) not in (b"\r\n", b"\n", b""):
                pass  # trailers
            return None
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    def close(self) -> None:
        """Close the connection."""
        self.writer.close()


class WaiterProcess:
    """The waiting clients of one process and their bookkeeping."""

    def __init__(self, host: str, port: int, assignments: list[Assignment], poll_wait: float, connects: int) -> None:
        self.host = host
        self.port = port
        self.assignments = assignments
        self.poll_wait = poll_wait
        self.connecting = asyncio.Semaphore(connects)
        self.results = {a.index: WaiterResult(a.index, a.match, a.kind, a.after) for a in assignments}
        self.last_seq = {a.index: a.after for a in assignments}
        self.targets: dict[int, int] | None = None  # match -> last seq, once the play is over
        self.held: set[int] = set()
        self.ever_held: set[int] = set()
        self.finished: set[int] = set()
        self.error_samples: list[str] = []
        self.changed = asyncio.Event()

    # ----- bookkeeping

    def error(self, assignment: Assignment, error: BaseException | str) -> None:
        """Count an error of a waiter."""
        self.results[assignment.index].errors += 1
        if len(self.error_samples) < 5:
            text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
            self.error_samples.append(f"{assignment.kind} {assignment.match_id}: {text}")

    def hold(self, assignment: Assignment, held: bool) -> None:
        """Note that a waiter is (or is no longer) held by the server."""
        if held:
            self.held.add(assignment.index)
            self.ever_held.add(assignment.index)
        else:
            self.held.discard(assignment.index)
        self.changed.set()

    def receive(self, assignment: Assignment, event: dict[str, Any], arrived: float) -> None:
        """Record an event's arrival."""
        seq = int(event["seq"])
        self.results[assignment.index].received.append((seq, arrived, checksum(event)))
        self.last_seq[assignment.index] = max(self.last_seq[assignment.index], seq)

    def done(self, assignment: Assignment) -> bool:
        """Whether the waiter has everything it will be asked for."""
        if assignment.index in self.finished:
            return True
        if self.targets is None:
            return False
        return self.last_seq[assignment.index] >= self.targets.get(assignment.match, 0)

    # ----- the two kinds of waiters

    async def follow_stream(self, a: Assignment) -> None:
        """Follow the match's event stream; connect again with Last-Event-ID when it breaks."""
        while not self.done(a):
            connection: HttpConnection | None = None
            try:
                async with self.connecting:
                    connection = await HttpConnection.open(self.host, self.port)
                    self.results[a.index].connections += 1
                    headers = {"Accept": "text/event-stream"}
                    path = f"/v1/matches/{a.match_id}/stream"
                    last = self.last_seq[a.index]
                    if a.by_header or self.results[a.index].connections > 1:
                        headers["Last-Event-ID"] = str(last)
                    else:
                        path += f"?after={last}"
                    await connection.send(path, headers)
                    status, answer = await connection.head()
                if status != 200:
                    body = await connection.body(answer)
                    self.error(a, f"{status} {body[:120]!r}")
                    await asyncio.sleep(float(answer.get("retry-after", "1")))
                    continue
                if await self.read_stream(a, connection):
                    return
                self.error(a, "the stream ended before match_ended")
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, WaiterError, ValueError) as error:
                self.error(a, error)
                await asyncio.sleep(0.2)
            finally:
                self.hold(a, False)
                if connection is not None:
                    connection.close()

    async def read_stream(self, a: Assignment, connection: HttpConnection) -> bool:
        """Read frames until the stream ends (False) or the waiter has all it needs (True)."""
        buffer = b""
        while True:
            chunk = await connection.chunk()
            arrived = time.monotonic()
            if chunk is None:
                return self.done(a)
            buffer += chunk
            while b"\n\n" in buffer:
                frame, _, buffer = buffer.partition(b"\n\n")
                data = None
                for line in frame.split(b"\n"):
                    if line.startswith(b": following"):
                        self.hold(a, True)
                    elif line.startswith(b"data:"):
                        data = line[5:].strip()
                if data is not None:
                    event = json.loads(data)
                    self.receive(a, event, arrived)
                    if event["type"] == "match_ended":
                        self.finished.add(a.index)
            if self.done(a):
                return True

    async def long_poll(self, a: Assignment) -> None:
        """Long-poll the match's events on one kept-alive connection, asking again at once after each answer."""
        connection: HttpConnection | None = None
        fresh = False
        try:
            while not self.done(a):
                try:
                    if connection is None:
                        async with self.connecting:
                            connection = await HttpConnection.open(self.host, self.port)
                        self.results[a.index].connections += 1
                        fresh = True
                    after = self.last_seq[a.index]
                    named = "" if a.watcher is None else f"&watcher={a.watcher}"
                    path = f"/v1/matches/{a.match_id}/events?after={after}&wait={self.poll_wait:g}{named}"
                    await connection.send(path)
                    self.hold(a, True)
                    try:
                        status, headers = await connection.head()
                    except asyncio.IncompleteReadError:
                        if fresh:
                            raise
                        connection.close()  # the server closed the kept-alive connection: ask again on a new one
                        connection = None
                        continue
                    body = await connection.body(headers)
                    arrived = time.monotonic()
                    self.hold(a, False)
                    fresh = False
                    if headers.get("connection", "").lower() == "close":
                        connection.close()
                        connection = None
                    if status != 200:
                        self.error(a, f"{status} {body[:120]!r}")
                        await asyncio.sleep(float(headers.get("retry-after", "1")))
                        continue
                    page = json.loads(body)
                    for event in page["events"]:
                        self.receive(a, event, arrived)
                        if event["type"] == "match_ended":
                            self.finished.add(a.index)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, WaiterError, ValueError) as e:
                    self.error(a, e)
                    self.hold(a, False)
                    if connection is not None:
                        connection.close()
                        connection = None
                    await asyncio.sleep(0.2)
        finally:
            self.hold(a, False)
            if connection is not None:
                connection.close()

    # ----- the process

    async def run(self, commands: Connection, replies: Connection) -> ProcessReport:
        """Connect every waiter, answer the parent's commands, and report when the drain is over."""
        tasks = {
            a.index: asyncio.create_task(self.follow_stream(a) if a.kind == "stream" else self.long_poll(a))
            for a in self.assignments
        }
        min_held = len(self.assignments)
        playing = False
        cpu_play = 0.0
        inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def listen() -> None:
            while True:
                try:
                    message = commands.recv()
                except EOFError:
                    message = ("drain", {}, 0.0)
                loop.call_soon_threadsafe(inbox.put_nowait, message)
                if message[0] == "drain":
                    return

        threading.Thread(target=listen, daemon=True).start()
        started = time.monotonic()
        while len(self.ever_held) < len(self.assignments) and time.monotonic() - started < READY_TIMEOUT_S:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)
        replies.send(("ready", len(self.held)))
        timeout = 0.0
        while True:
            try:
                message = await asyncio.wait_for(inbox.get(), 0.05)
            except TimeoutError:
                if playing:
                    min_held = min(min_held, len(self.held))
                continue
            if message[0] == "count":
                replies.send(("count", len(self.held)))
            elif message[0] == "go":
                playing = True
                cpu_play = time.process_time()
            elif message[0] == "stop":
                playing = False
                cpu_play = time.process_time() - cpu_play
            elif message[0] == "drain":
                self.targets, timeout = message[1], float(message[2])
                break
        for index, task in tasks.items():
            if self.done(self.assignments_by_index[index]):
                task.cancel()
        pending = [t for t in tasks.values() if not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                task.cancel()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
        return ProcessReport(list(self.results.values()), min_held, self.error_samples, cpu_play)

    @property
    def assignments_by_index(self) -> dict[int, Assignment]:
        """The assignments by waiter index."""
        return {a.index: a for a in self.assignments}


def waiter_main(
    host: str,
    port: int,
    assignments: list[Assignment],
    poll_wait: float,
    connects: int,
    commands: Connection,
    replies: Connection,
) -> None:
    """The body of a waiter process."""
    raise_open_files_limit()
    report = asyncio.run(WaiterProcess(host, port, assignments, poll_wait, connects).run(commands, replies))
    replies.send(("result", report))


# ---------------------------------------------------------------------------- the health probe (own process)


def probe_main(port: int, interval: float, stop: Any, replies: Connection) -> None:
    """GET /healthz on a fresh connection every ``interval`` seconds until ``stop`` is set."""
    import http.client

    latencies: list[float] = []
    errors: list[str] = []
    next_at = time.monotonic()
    while not stop.is_set():
        started = time.monotonic()
        connection = http.client.HTTPConnection(HOST, port, timeout=10)
        try:
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(f"healthz answered {response.status}")
            latencies.append(time.monotonic() - started)
        except (OSError, http.client.HTTPException) as error:
            errors.append(f"healthz: {type(error).__name__}: {error}")
        finally:
            connection.close()
        next_at += interval
        stop.wait(max(0.0, next_at - time.monotonic()))
    replies.send((latencies, errors))
