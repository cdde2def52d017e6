"""Settings: every variable read once into one typed object; a bad value stops ``tienlen serve`` before it starts.

Rules checked: each variable's bad value makes ``python -m tienlen serve``
exit 2 at once with one line naming the variable, having started nothing (no
Redis, no data directory, no listening line: a real process for a refusal of
each kind, the command's entry point in this process for the others); good values are parsed to their
types; unset variables take the documented defaults; every variable is in
the Settings docstring; ``create_app`` takes a Settings object or overrides.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from tienlen import cli, serving
from tienlen.api.services import services_of
from tienlen.bots import DEFAULT_BUDGET_S
from tienlen.local_redis import free_port
from tienlen.redis_options import RedisAccess
from tienlen.settings import DEFAULT_RATE_LIMITS, VARIABLES, Settings, SettingsError, checkout_web_dir

FAST_EXIT_S = 10.0  # a refusal comes before Redis or gunicorn start: well under this even on a busy machine

# (variable, bad value, what the one line says); {file} is a path to a plain file
BAD = [
    ("TIENLEN_STORE", "postgres", "TIENLEN_STORE must be one of redis, not 'postgres'"),
    ("REDIS_URL", "localhost:6379", "REDIS_URL must be a redis://host:port/db (or rediss://, unix://) URL"),
    ("REDIS_URL", "http://example.com", "REDIS_URL must be a redis://"),
    (
        "REDIS_URL",
        "redis://:hunter2@/0",
        "REDIS_URL must be a redis://host:port/db (or rediss://, unix://) URL, not 'redis://:***@/0'",
    ),  # the password masked
    (
        "REDIS_URL",
        "redis://:hunter/2@db:6379/0",
        "REDIS_URL must be a redis://host:port/db (or rediss://, unix://) URL, not 'redis://:***@db:6379/0'",
    ),  # masked whole, its unquoted / too
    ("REDIS_URL", "redis://db:6379/0?ssl_cert_reqs=none", "REDIS_URL takes no ?options: TLS files are TIENLEN_REDIS_"),
    ("TIENLEN_DATA_DIR", "{file}", "TIENLEN_DATA_DIR must be a directory (or not exist yet)"),
    ("TIENLEN_DATA_DIR", "{file}/redis", "TIENLEN_DATA_DIR: {file}/redis cannot be made or locked: Not a directory"),
    ("TIENLEN_REDIS_CLUSTER", "maybe", "TIENLEN_REDIS_CLUSTER must be 1 or 0, not 'maybe'"),
    ("TIENLEN_REDIS_SENTINELS", "10.0.0.1", "TIENLEN_REDIS_SENTINELS must be host:port pairs separated by commas"),
    ("TIENLEN_REDIS_SENTINELS", "a:1,b:x", "TIENLEN_REDIS_SENTINELS must be host:port pairs separated by commas"),
    ("TIENLEN_REDIS_SENTINEL_MASTER", "my master", "TIENLEN_REDIS_SENTINEL_MASTER must be the primary's name"),
    ("TIENLEN_REDIS_SENTINEL_USERNAME", "watcher", "TIENLEN_REDIS_SENTINEL_USERNAME is for the sentinels"),
    ("TIENLEN_REDIS_SENTINEL_PASSWORD", "hunter2", "TIENLEN_REDIS_SENTINEL_PASSWORD is for the sentinels"),
    ("TIENLEN_REDIS_TLS_CA", "{file}", "TIENLEN_REDIS_TLS_CA is for TLS: REDIS_URL must then be a rediss:// URL"),
    ("TIENLEN_REDIS_TLS_CERT", "{file}", "TIENLEN_REDIS_TLS_CERT is for TLS: REDIS_URL must then be a rediss:// URL"),
    ("TIENLEN_REDIS_TLS_KEY", "{file}", "TIENLEN_REDIS_TLS_KEY is for TLS: REDIS_URL must then be a rediss:// URL"),
    ("TIENLEN_DURABILITY", "disk", "TIENLEN_DURABILITY must be one of local, replica, fsync, not 'disk'"),
    ("TIENLEN_REDIS_TIMEOUT", "0", "TIENLEN_REDIS_TIMEOUT must be a positive number, not '0'"),
    ("TIENLEN_REDIS_TIMEOUT", "soon", "TIENLEN_REDIS_TIMEOUT must be a positive number, not 'soon'"),
    ("TIENLEN_MATCH_TTL", "-1", "TIENLEN_MATCH_TTL must be a positive integer, not '-1'"),
    ("TIENLEN_WAITING_TTL", "1.5", "TIENLEN_WAITING_TTL must be a positive integer, not '1.5'"),
    ("TIENLEN_FINISHED_TTL", "a day", "TIENLEN_FINISHED_TTL must be a positive integer, not 'a day'"),
    ("TIENLEN_MAX_BODY", "abc", "TIENLEN_MAX_BODY must be a positive integer, not 'abc'"),
    ("TIENLEN_MAX_BODY", "", "TIENLEN_MAX_BODY must be a positive integer, not ''"),
    ("TIENLEN_BOT_BUDGET", "fast", "TIENLEN_BOT_BUDGET must be a positive number, not 'fast'"),
    ("TIENLEN_BOT_BUDGET", "-0.2", "TIENLEN_BOT_BUDGET must be a positive number, not '-0.2'"),
    ("TIENLEN_MAX_WAITERS", "0", "TIENLEN_MAX_WAITERS must be a positive integer, not '0'"),
    ("TIENLEN_MAX_WAITERS_PER_ACCOUNT", "0", "TIENLEN_MAX_WAITERS_PER_ACCOUNT must be a positive integer, not '0'"),
    ("TIENLEN_MAX_WAITERS_PER_ADDRESS", "x", "TIENLEN_MAX_WAITERS_PER_ADDRESS must be a positive integer, not 'x'"),
    ("TIENLEN_WRITES_AT_ONCE", "-1", "TIENLEN_WRITES_AT_ONCE must be a whole number, 0 or more, not '-1'"),
    ("TIENLEN_HEARTBEAT", "nan", "TIENLEN_HEARTBEAT must be a positive number, not 'nan'"),
    ("TIENLEN_RATE_LIMITS", "create=lots", "TIENLEN_RATE_LIMITS: create='lots' is not a limit"),
    ("TIENLEN_RATE_LIMITS", "shout=1/minute", "TIENLEN_RATE_LIMITS: 'shout=1/minute' is not kind=limit"),
    ("TIENLEN_SESSION_DAYS", "0", "TIENLEN_SESSION_DAYS must be a positive integer, not '0'"),
    ("TIENLEN_MAX_TOKENS", "0", "TIENLEN_MAX_TOKENS must be a positive integer, not '0'"),
    ("TIENLEN_ANONYMOUS_HOSTING", "maybe", "TIENLEN_ANONYMOUS_HOSTING must be 1 or 0, not 'maybe'"),
    ("TIENLEN_HISTORY_DAYS", "0", "TIENLEN_HISTORY_DAYS must be a positive integer, not '0'"),
    ("TIENLEN_HISTORY_DAYS", "a year", "TIENLEN_HISTORY_DAYS must be a positive integer, not 'a year'"),
    ("TIENLEN_QUEUE_FILL_S", "-1", "TIENLEN_QUEUE_FILL_S must be a number of seconds, 0 or more, not '-1'"),
    ("TIENLEN_QUEUE_FILL_S", "soon", "TIENLEN_QUEUE_FILL_S must be a number of seconds, 0 or more, not 'soon'"),
    ("TIENLEN_QUEUE_TURN_S", "1.5", "TIENLEN_QUEUE_TURN_S must be a whole number, 0 or more, not '1.5'"),
    ("TIENLEN_CHALLENGE_EXPIRY_S", "0", "TIENLEN_CHALLENGE_EXPIRY_S must be a positive integer, not '0'"),
    ("TIENLEN_MAX_CHALLENGES_SENT", "0", "TIENLEN_MAX_CHALLENGES_SENT must be a positive integer, not '0'"),
    ("TIENLEN_MAX_CHALLENGES_RECEIVED", "-2", "TIENLEN_MAX_CHALLENGES_RECEIVED must be a positive integer, not '-2'"),
    ("TIENLEN_CORS_ORIGINS", "example.com", "TIENLEN_CORS_ORIGINS: 'example.com' is not '*' or an origin"),
    ("TIENLEN_TRUSTED_PROXIES", "-1", "TIENLEN_TRUSTED_PROXIES must be a whole number, 0 or more, not '-1'"),
    (
        "TIENLEN_MODERATOR_TOKEN",
        "short",
        "TIENLEN_MODERATOR_TOKEN must be 32 or more printable characters without spaces",
    ),
    ("TIENLEN_WEB_DIR", "{file}", "TIENLEN_WEB_DIR must be a directory"),
    ("TIENLEN_LOG_LEVEL", "loud", "TIENLEN_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'loud'"),
    ("TIENLEN_LOG_FORMAT", "xml", "TIENLEN_LOG_FORMAT must be one of text, json, not 'xml'"),
]

# (variable, good value, Settings field, the value it becomes)
GOOD: list[tuple[str, str, str, Any]] = [
    ("TIENLEN_STORE", "Redis", "store", "redis"),
    ("REDIS_URL", "redis://10.0.0.5:6380/2", "redis_url", "redis://10.0.0.5:6380/2"),
    ("REDIS_URL", "unix:///run/redis.sock", "redis_url", "unix:///run/redis.sock"),
    ("REDIS_URL", "", "embedded_redis", True),
    ("TIENLEN_DATA_DIR", "/srv/tienlen/redis", "data_dir", Path("/srv/tienlen/redis")),
    ("TIENLEN_REDIS_CLUSTER", "1", "redis_cluster", True),
    ("TIENLEN_REDIS_CLUSTER", "no", "redis_cluster", False),
    (
        "TIENLEN_REDIS_SENTINELS",
        "10.0.0.1:26379, sentinel-b:26380,[::1]:26381",
        "redis_sentinels",
        (("10.0.0.1", 26379), ("sentinel-b", 26380), ("::1", 26381)),
    ),
    ("TIENLEN_REDIS_SENTINELS", "10.0.0.1:26379", "embedded_redis", False),  # the sentinels name the primary
    ("TIENLEN_REDIS_SENTINELS", "", "redis_sentinels", ()),
    ("TIENLEN_REDIS_SENTINEL_MASTER", "games", "redis_sentinel_master", "games"),
    ("REDIS_URL", "rediss://tienlen:s3cret@10.0.0.5:6380/0", "redis_url", "rediss://tienlen:s3cret@10.0.0.5:6380/0"),
    ("TIENLEN_REDIS_SENTINEL_USERNAME", "watcher", "redis_access", RedisAccess("watcher", "s3cret")),
    ("TIENLEN_REDIS_SENTINEL_PASSWORD", "s3cret", "redis_access", RedisAccess(sentinel_password="s3cret")),
    ("TIENLEN_REDIS_TLS_CA", "{dir}/ca.pem", "redis_access", RedisAccess(tls_ca="{dir}/ca.pem")),
    ("TIENLEN_REDIS_TLS_CERT", "{dir}/client.pem", "redis_access", RedisAccess(tls_cert="{dir}/client.pem")),
    (
        "TIENLEN_REDIS_TLS_KEY",
        "{dir}/client.key",
        "redis_access",
        RedisAccess(tls_cert="{dir}/client.pem", tls_key="{dir}/client.key"),
    ),
    ("TIENLEN_DURABILITY", "Replica", "durability", "replica"),
    ("TIENLEN_DURABILITY", "fsync", "durability", "fsync"),
    ("TIENLEN_REDIS_TIMEOUT", "0.3", "redis_timeout_s", 0.3),
    ("TIENLEN_MATCH_TTL", "900", "match_ttl_s", 900),
    ("TIENLEN_WAITING_TTL", " 120 ", "waiting_ttl_s", 120),
    ("TIENLEN_FINISHED_TTL", "300", "finished_ttl_s", 300),
    ("TIENLEN_MAX_BODY", "1024", "max_body", 1024),
    ("TIENLEN_BOT_BUDGET", "0.02", "bot_budget_s", 0.02),
    ("TIENLEN_MAX_WAITERS", "3", "max_waiters", 3),
    ("TIENLEN_MAX_WAITERS_PER_ACCOUNT", "2", "max_waiters_per_account", 2),
    ("TIENLEN_MAX_WAITERS_PER_ADDRESS", "500", "max_waiters_per_address", 500),
    ("TIENLEN_WRITES_AT_ONCE", "0", "writes_at_once", 0),
    ("TIENLEN_HEARTBEAT", "0.5", "heartbeat_s", 0.5),
    ("TIENLEN_RATE_LIMITS", "off", "rate_limits", None),
    ("TIENLEN_SESSION_DAYS", "7", "session_days", 7),
    ("TIENLEN_MAX_TOKENS", "5", "max_tokens", 5),
    ("TIENLEN_ANONYMOUS_HOSTING", "1", "anonymous_hosting", True),
    ("TIENLEN_HISTORY_DAYS", "365", "history_days", 365),
    ("TIENLEN_HISTORY_DAYS", "", "history_days", None),
    ("TIENLEN_QUEUE_FILL_S", "0", "queue_fill_s", 0.0),
    ("TIENLEN_QUEUE_FILL_S", "2.5", "queue_fill_s", 2.5),
    ("TIENLEN_QUEUE_TURN_S", "0", "queue_turn_s", 0),
    ("TIENLEN_CHALLENGE_EXPIRY_S", "300", "challenge_expiry_s", 300),
    ("TIENLEN_MAX_CHALLENGES_SENT", "3", "max_challenges_sent", 3),
    ("TIENLEN_MAX_CHALLENGES_RECEIVED", "100", "max_challenges_received", 100),
    ("TIENLEN_RATE_LIMITS", "", "rate_limits", DEFAULT_RATE_LIMITS),
    (
        "TIENLEN_RATE_LIMITS",
        "create=10 per second; act=5/second",
        "rate_limits",
        DEFAULT_RATE_LIMITS | {"create": "10 per second", "act": "5/second"},
    ),
    (
        "TIENLEN_CORS_ORIGINS",
        "https://a.example, http://b.example:3000/",
        "cors_origins",
        ("https://a.example", "http://b.example:3000"),
    ),
    ("TIENLEN_TRUSTED_PROXIES", "2", "trusted_proxies", 2),
    ("TIENLEN_MODERATOR_TOKEN", "m" * 40, "moderator_token", "m" * 40),
    ("TIENLEN_WEB_DIR", "{dir}", "web_dir", Path("{dir}")),
    ("TIENLEN_LOG_LEVEL", "warning", "log_level", "WARNING"),
    ("TIENLEN_LOG_FORMAT", "JSON", "log_format", "json"),
]


# What a variable of GOOD is given with, when it is used only with another (the sentinels' credentials with the
# sentinels, the TLS files with a rediss:// URL, a key with its certificate); the files are made in {dir}.
GOOD_WITH: dict[str, dict[str, str]] = {
    "TIENLEN_REDIS_SENTINEL_USERNAME": {
        "TIENLEN_REDIS_SENTINELS": "10.0.0.1:26379",
        "TIENLEN_REDIS_SENTINEL_PASSWORD": "s3cret",
    },
    "TIENLEN_REDIS_SENTINEL_PASSWORD": {"TIENLEN_REDIS_SENTINELS": "10.0.0.1:26379"},
    "TIENLEN_REDIS_TLS_CA": {"REDIS_URL": "rediss://redis.example:6380/0"},
    "TIENLEN_REDIS_TLS_CERT": {"REDIS_URL": "rediss://redis.example:6380/0"},
    "TIENLEN_REDIS_TLS_KEY": {
        "REDIS_URL": "rediss://redis.example:6380/0",
        "TIENLEN_REDIS_TLS_CERT": "{dir}/client.pem",
    },
}


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting from the environment the tests run in."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


def _filled(value: str, tmp_path: Path) -> str:
    plain = tmp_path / "a-file"
    plain.write_text("not a directory")
    return value.replace("{file}", str(plain)).replace("{dir}", str(tmp_path))


def test_every_variable_has_a_bad_value_here_and_a_line_in_the_docstring() -> None:
    """Rule: a new setting gets a refusal case in this table and a row in the Settings docstring."""
    assert {name for name, _, _ in BAD} == set(VARIABLES)
    assert {name for name, _, _, _ in GOOD} == set(VARIABLES)
    doc = Settings.__doc__ or ""
    assert [name for name in VARIABLES if f"``{name}``" not in doc] == []


# Bad values given to a real ``python -m tienlen serve`` process: one refused by the settings, one whose line masks
# a secret, one refused by the logging's own setting, and the one refused only when the data directory is made
# (after the settings: it cannot be checked in this process). Every other bad value goes to the same entry point
# in this process (the test after this one): about 0.4 s of CPU a process, fifty of them, saved from every run.
IN_A_PROCESS = {
    ("TIENLEN_STORE", "postgres"),
    ("REDIS_URL", "redis://:hunter2@/0"),
    ("TIENLEN_LOG_LEVEL", "loud"),
    ("TIENLEN_DATA_DIR", "{file}/redis"),
}
BAD_IN_A_PROCESS = [case for case in BAD if case[:2] in IN_A_PROCESS]
BAD_HERE = [case for case in BAD if case[:2] not in IN_A_PROCESS]


def test_the_bad_values_given_to_a_process_are_in_the_table() -> None:
    """The real-process cases are cases of the table (a typo would leave one out silently)."""
    assert len(BAD_IN_A_PROCESS) == len(IN_A_PROCESS)


@pytest.mark.parametrize(
    ("name", "value", "said"), BAD_IN_A_PROCESS, ids=[f"{n}={v!r}" for n, v, _ in BAD_IN_A_PROCESS]
)
def test_a_bad_value_stops_serve_at_once_with_one_line_naming_it(
    name: str, value: str, said: str, tmp_path: Path
) -> None:
    """Rule: exit status 2, one line ``tienlen: <what is wrong>`` on stderr, nothing started, no traceback."""
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env["TIENLEN_DATA_DIR"] = str(tmp_path / "data")  # where a Redis would have been started
    env[name] = _filled(value, tmp_path)
    port = free_port()
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "tienlen", "serve", "--port", str(port), "--workers", "1"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - started < FAST_EXIT_S
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"tienlen: {_filled(said, tmp_path)}"), lines[0]
    assert not (tmp_path / "data").exists(), "a Redis was started before the setting was refused"
    assert not (tmp_path / "var").exists()


@pytest.mark.parametrize(("name", "value", "said"), BAD_HERE, ids=[f"{n}={v!r}" for n, v, _ in BAD_HERE])
def test_every_other_bad_value_stops_the_serve_command_with_one_line_naming_it(
    name: str,
    value: str,
    said: str,
    tmp_path: Path,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Rule: as in a process, through the command's own entry point (``tienlen.cli.main``) in this one: status 2,
    one line ``tienlen: <what is wrong>`` on stderr, nothing on stdout, nothing made; nothing after the settings
    runs (it would fail here: a value refused later belongs with the real-process cases above)."""

    def went_on(*_args: object, **_kwargs: object) -> str | None:
        raise AssertionError(f"serve went past its settings with {name}={value!r}: give it a real process")

    monkeypatch.setattr(serving, "port_in_use", went_on)  # the first step of serve after the settings
    monkeypatch.setenv("TIENLEN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv(name, _filled(value, tmp_path))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["serve", "--port", str(free_port()), "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"tienlen: {_filled(said, tmp_path)}"), lines[0]
    assert not (tmp_path / "data").exists()
    assert not (tmp_path / "var").exists()


