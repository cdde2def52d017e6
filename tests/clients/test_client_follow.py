"""Following a match with ``Client.follow``: against a real server (disconnects, a proxy that cuts
the connection anywhere, a restarted server) and a scripted stream for what a real one rarely does
(an early end, a frame cut in half, ``Retry-After``)."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import random
import socket
import socketserver
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, EventStream
from tienlen_client.botkit import lowest_play

from tests.support.servers import ServerStarter, stop_server
from tienlen.local_redis import LocalRedis, free_port

pytestmark = pytest.mark.xdist_group("live_server")


# ---------------------------------------------------------------------------- following a match


def _play_out(client: Client, match_id: str, tokens: list[str], actions: int | None = None, pause_s: float = 0) -> int:
    """Seats play their lowest play (or pass) until the match ends or ``actions`` were taken; answer how many."""
    seats = [client.seat(match_id, token) for token in tokens]
    taken = 0
    while actions is None or taken < actions:
        public = client.match(match_id)
        if public["status"] == "finished":
            break
        seat = seats[public["turn"]]
        cards = lowest_play(seat.view())
        if cards:
            seat.play(cards)
        else:
            seat.pass_turn()
        taken += 1
        if pause_s:
            time.sleep(pause_s)
    return taken


def _all_events(client: Client, match_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while page := client.events(match_id, after=len(events))["events"]:
        events += page
    return events


def _new_match(client: Client, hands: int = 1, seed: int = 1) -> tuple[str, list[str]]:
    created = client.create_match([{"name": f"P{i}"} for i in range(4)], rules={"hands": hands}, seed=seed)
    return created["match_id"], [t["token"] for t in created["tokens"]]


def _in_background(target: Any, *args: Any) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target(*args)
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, errors


def test_follow_yields_every_event_once_in_order_across_disconnects(live_server: str) -> None:
    client = Client(live_server)
    match_id, tokens = _new_match(client, hands=2, seed=21)
    player, failed = _in_background(_play_out, Client(live_server), match_id, tokens, None, 0.002)
    got: list[dict[str, Any]] = []
    stream = client.follow(match_id, after=0, read_timeout=20)
    for event in stream:
        got.append(event)
        if len(got) in (5, 40):
            stream.disconnect()  # the client drops the connection between two events
        if len(got) == 80:
            # and from another thread while this one waits for the next event
            threading.Timer(0.001, stream.disconnect).start()
    player.join(timeout=60)
    assert not failed, failed
    expected = _all_events(client, match_id)
    assert expected[-1]["type"] == "match_ended" and len(expected) > 100
    assert [e["seq"] for e in got] == list(range(1, len(expected) + 1)), "an event was missed or repeated"
    assert got == expected
    assert stream.connections >= 3 and stream.ended and stream.last_event_id == len(expected)
    assert list(stream) == []


def test_follow_starts_after_the_given_event_and_stops_at_once_on_a_finished_match(live_server: str) -> None:
    client = Client(live_server)
    match_id, tokens = _new_match(client, seed=22)
    _play_out(client, match_id, tokens)
    expected = _all_events(client, match_id)
    assert list(client.follow(match_id, after=10)) == expected[10:]
    started = time.monotonic()
    finished = client.follow(match_id, after=len(expected))
    assert list(finished) == [] and finished.connections == 1
    assert time.monotonic() - started < 2
    with pytest.raises(ApiError) as missing:
        next(client.follow("0123456789abcdef0123"))
    assert (missing.value.status, missing.value.reason) == (404, "match_not_found")


class CuttingProxy(socketserver.ThreadingTCPServer):
    """Forwards to ``upstream``, but cuts each connection after a random number of bytes sent back."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, upstream: tuple[str, int], seed: int) -> None:
        super().__init__(("127.0.0.1", 0), CuttingHandler)
        self.upstream = upstream
        self.rng = random.Random(seed)
        self.cuts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class CuttingHandler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        proxy = cast(CuttingProxy, self.server)
        budget = proxy.rng.randint(300, 1500)
        downstream: socket.socket = self.request
        upstream = socket.create_connection(proxy.upstream)

        def forward_requests() -> None:
            with contextlib.suppress(OSError):
                while data := downstream.recv(65536):
                    upstream.sendall(data)

        threading.Thread(target=forward_requests, daemon=True).start()
        try:
            while data := upstream.recv(65536):
                if len(data) >= budget:
                    downstream.sendall(data[:budget])  # anywhere: in a chunk's size, a frame, a line
                    proxy.cuts += 1
                    break
                downstream.sendall(data)
                budget -= len(data)
        except OSError:
            pass
        finally:
            for sock in (downstream, upstream):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


def test_follow_resumes_without_gap_or_repeat_when_the_connection_is_cut_anywhere(live_server: str) -> None:
    client = Client(live_server)
    match_id, tokens = _new_match(client, hands=2, seed=23)
    parsed = urllib.parse.urlsplit(live_server)
    upstream = parsed.hostname or "127.0.0.1", parsed.port or 80
    proxy = CuttingProxy(upstream, seed=7)
    serving = threading.Thread(target=proxy.serve_forever, daemon=True)
    serving.start()
    try:
        player, failed = _in_background(_play_out, Client(live_server), match_id, tokens, None, 0.002)
        stream = Client(proxy.url).follow(match_id, read_timeout=20, give_up_after=30)
        got = list(stream)
        player.join(timeout=60)
    finally:
        proxy.shutdown()
        proxy.server_close()
    assert not failed, failed
    expected = _all_events(client, match_id)
    assert [e["seq"] for e in got] == list(range(1, len(expected) + 1)), "an event was missed or repeated"
    assert got == expected
    assert proxy.cuts >= 10 and stream.connections >= 10


