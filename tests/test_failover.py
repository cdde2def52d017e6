"""Failover: with ``TIENLEN_DURABILITY=replica`` nothing acknowledged is lost when the Redis primary dies.

Rules checked: a write waits for a replica's copy before the server answers
(``WAIT``), and a copy not confirmed in time answers 503 ``outcome_unknown``
whose ``Idempotency-Key`` retry is safe and itself confirmed; an answer given
again is not given before its write has its copy; ``fsync`` is refused at start
by a Redis without ``WAITAOF`` (before 7.2), naming its version; and under
load through ``tienlen serve`` on Redis Sentinel (a primary, a replica, three
sentinels), SIGKILLing the primary loses no acknowledged account, action or
kept match with ``replica`` (the drill of ``bench/failover.py``, which with
``local`` does see writes lost, so it can see a loss), and play resumes.
Marked ``failover`` (``pytest -m "not failover"`` leaves them out).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tienlen.api import create_app
from tienlen.local_redis import LocalRedis, free_port
from tienlen.local_redis.replication import wait_for_copies
from tienlen.store.connect import WAITAOF_SINCE, RedisOptions, durability_refusal, redis_version, writes

pytestmark = pytest.mark.failover

ROOT = Path(__file__).resolve().parents[1]

# (command, whether the server waits for its copy after it)
COMMANDS = [
    ("EVALSHA", True),
    ("SET", True),
    ("HSET", True),
    ("ZADD", True),
    ("XADD", True),
    ("DEL", True),
    ("EXPIRE", True),
    ("SOMETHING_NEW", True),  # unknown: waited for (a wait too many, never a write unconfirmed)
    ("GET", False),
    ("HGETALL", False),
    ("XRANGE", False),
    ("ZRANGEBYSCORE", False),
    ("PING", False),
    ("PUBLISH", False),
    ("SCRIPT LOAD", False),
    ("WAIT", False),
]


@pytest.mark.parametrize(("command", "waits"), COMMANDS)
def test_every_command_but_the_known_reads_waits_for_its_copy(command: str, waits: bool) -> None:
    assert writes(command) is waits
    assert writes(command.lower().encode()) is waits


def test_a_copy_not_confirmed_answers_outcome_unknown_and_the_keyed_retry_is_confirmed_too(tmp_path: Path) -> None:
    """Rule: with no replica a write answers 503 ``outcome_unknown``; once one is in sync the retry with the same
    ``Idempotency-Key`` answers what the first attempt did (one match, not two); with the replica gone again the
    same retry answers 503 again rather than give back an answer whose write has no copy."""
    with LocalRedis(tmp_path / "primary", extra_args=("--repl-diskless-sync-delay", "0")) as primary:
        settings = {"REDIS_URL": primary.url, "TIENLEN_DURABILITY": "replica"}
        settings |= {"TIENLEN_RATE_LIMITS": "off", "TIENLEN_LOG_LEVEL": "ERROR", "TIENLEN_ANONYMOUS_HOSTING": "1"}
        client = create_app(settings).test_client()
        body = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}], "seed": 7}
        key = {"Idempotency-Key": "failover-test-1"}
        first = client.post("/v1/matches", json=body, headers=key)
        assert (first.status_code, first.get_json()["reason"]) == (503, "outcome_unknown")
        signing_up = {"name": "failover1", "password": "correct horse battery", "kind": "human"}
        account = client.post("/v1/accounts", json=signing_up)
        assert (account.status_code, account.get_json()["reason"]) == (503, "outcome_unknown")
        replica = LocalRedis(tmp_path / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port)))
        with replica:
            wait_for_copies(primary)
            again = client.post("/v1/matches", json=body, headers=key)
            assert again.status_code == 201, again.get_json()
            match_id = again.get_json()["match_id"]
            assert client.post("/v1/matches", json=body, headers=key).get_json()["match_id"] == match_id
            assert len(list(redis.Redis.from_url(primary.url).scan_iter("tl:{*}:state"))) == 1  # one match made
            os.kill(replica.pid or 0, signal.SIGKILL)  # its machine dies
        gone = client.post("/v1/matches", json=body, headers=key)
        assert (gone.status_code, gone.get_json()["reason"]) == (503, "outcome_unknown")


def test_an_action_given_again_is_not_answered_before_its_write_has_a_copy(tmp_path: Path) -> None:
    """Rule: an action whose copy was not confirmed (503 ``outcome_unknown``) and is retried with the same
    ``Idempotency-Key`` is answered again (the kept action, applied once) only once a replica has it: while the
    replica is cut off the retry answers 503 again; once it is back in sync the retry answers 200."""
    with LocalRedis(tmp_path / "primary", extra_args=("--repl-diskless-sync-delay", "0")) as primary:
        replica = LocalRedis(tmp_path / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port)))
        with replica:
            wait_for_copies(primary)
            settings = {"REDIS_URL": primary.url, "TIENLEN_DURABILITY": "replica", "TIENLEN_RATE_LIMITS": "off"}
            settings |= {"TIENLEN_LOG_LEVEL": "ERROR", "TIENLEN_ANONYMOUS_HOSTING": "1"}
            client = create_app(settings).test_client()
            body = {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}], "seed": 11}
            created = client.post("/v1/matches", json=body)
            assert created.status_code == 201, created.get_json()
            match_id = created.get_json()["match_id"]
            seat = {"Authorization": f"Bearer {created.get_json()['tokens'][0]['token']}"}
            legal = client.get(f"/v1/matches/{match_id}/legal", headers=seat).get_json()
            action = {"type": "play", "cards": legal["plays"][0]["cards"]}
            keyed = seat | {"Idempotency-Key": "failover-action-1"}
            os.kill(replica.pid or 0, signal.SIGSTOP)  # the replica's link is cut: nothing more is copied
            try:
                redis.Redis.from_url(primary.url).client_kill_filter(_type="slave")
                first = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=keyed)
                assert (first.status_code, first.get_json()["reason"]) == (503, "outcome_unknown")
                again = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=keyed)
                assert (again.status_code, again.get_json()["reason"]) == (503, "outcome_unknown")
            finally:
                os.kill(replica.pid or 0, signal.SIGCONT)
            wait_for_copies(primary)
            answered = client.post(f"/v1/matches/{match_id}/actions", json=action, headers=keyed)
            assert answered.status_code == 200, answered.get_json()
            played = [e for e in answered.get_json()["events"] if e["type"] == "played" and e["seat"] == 0]
            assert [e["cards"] for e in played] == [action["cards"]]  # applied once, by the first attempt


def test_fsync_is_refused_at_start_by_a_redis_without_waitaof(redis_server: LocalRedis, tmp_path: Path) -> None:
    """Rule: ``TIENLEN_DURABILITY=fsync`` on a Redis before 7.2 stops ``tienlen serve`` (exit 2) with one line
    naming the Redis version; on 7.2 or newer with its append-only file on, nothing is refused."""
    options = RedisOptions(redis_server.url, durability="fsync")
    version = redis_version(redis.Redis.from_url(redis_server.url))
    if version >= WAITAOF_SINCE:
        assert durability_refusal(options) is None
        return
    shown = ".".join(map(str, version))
    assert durability_refusal(options) == (
        f"TIENLEN_DURABILITY=fsync needs Redis 7.2 or newer (WAITAOF); this Redis is {shown}: use replica"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TIENLEN_")}
    env |= {"REDIS_URL": redis_server.url, "TIENLEN_DURABILITY": "fsync"}
    command = [sys.executable, "-m", "tienlen", "serve", "--port", str(free_port()), "--workers", "1"]
    result = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result
    assert result.stderr.splitlines() == [f"tienlen: {durability_refusal(options)}"]


@pytest.mark.parametrize("topology", ["sentinel", "cluster"])
def test_killing_the_primary_under_load_loses_nothing_acknowledged_with_replica(topology: str) -> None:
    """Rule: a primary SIGKILLed under load (its replica's link cut 500 ms before, 1.5 s on a Cluster, so its
    last writes have no copy) loses no acknowledged account, action or kept match with ``replica``, and play
    resumes (how soon is the bench's figure: ``make bench-failover``); the same drill with ``local`` loses writes
    (so it can see a loss).
    Behind Redis Sentinel (a primary, a replica, three sentinels) and on a Redis Cluster (three primaries with a
    replica each, the cluster failing over by itself)."""
    command = [sys.executable, str(ROOT / "bench" / "failover.py"), "--failovers", "1", "--duration", "0"]
    command += ["--between", "1", "--acted", "30", "--after", "1", "--players", "4", "--durability", "replica"]
    # on a Cluster a third of the matches live on the primary killed: a longer cut, so that local can lose some
    cut_ms = "500" if topology == "sentinel" else "1500"
    command += ["--durability", "local", "--link-cut-ms", cut_ms, "--topology", topology]
    result = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert result.stdout, result.stderr[-3000:]
    replica, local = json.loads(result.stdout)["runs"]
    assert replica["durability"] == "replica" and local["durability"] == "local"
    assert replica["topology"] == local["topology"] == topology
    assert replica["lost"] == {"accounts": 0, "actions": 0, "kept_matches": 0}, replica["lost_samples"]
    for run in (replica, local):
        assert run["failovers"] == 1
        assert run["acknowledged"]["actions"] > 20 and run["acknowledged"]["accounts"] > 0, run
        assert run["downtime_s"][0] is not None, run  # a write sent after the kill was acknowledged: play resumed
    assert sum(local["lost"].values()) > 0, local  # acknowledged while the link was cut, so with no copy: gone
    assert result.returncode == 0, result.stderr[-3000:]
