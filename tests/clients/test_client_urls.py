"""The client's base URL: ``http``/``https``, ports and a path prefix, in every call and in the event stream.

A real server sits behind a reverse proxy (tests/clients/proxies.py) that answers only under the
prefix and, for https, accepts only TLS with a self-signed certificate made for the test.
"""

from __future__ import annotations

import http.client
import os
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import lowest_from_legal, play_match
from tienlen_client import ApiError, Client, ConnectionFailed, Endpoint, Seat

from tests.clients.proxies import PrefixProxy, running, self_signed_certificate

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"
PREFIX = "/tienlen"

pytestmark = pytest.mark.xdist_group("live_server")


# ---------------------------------------------------------------------------- the URL alone


@pytest.mark.parametrize(
    ("url", "scheme", "host", "port", "prefix"),
    [
        ("http://127.0.0.1:8000", "http", "127.0.0.1", 8000, ""),
        ("http://cards.example", "http", "cards.example", 80, ""),
        ("https://cards.example", "https", "cards.example", 443, ""),
        ("https://cards.example:8443/tienlen/", "https", "cards.example", 8443, "/tienlen"),
        ("HTTPS://cards.example/a/b", "https", "cards.example", 443, "/a/b"),
        ("localhost:8000", "http", "localhost", 8000, ""),
        ("http://[::1]:9000/x", "http", "::1", 9000, "/x"),
    ],
)
def test_a_base_url_gives_scheme_host_default_or_explicit_port_and_prefix(
    url: str, scheme: str, host: str, port: int, prefix: str
) -> None:
    endpoint = Endpoint.parse(url)
    assert (endpoint.scheme, endpoint.host, endpoint.port, endpoint.prefix) == (scheme, host, port, prefix)
    assert endpoint.target("/v1/rules") == prefix + "/v1/rules"
    connection = endpoint.connect(5)
    assert (connection.host, connection.port) == (host, port)
    assert isinstance(connection, http.client.HTTPSConnection) == (scheme == "https")


@pytest.mark.parametrize("url", ["ftp://cards.example", "http://", "http://h/x?y=1", "http://h/#top", "http://h:99999"])
def test_a_base_url_that_is_not_http_or_https_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        Client(url)


def test_an_https_url_checks_the_certificate_by_default() -> None:
    context = Endpoint.parse("https://cards.example").ssl_context
    assert context is not None and context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


# ---------------------------------------------------------------------------- behind a proxy


@pytest.fixture
def prefixed(live_server: str) -> Iterator[PrefixProxy]:
    """The live server at ``http://127.0.0.1:P/tienlen``."""
    proxy = PrefixProxy(live_server, PREFIX)
    with running(proxy):
        yield proxy


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def tls_prefixed(live_server: str, certificate: tuple[Path, Path]) -> Iterator[PrefixProxy]:
    """The live server at ``https://127.0.0.1:P/tienlen``, TLS ended by the proxy."""
    cert, key = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    proxy = PrefixProxy(live_server, PREFIX, tls=context)
    with running(proxy):
        yield proxy


def _play_two_seats(client: Client) -> dict[str, object]:
    """Ann (this client, following the stream) against an Easy bot, one hand; then a rematch and a leave."""
    created = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], rules={"hands": 1}, seed=5)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    assert seat.hint()["explanation"]
    final = play_match(seat, choose=lowest_from_legal)
    assert final["status"] == "finished"
    events = list(client.follow(created["match_id"]))
    assert events[-1]["type"] == "match_ended" and [e["seq"] for e in events] == list(range(1, len(events) + 1))
    again = seat.rematch()
    client.seat(again["match_id"], again["token"]).leave()
    return final