@pytest.mark.parametrize(("name", "value", "field", "expected"), GOOD, ids=[f"{n}={v!r}" for n, v, _, _ in GOOD])
def test_good_values_are_parsed_to_their_types(
    name: str, value: str, field: str, expected: Any, tmp_path: Path, clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = {other: _filled(text, tmp_path) for other, text in GOOD_WITH.get(name, {}).items()}
    for made in ("ca.pem", "client.pem", "client.key"):
        (tmp_path / made).write_text("-----BEGIN CERTIFICATE-----\n")
    from_overrides = Settings.load(given | {name: _filled(value, tmp_path)})
    if isinstance(expected, Path):
        expected = Path(_filled(str(expected), tmp_path))
    if isinstance(expected, RedisAccess):
        expected = RedisAccess(**{k: v and _filled(v, tmp_path) for k, v in asdict(expected).items()})
    assert getattr(from_overrides, field) == expected
    for other, text in given.items():
        monkeypatch.setenv(other, text)
    monkeypatch.setenv(name, _filled(value, tmp_path))
    assert getattr(Settings.load(), field) == expected


def test_unset_variables_take_the_documented_defaults(clean_env: None) -> None:
    settings = Settings.load()
    assert settings == Settings(embedded_redis=True)
    assert settings.redis_url == "redis://127.0.0.1:6379/0" and settings.embedded_redis
    assert settings.data_dir == Path("var", "redis")
    assert settings.bot_budget_s == DEFAULT_BUDGET_S  # the bots' one definition
    assert settings.rate_limits == DEFAULT_RATE_LIMITS
    assert settings.cors_origins == ()
    assert settings.web_dir == checkout_web_dir()
    assert (settings.log_level, settings.log_format) == ("INFO", "text")
    assert (settings.max_body, settings.match_ttl_s, settings.writes_at_once) == (65536, 604800, 1)


# (settings given together, what the one refusal says): topologies this server does not run
BAD_TOGETHER = [
    (
        {"TIENLEN_REDIS_CLUSTER": "1", "TIENLEN_REDIS_SENTINELS": "10.0.0.1:26379"},
        "TIENLEN_REDIS_SENTINELS cannot be used with TIENLEN_REDIS_CLUSTER=1",
    ),
]


@pytest.mark.parametrize(("values", "said"), BAD_TOGETHER, ids=[said[:40] for _, said in BAD_TOGETHER])
def test_a_topology_the_server_does_not_run_is_refused_naming_both_settings(
    values: dict[str, str], said: str, clean_env: None
) -> None:
    """Rule: Sentinel with Cluster is a SettingsError (serve exits 2)."""
    with pytest.raises(SettingsError, match=re.escape(said)):
        Settings.load(values)


@pytest.mark.parametrize("durability", ["local", "replica", "fsync"])
def test_every_durability_runs_on_a_cluster(durability: str, clean_env: None) -> None:
    """Rule: a Cluster's primaries wait for their own replicas (or disks) as one server does."""
    settings = Settings.load({"TIENLEN_REDIS_CLUSTER": "1", "TIENLEN_DURABILITY": durability})
    assert (settings.redis_cluster, settings.durability) == (True, durability)


def test_the_durability_defaults_to_local_and_sentinels_to_none(clean_env: None) -> None:
    """Rule: without the new settings the server behaves as before: REDIS_URL (or the embedded Redis), local writes."""
    settings = Settings.load()
    assert (settings.durability, settings.redis_sentinels, settings.redis_sentinel_master) == ("local", (), "mymaster")


def test_overrides_win_over_the_environment_and_other_names_are_left_alone(
    clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIENLEN_MAX_BODY", "abc")
    monkeypatch.setenv("TIENLEN_REQUIRE_TOOLS", "1")  # the tests' own variable: not a setting
    assert Settings.load({"TIENLEN_MAX_BODY": "100", "TESTING": True}).max_body == 100
    with pytest.raises(SettingsError, match="TIENLEN_MAX_BODY"):
        Settings.load()


def test_a_settings_error_is_a_value_error_naming_the_variable() -> None:
    with pytest.raises(ValueError, match=r"^TIENLEN_HEARTBEAT must be a positive number, not '0'$"):
        Settings.load({"TIENLEN_HEARTBEAT": "0"})


def test_create_app_takes_a_settings_object_as_it_is(clean_env: None) -> None:
    from tienlen.api import create_app

    settings = Settings(redis_url="redis://127.0.0.1:1/0", max_body=1234, log_level="WARNING", rate_limits=None)
    assert Settings.of(settings) is settings
    app = create_app(settings)
    assert services_of(app).settings is settings
    assert app.config["MAX_CONTENT_LENGTH"] == 1234
    overridden = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_MAX_BODY": "99"})
    assert overridden.config["MAX_CONTENT_LENGTH"] == 99


@pytest.mark.parametrize(
    ("names", "warned"),
    [
        (["TIENLEN_MAX_BDY"], [("TIENLEN_MAX_BDY", "TIENLEN_MAX_BODY")]),
        (["TIENLEN_LOG_LEVELS", "TIENLEN_HEARTBEAT"], [("TIENLEN_LOG_LEVELS", "TIENLEN_LOG_LEVEL")]),
        (["TIENLEN_REDIS_CLUSTERS"], [("TIENLEN_REDIS_CLUSTERS", "TIENLEN_REDIS_CLUSTER")]),
        (["TIENLEN_REQUIRE_TOOLS", "TIENLEN_TOKEN", "TIENLEN_URL", "PATH"], []),
    ],
)
def test_a_nearly_named_setting_is_named_back_and_others_are_left_alone(
    names: list[str], warned: list[tuple[str, str]]
) -> None:
    """Rule: a TIENLEN_* variable one typo away from a setting is reported with the setting meant; the tests' and
    bots' own TIENLEN_* variables are not."""
    from tienlen.settings import misspelt

    assert misspelt(names) == warned