def test_follow_reconnects_to_a_restarted_server(
    redis_server: LocalRedis, server_starter: ServerStarter, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = server_starter(redis_server.url, port, tmp_path / "first.log")
    second = None
    try:
        client = Client(base)
        match_id, tokens = _new_match(client, seed=24)
        got: list[dict[str, Any]] = []
        stream = Client(base).follow(match_id, give_up_after=60)
        follower, failed = _in_background(lambda: got.extend(stream))
        _play_out(client, match_id, tokens, actions=15)
        time.sleep(0.3)
        seen_before = len(got)
        client.close()  # an idle kept-alive connection would hold the graceful stop for its timeout
        stop_server(first)  # SIGTERM: the server ends its streams at once
        second = server_starter(redis_server.url, port, tmp_path / "second.log")
        _play_out(Client(base), match_id, tokens)
        follower.join(timeout=60)
        assert not failed, failed
        expected = _all_events(Client(base), match_id)
        assert 0 < seen_before < len(expected)
        assert got == expected
        assert stream.connections >= 2
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                stop_server(process)


# ---------------------------------------------------------------------------- a scripted stream


class ScriptedStreams(http.server.ThreadingHTTPServer):
    """Answers each ``GET …/stream`` with the next of ``streams`` and ``GET /v1/matches/m`` with ``match``.

    A stream is ``(status, headers, frames, clean_end)``: a refusal when the status is not 200,
    else each frame sent as a chunk and, when ``clean_end``, the last chunk. ``requests`` keeps
    each stream request's path and ``Last-Event-ID``.
    """

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ScriptedHandler)
        self.streams: list[tuple[int, dict[str, str], list[bytes], bool]] = []
        self.match: dict[str, Any] = {"status": "playing", "last_seq": 0}
        self.requests: list[tuple[str, str | None]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class ScriptedHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        server = cast(ScriptedStreams, self.server)
        if self.path == "/v1/matches/m":
            body = json.dumps(server.match).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        server.requests.append((self.path, self.headers.get("Last-Event-ID")))
        status, headers, frames, clean_end = server.streams.pop(0)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 200:
            body = json.dumps({"reason": "too_many_waiters" if status == 503 else "gone"}).encode()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for frame in frames:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
        if clean_end:
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def _frame(seq: int, kind: str = "played") -> bytes:
    data = json.dumps({"seq": seq, "type": kind})
    return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()


@pytest.fixture
def scripted() -> Iterator[ScriptedStreams]:
    server = ScriptedStreams()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_stream_honours_retry_after_and_resumes_after_an_early_end(scripted: ScriptedStreams) -> None:
    scripted.streams = [
        (503, {"Retry-After": "2"}, [], True),
        (200, {}, [b": following\n\n", _frame(4), b": heartbeat\n\n", _frame(5)], True),  # ends early
        (200, {}, [b": following\n\n", _frame(6) + _frame(7, "match_ended")], True),
    ]
    scripted.match = {"status": "playing", "last_seq": 6}
    pauses: list[float] = []
    stream = EventStream(scripted.url, "m", after=3, sleep=pauses.append)
    assert [(e["seq"], e["type"]) for e in stream] == [(4, "played"), (5, "played"), (6, "played"), (7, "match_ended")]
    assert pauses == [2.0]
    assert scripted.requests == [
        ("/v1/matches/m/stream?after=3", None),
        ("/v1/matches/m/stream", "3"),
        ("/v1/matches/m/stream", "5"),
    ]
    assert stream.connections == 2 and stream.ended


def test_a_stream_that_ends_on_a_finished_match_stops(scripted: ScriptedStreams) -> None:
    scripted.streams = [(200, {}, [b": following\n\n", _frame(1), _frame(2)], True)]
    scripted.match = {"status": "finished", "last_seq": 2}
    stream = EventStream(scripted.url, "m", sleep=lambda s: None)
    assert [e["seq"] for e in stream] == [1, 2]
    assert len(scripted.requests) == 1


def test_a_stream_cut_in_the_middle_of_a_frame_yields_no_part_of_it(scripted: ScriptedStreams) -> None:
    whole = _frame(2)
    scripted.streams = [
        (200, {}, [_frame(1) + whole[:20]], False),  # cut inside the second frame, no last chunk
        (200, {"X-Note": "again"}, [whole, _frame(3, "match_ended")], True),
    ]
    pauses: list[float] = []
    stream = EventStream(scripted.url, "m", sleep=pauses.append)
    assert [e["seq"] for e in stream] == [1, 2, 3]
    assert pauses == [] and [r[1] for r in scripted.requests] == [None, "1"]


def test_a_stream_refused_for_good_raises_and_one_refused_too_long_gives_up(scripted: ScriptedStreams) -> None:
    scripted.streams = [(404, {}, [], True)]
    with pytest.raises(ApiError) as gone:
        next(EventStream(scripted.url, "m", sleep=lambda s: None))
    assert gone.value.status == 404
    scripted.streams = [(503, {}, [], True)] * 5
    pauses: list[float] = []
    stream = EventStream(scripted.url, "m", give_up_after=0, sleep=pauses.append)
    with pytest.raises(ApiError) as busy:
        next(stream)
    assert (busy.value.status, busy.value.reason) == (503, "too_many_waiters")
    assert len(pauses) == 1 and 0.25 <= pauses[0] <= 0.5  # no Retry-After: the first pause of the backoff
    assert stream.ended