def test_every_call_and_the_stream_go_under_the_path_prefix(prefixed: PrefixProxy) -> None:
    with pytest.raises(ApiError) as outside:
        Client(prefixed.url.removesuffix(PREFIX)).rules()
    assert outside.value.reason == "outside_the_prefix", "the proxy answers nothing outside its prefix"
    prefixed.targets.clear()
    with Client(prefixed.url + "/") as client:
        assert client.health() == {"status": "ok"}
        _play_two_seats(client)
    targets = prefixed.targets
    assert targets and all(t.startswith(f"{PREFIX}/v1/") or t == f"{PREFIX}/healthz" for t in targets), targets
    for tail in ("/v1/matches", "/legal", "/actions", "/hint", "/rematch", "/leave"):
        assert any(t.startswith(PREFIX) and t.endswith(tail) for t in targets), tail
    assert any("/stream" in t for t in targets), "the event stream went through the prefix too"


def test_every_call_and_the_stream_work_over_https_under_a_prefix(
    tls_prefixed: PrefixProxy, certificate: tuple[Path, Path]
) -> None:
    assert tls_prefixed.url.startswith("https://")
    trusted = ssl.create_default_context(cafile=str(certificate[0]))
    with Client(tls_prefixed.url, ssl_context=trusted) as client:
        _play_two_seats(client)
    assert any("/stream" in t for t in tls_prefixed.targets)
    assert tls_prefixed.tls_connections >= 2, "the calls and the stream each came over TLS"


def test_an_untrusted_certificate_fails_at_once_without_retries(tls_prefixed: PrefixProxy) -> None:
    started = time.monotonic()
    with pytest.raises(ConnectionFailed) as failed:
        Client(tls_prefixed.url).rules()  # the system's authorities do not know the test's certificate
    assert failed.value.attempts == 1 and isinstance(failed.value.cause, ssl.SSLCertVerificationError)
    assert time.monotonic() - started < 5
    with pytest.raises(ssl.SSLCertVerificationError):
        next(Client(tls_prefixed.url).follow("0123456789abcdef0123"))
    assert tls_prefixed.targets == []


def _slow_lowest(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The lowest play, after a pause: the other seat has to wait for it."""
    time.sleep(0.2)
    return lowest_from_legal(seat, view)


@pytest.mark.parametrize("mode", [[], ["--long-poll"]], ids=["stream", "long-poll"])
def test_the_bot_script_plays_over_https_under_a_prefix(
    tls_prefixed: PrefixProxy, certificate: tuple[Path, Path], live_server: str, mode: list[str]
) -> None:
    """The bot plays against a second remote seat (played here, straight to the server, and slowly), so it has
    to wait for its turn."""
    client = Client(live_server)
    created = client.create_match([{"open": True}, {"name": "Ann"}], rules={"hands": 1})
    env = os.environ | {"SSL_CERT_FILE": str(certificate[0])}  # the bot trusts the test's certificate
    script = [sys.executable, str(CLIENTS / "lowest_bot.py"), tls_prefixed.url, created["match_id"]]
    bot = subprocess.Popen(
        [*script, "--join", "Robo", *mode], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    finals: list[dict[str, Any]] = []
    try:
        deadline = time.monotonic() + 30
        while client.match(created["match_id"])["status"] == "waiting":  # until the bot has joined
            if bot.poll() is not None or time.monotonic() > deadline:
                out, err = bot.communicate(timeout=5) if bot.poll() is not None else ("", "")
                pytest.fail(f"the bot did not join: exit {bot.returncode}\n{out}{err}")
            time.sleep(0.05)
        ann = client.seat(created["match_id"], created["tokens"][0]["token"])
        opponent = threading.Thread(target=lambda: finals.append(play_match(ann, choose=_slow_lowest)), daemon=True)
        opponent.start()
        out, err = bot.communicate(timeout=120)
        opponent.join(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, err[-2000:]
    assert finals and finals[0]["status"] == "finished"
    assert out.startswith("match over: winner seat ")
    waits = [t for t in tls_prefixed.targets if t.startswith(f"{PREFIX}/v1/matches/{created['match_id']}/")]
    assert any(("/events?" if mode else "/stream") in t for t in waits), waits
