"""Redis credentials and TLS on every topology: one server, Redis Sentinel, a Redis Cluster.

Rules checked, each on real ``redis-server`` processes of the test's own
(never the machine's 6379): the server reaches Redis and writes a match (its
rate limits counted there too) when Redis asks for a password
(``requirepass``), for an ACL user, or for TLS with a client certificate
(``rediss://`` and ``TIENLEN_REDIS_TLS_*``); behind Sentinel ``REDIS_URL``'s
user and password go to the data nodes and ``TIENLEN_REDIS_SENTINEL_*`` to
the sentinels, also after a failover; credentials or TLS that Redis refuses
stop the server at start with one line naming the setting, never the
password; the server's log shows ``REDIS_URL`` with its password masked.
TLS needs a ``redis-server`` built with it (Debian's is): without one the TLS
cases skip, saying so (and fail under ``TIENLEN_REQUIRE_TOOLS=1``).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.support.http import call
from tests.support.pace import paced
from tests.support.servers import start_server, stop_server
from tests.support.tools import require_tool
from tienlen.api import create_app
from tienlen.api.app import refusal
from tienlen.local_redis import LocalRedis, find_redis_server, free_port
from tienlen.local_redis.access import Access
from tienlen.local_redis.cluster import LocalCluster
from tienlen.local_redis.sentinel import MASTER_NAME, LocalSentinelGroup
from tienlen.local_redis.tls import TlsFiles, make_tls_files, tls_supported
from tienlen.settings import Settings

PASSWORD = "correct horse:battery@staple"  # a space, a colon and an at sign: quoted in a URL, whole in AUTH
SENTINEL_PASSWORD = "the sentinels' own"
WRONG = "not-the-password-42"
# a match made and played behind Sentinel, one sentinel down: about a second on a quiet machine; scaled by the
# machine's load (8.9 s seen with the load average at three times the cores), never to the seconds of retries
PROMPT_S = 8.0
QUIET = {"TIENLEN_LOG_LEVEL": "ERROR", "TIENLEN_ANONYMOUS_HOSTING": "1", "TIENLEN_BOT_BUDGET": "0.02"}


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    """A CA and the certificates it signed, once the local redis-server is known to speak TLS."""
    require_tool(
        "a redis-server built with TLS",
        tls_supported(find_redis_server()),
        "apt-get install redis-server (Debian's is built with TLS; a source build needs make BUILD_TLS=yes)",
    )
    require_tool("openssl", shutil.which("openssl") is not None, "apt-get install openssl")
    return make_tls_files(tmp_path_factory.mktemp("tls"))


def _access(kind: str, tls: TlsFiles | None) -> Access:
    """The access of a table's case: passwords on the data nodes, ACL users, TLS."""
    return {
        "requirepass": Access(password=PASSWORD),
        "acl user": Access(password=PASSWORD, username="tienlen"),
        "tls": Access(tls=tls),
        "tls and acl user": Access(password=PASSWORD, username="tienlen", tls=tls),
    }[kind]


def _wanted(kind: str, request: pytest.FixtureRequest) -> TlsFiles | None:
    return request.getfixturevalue("tls") if "tls" in kind else None


def _plays_a_match(settings: dict[str, str]) -> None:
    """The app of ``settings`` (rate limits on: counted in the same Redis) makes a match, plays a card, and a
    second app reads the match back."""
    client: FlaskClient = create_app(settings | QUIET).test_client()
    seats = [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}]
    created = client.post("/v1/matches", json={"seats": seats, "seed": 11})  # Ann leads
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["match_id"]
    seat = {"Authorization": f"Bearer {created.get_json()['tokens'][0]['token']}"}
    legal = client.get(f"/v1/matches/{match_id}/legal", headers=seat).get_json()
    action = {"type": "play", "cards": legal["plays"][0]["cards"]}
    played = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=seat)
    assert played.status_code == 200, played.get_json()
    again = create_app(settings | QUIET).test_client().get(f"/v1/matches/{match_id}")
    assert again.status_code == 200, again.get_json()


def _refused(settings: dict[str, str], *, names: str, secrets: tuple[str, ...]) -> None:
    """The server refuses to start with ``settings``: one line naming ``names``, none of ``secrets`` in it."""
    said = refusal(Settings.load(settings))
    assert said is not None and names in said, said
    assert not any(secret in said for secret in secrets), said


ONE_SERVER = ["requirepass", "acl user", "tls", "tls and acl user"]


