"""The API on a real Redis Cluster of three masters, served by two server processes that share only the cluster.

Every request goes through a balancer that hands each connection to either
server at random, so a match is created on one server, played on both, and
followed on either. The API tests imported below run here unchanged (their
``client`` is a werkzeug client over HTTP to the balancer, their
``live_server`` the balancer): the whole API contract, the lobby and
lifecycle, full matches of three presets, streams and long polls, and the
turn clocks' sweepers. The tests written here check what only a cluster
shows: the matches spread over the shards, a wake-up published on one server
reaches a waiter on the other, and the rate limits are counted once for both
servers.

The contract is every test of tests/api/test_api_contract.py,
test_api_idempotency.py and test_api_inputs.py that talks to a server (takes
one of :data:`SERVER_FIXTURES`), collected by :func:`contract_tests`, so a new
one runs here by itself. Their ``store`` and ``direct`` (a Redis client that
looks at what the store holds) are a cluster client. A test that takes the
``app`` needs the Flask app in this process (it wraps the store's commit to
lose a reply, sets the client's address, races the app's test clients in
threads, or reads a fresh app's document from threads); its ``client`` and
``api`` are then the app's test client, and the app runs here on the same
cluster:

- test_a_create_key_sent_by_another_address_is_refused_and_makes_nothing
- test_a_create_applied_but_not_confirmed_is_answered_by_its_retry
- test_racing_joins_with_one_key_take_one_seat
- test_a_join_applied_but_not_confirmed_is_answered_by_its_retry
- test_an_action_applied_but_not_confirmed_is_applied_once_by_its_retry
- test_a_fresh_apps_document_read_by_many_threads_at_once_is_the_whole_committed_one_in_each

Left out, as they talk to no server (they read the spec or the code, or make
their own app on a Redis that is not there):

- test_store_unavailable_when_redis_does_not_answer
- test_openapi_file_is_current
- test_openapi_file_is_a_valid_openapi_3_1_document
- test_openapi_operations_have_unique_ids_for_generated_sdks
- test_every_refusal_of_the_service_and_the_engine_has_a_status
- test_a_seat_keeps_the_compact_answers_of_its_last_keyed_actions
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest
import redis
from flask import Flask
from redis.cluster import RedisCluster
from werkzeug.test import Client

from tests.support.api import Api
from tests.support.cluster import Balancer, LocalCluster, http_client
from tests.support.http import call
from tests.support.servers import ServerStarter
from tests.support.sse import SseReader
from tienlen.api import create_app
from tienlen.local_redis import free_port
from tienlen.local_redis.binary import find_redis_server

from . import test_api_clock as clock_tests
from . import test_api_contract as contract_module
from . import test_api_idempotency as idempotency_module
from . import test_api_inputs as inputs_module
from . import test_api_matches as match_tests
from . import test_api_stream as stream_tests
from .test_api_lifecycle import (  # noqa: F401  (collected here too, against the cluster)
    test_a_rematch_waits_for_every_remote_seat_to_claim_its_place,
    test_cancelling_a_waiting_match_deletes_it_and_tells_its_followers,
    test_every_seat_asking_for_a_rematch_at_once_makes_one_next_match,
    test_leaving_mid_hand_lets_the_takeover_bot_finish_and_the_last_remote_seat_abandons,
    test_the_lobby_lists_listed_open_matches_newest_first_by_page_and_filter,
    test_under_racing_joins_the_lobby_never_lists_a_match_that_a_join_already_filled,
)
from .test_api_stream import (  # noqa: F401
    test_every_follower_sees_every_event_exactly_once_in_order_across_random_disconnects,
    test_stream_sends_each_event_with_its_id_type_and_json_then_ends_after_match_ended,
)
from .test_api_throttles import (  # noqa: F401  (the throttles' scripts: one slot a throttle)
    test_a_right_password_or_a_found_code_is_not_counted_as_a_failure,
    test_racing_lookups_of_unknown_codes_get_exactly_the_most_allowed_and_the_rest_429,
    test_racing_wrong_passwords_get_exactly_the_most_allowed_and_the_rest_429,
)

CONTRACT_MODULES: tuple[ModuleType, ...] = (contract_module, idempotency_module, inputs_module)
SERVER_FIXTURES = frozenset({"client", "api", "app", "live_server", "store", "direct"})
"""A test that takes one of these talks to a server (or looks at its store): it runs on the cluster."""


def contract_tests(modules: tuple[ModuleType, ...] = CONTRACT_MODULES) -> dict[str, Callable[..., Any]]:
    """Every test function defined in ``modules`` that takes a fixture of :data:`SERVER_FIXTURES`, by name."""
    found: dict[str, Callable[..., Any]] = {}
    for module in modules:
        for name, test in vars(module).items():
            if not (name.startswith("test_") and inspect.isfunction(test) and test.__module__ == module.__name__):
                continue
            if SERVER_FIXTURES & set(inspect.signature(test).parameters):
                assert name not in found, f"two contract tests named {name}"
                found[name] = test
    return found


globals().update(contract_tests())  # collected here, against the cluster, with their marks and parameters

pytestmark = pytest.mark.xdist_group("cluster")

LIMIT = 4
WINDOW_S = 3
CLUSTER_LIMITS = f"create={LIMIT}/{WINDOW_S} seconds"


def _redis_7() -> bool:
    """Whether the redis-server found is 7 or newer (sharded pub/sub, CLUSTER ADDSLOTSRANGE)."""
    import subprocess

    try:
        version = subprocess.run([find_redis_server(), "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, RuntimeError, subprocess.CalledProcessError):
        return False
    number = version.split("v=", 1)[-1].split()[0]
    return int(number.split(".")[0]) >= 7


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """Three Redis masters, every slot assigned, stopped at the end."""
    from tests.support.tools import require_tool

    require_tool("redis-server 7+", _redis_7(), "a Redis Cluster with sharded pub/sub: apt-get install redis-server")
    with LocalCluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


def _serve_pair(
    cluster: LocalCluster, starter: ServerStarter, logs: Path, env: dict[str, str]
) -> Iterator[tuple[list[str], Balancer]]:
    processes, bases = [], []
    try:
        for index in range(2):
            port = free_port()
            # each names a different node: any node leads to the whole cluster
            url = cluster.nodes[index].url
            processes.append(starter(url, port, logs / f"server{index}.log", env={"TIENLEN_REDIS_CLUSTER": "1"} | env))
            bases.append(f"http://127.0.0.1:{port}")
        balancer = Balancer(bases)
        try:
            yield bases, balancer
        finally:
            balancer.close()
    finally:
        for process in processes:  # both stop at once
            process.terminate()
        for process in processes:
            process.wait(timeout=20)


@pytest.fixture(scope="module")
def cluster_pair(
    cluster: LocalCluster, server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[list[str], Balancer]]:
    """Two servers on the cluster (rate limits off, as for every API test) and a balancer over them."""
    yield from _serve_pair(cluster, server_starter, tmp_path_factory.mktemp("cluster-servers"), {})


@pytest.fixture
def app(cluster: LocalCluster) -> Flask:
    """The app in this process on the cluster, for the tests that need it (see the module's docstring)."""
    settings = {"TIENLEN_REDIS_CLUSTER": "1", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    settings |= {"TIENLEN_ANONYMOUS_HOSTING": "1"}  # as for every API test (the default is tested on one Redis)
    return create_app({"REDIS_URL": cluster.url, "TIENLEN_BOT_BUDGET": "0.02", **settings})


@pytest.fixture
def client(request: pytest.FixtureRequest, cluster_pair: tuple[list[str], Balancer]) -> Client:
    """The imported tests' client: each request over HTTP to either server at random.

    A test that takes the ``app`` gets the app's test client instead (the app in this process on the cluster).
    """
    if "app" in request.fixturenames:
        app: Flask = request.getfixturevalue("app")
        return app.test_client()
    return http_client(cluster_pair[1].url)


@pytest.fixture
def store(cluster: LocalCluster) -> Iterator[RedisCluster]:
    """The imported input tests' look at the store: every key of the cluster (only this module's tests use it)."""
    client = RedisCluster.from_url(cluster.url)
    yield client
    client.close()


@pytest.fixture
def direct(store: RedisCluster) -> RedisCluster:
    """The imported idempotency tests' look at the store (the same cluster client)."""
    return store


@pytest.fixture
def live_server(cluster_pair: tuple[list[str], Balancer]) -> str:
    """The imported stream tests' server: the balancer, so each connection reaches either server."""
    return cluster_pair[1].url


@pytest.fixture
def servers(cluster_pair: tuple[list[str], Balancer]) -> list[str]:
    """The two servers, for the clock tests that address each in turn."""
    return cluster_pair[0]


@pytest.fixture
def quiet_lobby(cluster: LocalCluster) -> None:
    """An empty lobby for the lobby test that counts its entries."""
    RedisCluster.from_url(cluster.url).delete("tl:{lobby}:open")


@pytest.mark.parametrize(("preset", "players"), [("classic", 3), ("ladder", 2), ("standard", 2)])
def test_full_matches_on_a_cluster(api: Api, preset: str, players: int) -> None:
    """Rule: a match played to its end on both servers at random keeps every card private and every event."""
    match_tests.test_full_match_through_http_for_every_preset(api, preset, players)


def test_two_servers_on_a_cluster_fire_each_deadline_once_within_a_second(servers: list[str]) -> None:
    clock_tests.test_two_servers_fire_each_deadline_once_with_no_client_within_a_second(servers)


def test_on_a_cluster_the_clock_fires_at_most_a_second_after_the_deadline(servers: list[str]) -> None:
    clock_tests.test_the_clock_fires_at_most_a_second_after_the_deadline(servers)


def test_on_a_cluster_a_long_poll_gets_an_event_committed_between_its_read_and_its_wait_at_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cluster's subscriber polls its shards: a wake-up handled between a read and the wait still ends it."""
    long_poll = stream_tests.test_a_long_poll_gets_an_event_committed_between_its_read_and_its_wait_at_once
    long_poll(app, monkeypatch)


def test_on_a_cluster_a_stream_gets_events_committed_between_its_reads_and_its_waits_at_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream_tests.test_a_stream_gets_events_committed_between_its_reads_and_its_waits_at_once(app, monkeypatch)


def test_requests_reached_both_servers_and_matches_spread_over_every_shard(
    cluster: LocalCluster, cluster_pair: tuple[list[str], Balancer]
) -> None:
    """Rule: the balancer used both servers, and a match's keys live on one shard chosen by its id. Matches are made
    until every shard holds one: 12 random ids miss one of three shards 1.5 % of the time, 60 one time in 10^10."""
    _, balancer = cluster_pair

    def matches_per_shard() -> list[int]:
        holding = []
        for node in cluster.nodes:
            client: Any = redis.Redis(host=node.host_for_clients, port=node.port)  # CLUSTER commands are untyped
            keys = [k.decode() for k in cast(list[bytes], client.keys("tl:{*}:state"))]
            holding.append(len(keys))
            for key in keys:  # every key of one match on the node that holds its state
                tag = key[key.index("{") : key.index("}") + 1]
                slot = cast(int, client.execute_command("CLUSTER", "KEYSLOT", key))
                assert client.execute_command("CLUSTER", "KEYSLOT", f"tl:{tag}:events") == slot
        return holding

    for made in range(1, 61):
        created = call("POST", f"{balancer.url}/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}]})
        assert created.status == 201, created
        if made >= 12 and all(count > 0 for count in matches_per_shard()):
            break
    assert all(sent > 0 for sent in balancer.sent), balancer.sent
    holding = matches_per_shard()
    assert all(count > 0 for count in holding), f"matches per shard after 60 made: {holding}"


def test_a_waiter_on_one_server_is_woken_by_an_action_on_the_other(cluster_pair: tuple[list[str], Balancer]) -> None:
    """Rule: a commit's sharded wake-up reaches long polls and streams on every server within a moment."""
    (first, second), _ = cluster_pair
    created = call("POST", f"{first}/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}], "seed": 3})
    match_id, after = created.body["match_id"], created.body["match"]["last_seq"]
    tokens = {t["seat"]: t["token"] for t in created.body["tokens"]}
    token = tokens[created.body["match"]["turn"]]
    stream = SseReader(first, f"/v1/matches/{match_id}/stream?after={after}", timeout=10)
    polled: list[float] = []

    def long_poll() -> None:
        reply = call("GET", f"{first}/v1/matches/{match_id}/events?after={after}&wait=10", timeout=15)
        assert reply.status == 200 and reply.body["events"], reply
        polled.append(time.monotonic())

    waiter = threading.Thread(target=long_poll)
    waiter.start()
    time.sleep(0.5)  # both are waiting on the first server
    legal = call("GET", f"{second}/v1/matches/{match_id}/legal", token=token).body
    acted = time.monotonic()
    play = {"type": "play", "cards": legal["plays"][0]["cards"]}
    answer = call("POST", f"{second}/v1/matches/{match_id}/actions", play, token=token)
    assert answer.status == 200, answer
    waiter.join(15)
    frame = stream.next()
    while frame is not None and frame.comment is not None:  # "following", heartbeats
        frame = stream.next()
    streamed = time.monotonic()
    stream.close()
    assert polled and polled[0] - acted < 1.0, "the long poll on the other server was not woken at once"
    assert frame is not None and frame.event == "played" and streamed - acted < 1.0, frame


@pytest.fixture(scope="module")
def limited_pair(
    cluster: LocalCluster, server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[list[str], Balancer]]:
    """Two servers on the cluster that allow 4 creates per address in 3 seconds."""
    env = {"TIENLEN_RATE_LIMITS": CLUSTER_LIMITS}
    yield from _serve_pair(cluster, server_starter, tmp_path_factory.mktemp("cluster-limited"), env)


def test_rate_limits_on_a_cluster_are_counted_once_for_every_server(limited_pair: tuple[list[str], Balancer]) -> None:
    """Rule: the limits live in the cluster, so creates sent to both servers share one count, then reset."""
    bases, _ = limited_pair
    body = {"seats": [{"name": "A"}, {"open": True}]}
    first = call("POST", f"{bases[0]}/v1/matches", body)
    if first.status == 429 or int(first.headers["ratelimit-remaining"]) != LIMIT - 1:
        time.sleep(int(first.headers["ratelimit-reset"]) + 0.05)  # start at the beginning of a window
        first = call("POST", f"{bases[0]}/v1/matches", body)
    answers = [first] + [call("POST", f"{bases[i % 2]}/v1/matches", body) for i in range(1, LIMIT + 1)]
    assert [a.status for a in answers] == [201] * LIMIT + [429], [(a.status, a.headers) for a in answers]
    assert [a.headers["ratelimit-remaining"] for a in answers] == [str(LIMIT - 1 - i) for i in range(LIMIT)] + ["0"]
    over = answers[-1]
    assert over.reason == "rate_limited" and 1 <= int(over.headers["retry-after"]) <= WINDOW_S
    time.sleep(int(over.headers["retry-after"]) + 0.05)
    assert call("POST", f"{bases[1]}/v1/matches", body).status == 201, "the window did not reset"


def test_the_docstring_names_the_contract_tests_run_in_this_process_and_those_left_out() -> None:
    """Rule: every contract test runs here over HTTP, or is named above as run in this process or left out."""
    doc = __doc__ or ""
    in_process_doc, left_out_doc = doc.split("Left out", 1)

    def named(text: str) -> set[str]:
        return {line.removeprefix("- ").strip() for line in text.splitlines() if line.startswith("- test_")}

    collected = contract_tests()
    in_process = {name for name, test in collected.items() if "app" in inspect.signature(test).parameters}
    every = {name for module in CONTRACT_MODULES for name in vars(module) if name.startswith("test_")}
    assert named(in_process_doc) == in_process, "the docstring's list of tests run in this process"
    assert named(left_out_doc) == every - set(collected), "the docstring's list of tests left out"
    assert set(collected) <= set(globals()), "collected here"