@pytest.mark.parametrize("kind", ONE_SERVER)
def test_one_server_asking_for_credentials_or_tls_is_reached_and_refuses_wrong_ones_at_start(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Rule: on one server with ``requirepass``, an ACL user (the default user off) or TLS with client
    certificates, the server writes a match with ``REDIS_URL``'s credentials and ``TIENLEN_REDIS_TLS_*``; a
    wrong password, or a CA that did not sign Redis's certificate, is refused at start (naming the setting,
    not the password)."""
    access = _access(kind, _wanted(kind, request))
    with LocalRedis(tmp_path / "redis", appendonly=False, **access.of_nodes()) as server:
        settings = {"REDIS_URL": server.url, **access.settings()}
        assert refusal(Settings.load(settings)) is None
        _plays_a_match(settings)
        if access.password is not None:
            wrong = {**settings, "REDIS_URL": server.url.replace("horse%3Abattery", WRONG)}
            _refused(wrong, names="refused the user and password of REDIS_URL", secrets=(WRONG, PASSWORD))
        if access.tls is not None:
            untrusted = {**settings, "TIENLEN_REDIS_TLS_CA": str(access.tls.client_cert)}  # no CA
            _refused(untrusted, names="TLS with Redis at", secrets=(PASSWORD,))


def test_a_wrong_password_stops_serve_with_one_line_without_it(tmp_path: Path) -> None:
    """Rule: ``tienlen serve`` with a password Redis refuses exits 2 at once, one line naming REDIS_URL and
    Redis's reason; neither the wrong password nor the right one is in it."""
    with LocalRedis(tmp_path / "redis", appendonly=False, password=PASSWORD) as server:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TIENLEN_")}
        env["REDIS_URL"] = f"redis://:{WRONG}@127.0.0.1:{server.port}/0"
        command = [sys.executable, "-m", "tienlen", "serve", "--port", str(free_port()), "--workers", "1"]
        done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done
    assert done.stderr.splitlines() == [
        f"tienlen: Redis at 127.0.0.1:{server.port} refused the user and password of REDIS_URL: "
        "invalid username-password pair or user is disabled."
    ]
    assert WRONG not in done.stdout + done.stderr


def test_served_over_tls_with_an_acl_user_the_log_masks_the_password(tmp_path: Path, tls: TlsFiles) -> None:
    """Rule: ``tienlen serve`` (gevent workers) on a TLS Redis with an ACL user answers, makes a match, and its
    start line shows ``REDIS_URL`` with the password masked (``tienlen:***@``), the password nowhere."""
    access = Access(password=PASSWORD, username="tienlen", tls=tls)
    log = tmp_path / "server.log"
    with LocalRedis(tmp_path / "redis", appendonly=False, **access.of_nodes()) as server:
        port = free_port()
        env = access.settings() | {"TIENLEN_LOG_LEVEL": "INFO", "TIENLEN_RATE_LIMITS": ""}
        process = start_server(server.url, port, log, env=env)
        try:
            seats = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}]}
            created = call("POST", f"http://127.0.0.1:{port}/v1/matches", seats)
            assert created.status == 201, created
        finally:
            stop_server(process)
    text = log.read_text()
    assert f"using Redis rediss://tienlen:***@127.0.0.1:{server.port}/0 (from REDIS_URL)" in text, text[-2000:]
    assert PASSWORD not in text and "horse" not in text


# Behind Sentinel: (the case, the access). The data nodes' password alone is the common production set-up: the
# sentinels must then get none (the rate limits' Sentinel storage would give them the data nodes').
SENTINEL = [
    ("data nodes only", Access(password=PASSWORD)),
    ("data nodes and sentinels", Access(password=PASSWORD, sentinel_password=SENTINEL_PASSWORD)),
    (
        "tls and acl users everywhere",
        Access(password=PASSWORD, username="tienlen", sentinel_password=SENTINEL_PASSWORD, sentinel_username="watch"),
    ),
]


def _sentinel_settings(group: LocalSentinelGroup) -> dict[str, str]:
    """The group's settings, a sentinel that is down named first (one of three down: what Sentinel survives)."""
    node = group.nodes[0]
    return {
        "REDIS_URL": node.url,
        "TIENLEN_REDIS_SENTINELS": f"127.0.0.1:{free_port()},{group.setting}",
        "TIENLEN_REDIS_SENTINEL_MASTER": MASTER_NAME,
        **group.access.settings(),
    }


@pytest.fixture
def sentinel_group(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalSentinelGroup]:
    """The Sentinel group of the case (a primary, a replica, three sentinels) with its access."""
    kind, access = request.param
    if "tls" in kind:
        access = dataclasses.replace(access, tls=request.getfixturevalue("tls"))
    with LocalSentinelGroup(tmp_path / "group", access=access) as group:
        yield group


@pytest.mark.xdist_group("cluster")
@pytest.mark.parametrize("sentinel_group", SENTINEL, ids=[kind for kind, _ in SENTINEL], indirect=True)
def test_behind_sentinel_the_data_nodes_take_redis_urls_credentials_and_the_sentinels_their_own(
    sentinel_group: LocalSentinelGroup,
) -> None:
    """Rule: behind Sentinel, ``REDIS_URL``'s user and password reach the primary the sentinels name and
    ``TIENLEN_REDIS_SENTINEL_PASSWORD`` (and ``_USERNAME``) the sentinels; the server writes a match (rate limits
    counted on the primary), passing over a sentinel that is down at once (not after seconds of retries); a
    wrong sentinel password is refused at start naming its setting, a wrong data password naming REDIS_URL,
    neither password shown."""
    settings = _sentinel_settings(sentinel_group)
    assert refusal(Settings.load(settings)) is None
    started = time.monotonic()
    _plays_a_match(settings)
    assert time.monotonic() - started < paced(PROMPT_S, cap_s=20.0)
    secrets = (WRONG, PASSWORD, SENTINEL_PASSWORD)
    wrong_data = {**settings, "REDIS_URL": settings["REDIS_URL"].replace("horse%3Abattery", WRONG)}
    _refused(wrong_data, names="refused the user and password of REDIS_URL", secrets=secrets)
    if sentinel_group.access.sentinel_password is not None:
        wrong_sentinels = {**settings, "TIENLEN_REDIS_SENTINEL_PASSWORD": WRONG}
        names = "refused the user and password of TIENLEN_REDIS_SENTINEL_PASSWORD"
        _refused(wrong_sentinels, names=names, secrets=secrets)


@pytest.mark.failover
@pytest.mark.xdist_group("cluster")
@pytest.mark.parametrize("sentinel_group", SENTINEL[1:2], ids=["passwords"], indirect=True)
def test_after_a_failover_the_new_primary_is_reached_with_the_same_credentials(
    sentinel_group: LocalSentinelGroup,
) -> None:
    """Rule: with passwords on the data nodes and the sentinels, once the primary is SIGKILLed and a replica
    promoted, the same app writes again: its next connection asks the sentinels and logs in to the new primary."""
    settings = _sentinel_settings(sentinel_group) | QUIET
    client = create_app(settings).test_client()
    body = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}]}
    assert client.post("/v1/matches", json=body).status_code == 201
    old = sentinel_group.kill_primary()
    sentinel_group.wait_for_new_primary(old)
    # The pool's connections to the dead primary fail once each, then reconnect; the sentinels may still be
    # agreeing on the new primary under load, so retry until a deadline rather than for a number of attempts.
    deadline = time.monotonic() + 30
    while True:
        created = client.post("/v1/matches", json=body)
        if created.status_code == 201 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert created.status_code == 201, created.get_json()
    assert client.get(f"/v1/matches/{created.get_json()['match_id']}").status_code == 200


CLUSTER = ["requirepass", "tls and acl user"]


@pytest.mark.xdist_group("cluster")
@pytest.mark.parametrize("kind", CLUSTER)
def test_a_cluster_asking_for_credentials_or_tls_is_reached_on_every_node(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Rule: on a Redis Cluster (three primaries) with ``requirepass`` (or an ACL user and TLS), every node is
    reached with ``REDIS_URL``'s credentials: the server writes a match; a wrong password is refused at start."""
    access = _access(kind, _wanted(kind, request))
    with LocalCluster(tmp_path / "cluster", access=access) as cluster:
        settings = {"REDIS_URL": cluster.url, "TIENLEN_REDIS_CLUSTER": "1", **access.settings()}
        assert refusal(Settings.load(settings)) is None
        _plays_a_match(settings)
        wrong = {**settings, "REDIS_URL": cluster.url.replace("horse%3Abattery", WRONG)}
        _refused(wrong, names="refused the user and password of REDIS_URL", secrets=(WRONG, PASSWORD))
