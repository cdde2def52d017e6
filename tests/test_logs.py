"""The server's log: one format for every line (gunicorn's too), JSON on demand, and a Redis outage in a few lines.

Rules checked: a text line has a UTC time, the level, the pid and the logger,
a traceback's lines each repeat that head; with ``TIENLEN_LOG_FORMAT=json``
every line a served server writes is one JSON object (its start, requests
with their fields, gunicorn's own lines); while Redis is down for ~5 s a
served server writes a handful of lines, each with a time, and no traceback.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.support.http import call, children
from tests.support.servers import ServerStarter
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis, free_port
from tienlen.logs import FIELDS, LineFormatter, logging_config
from tienlen.settings import Settings
from tienlen.store import StoreUnavailableError
from tienlen.store.outage import OutageLog

HEAD = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) \[\d+\] [\w.]+: "
OUTAGE_S = 5.0
MOST_OUTAGE_LINES = 4  # it stopped, once or twice "still", it answers again


def _record(message: str, level: int = logging.WARNING, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("tienlen.test", level, __file__, 1, message, (), None)
    record.__dict__.update(extra)
    return record


def test_a_text_line_has_time_level_pid_and_logger_and_the_fields_after_the_message() -> None:
    record = _record("request", logging.INFO, **{FIELDS: {"method": "GET", "match_id": None, "status": 200}})
    line = LineFormatter("text").format(record)
    assert re.fullmatch(HEAD + r"request method=GET match_id=- status=200", line), line
    assert f" INFO [{os.getpid()}] tienlen.test: " in line


def test_every_line_of_a_text_traceback_repeats_the_head() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = _record("it failed\nsecond line", logging.ERROR, exc_info=sys.exc_info())
    lines = LineFormatter("text").format(record).splitlines()
    assert len(lines) > 3
    assert all(re.match(HEAD, line) for line in lines), lines
    assert lines[-1].endswith("RuntimeError: boom")


def test_a_json_line_is_one_object_with_the_fields_and_the_traceback() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = _record("it failed", logging.ERROR, exc_info=sys.exc_info(), **{FIELDS: {"status": 500}})
    text = LineFormatter("json").format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert set(line) == {"time", "level", "pid", "logger", "message", "status", "traceback"}
    assert (line["level"], line["logger"], line["message"], line["status"]) == (
        "ERROR",
        "tienlen.test",
        "it failed",
        500,
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert "RuntimeError: boom" in line["traceback"]


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_request_log_writes_a_line_per_request_with_its_fields(
    form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_LOG_FORMAT": form, "TIENLEN_LOG_LEVEL": "INFO"}
    client = create_app(config).test_client()
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/v1/matches/abcdefghijklmnopqrst/nothing").status_code == 404
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    if form == "json":
        first, second = (json.loads(line) for line in lines)
        assert first["logger"] == "tienlen.requests" and first["level"] == "INFO" and first["message"] == "request"
        assert (first["method"], first["route"], first["status"], first["match_id"]) == (
            "GET",
            "/openapi.json",
            200,
            None,
        )
        assert isinstance(first["duration_ms"], float)
        assert second["status"] == 404
    else:
        assert all(
            re.match(HEAD + r"request method=GET route=\S+ match_id=\S+ status=\d+ duration_ms=", x) for x in lines
        )


def test_gunicorn_takes_the_same_format_and_keeps_its_start_up_chatter_out() -> None:
    config = logging_config(Settings(log_level="INFO", log_format="json"))
    assert config["formatters"]["line"] == {"()": "tienlen.logs.LineFormatter", "form": "json"}
    assert config["loggers"]["gunicorn.error"]["handlers"] == ["stderr"]
    assert config["loggers"]["gunicorn.error"]["level"] == "WARNING"
    assert config["root"]["handlers"] == ["stderr"]
    assert logging_config(Settings(log_level="ERROR"))["loggers"]["gunicorn.error"]["level"] == "ERROR"


def test_a_served_server_writes_every_line_as_json(
    redis_server: LocalRedis, tmp_path: Path, server_starter: ServerStarter
) -> None:
    """Rule: with TIENLEN_LOG_FORMAT=json the master, gunicorn and the workers all write JSON objects."""
    port, log = free_port(), tmp_path / "server.log"
    env = {"TIENLEN_LOG_FORMAT": "json", "TIENLEN_LOG_LEVEL": "INFO"}
    process = server_starter(redis_server.url, port, log, env=env)
    try:
        assert call("GET", f"http://127.0.0.1:{port}/v1/matches/abcdefghijklmnopqrst").status == 404
        workers = children(process.pid)
        os.kill(workers[0], signal.SIGKILL)  # gunicorn's master says so on gunicorn.error
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "gunicorn.error" not in log.read_text():
            time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(timeout=20)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    loggers = {line["logger"] for line in lines}
    assert {"tienlen.serve", "tienlen.requests", "gunicorn.error"} <= loggers, lines
    assert all({"time", "level", "logger", "message", "pid"} <= set(line) for line in lines)
    request = next(line for line in lines if line["logger"] == "tienlen.requests" and line["status"] == 404)
    assert request["match_id"] == "abcdefghijklmnopqrst" and request["method"] == "GET"


class Kept(logging.Handler):
    """Keeps the records it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_is_said_when_it_starts_every_few_seconds_and_when_it_ends() -> None:
    clock, logger = Clock(), logging.getLogger("tienlen.test.outage")
    outage = OutageLog(logger, every_s=5.0, clock=clock)
    handler = Kept()
    seen = handler.records
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.WARNING)  # its own level: an app made earlier in this process may have set ERROR above it
    try:
        for _ in range(96):  # 12 s of failed sweeps, 8 a second
            outage.failed(StoreUnavailableError("Error 111 connecting to 127.0.0.1:1. Connection refused."))
            clock.now += 0.125
        outage.answered()
        outage.answered()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    messages = [record.getMessage() for record in seen]
    assert len(messages) == 4, messages
    assert messages[0].startswith("Redis does not answer: Error 111")
    assert messages[1].startswith("Redis still does not answer after 5.0 s (41 calls failed): Error 111")
    assert messages[2].startswith("Redis still does not answer after 10.0 s (81 calls failed)")
    assert messages[3] == "Redis answers again after 12.0 s out (96 calls failed)"
    assert not any(record.exc_info for record in seen)
    assert not outage.out


def test_a_failure_that_is_not_the_store_is_a_bug_written_with_its_traceback_now_and_then() -> None:
    clock, logger = Clock(), logging.getLogger("tienlen.test.bug")
    outage = OutageLog(logger, every_s=5.0, clock=clock)
    handler = Kept()
    seen = handler.records
    logger.addHandler(handler)
    try:
        for _ in range(60):  # 7.5 s
            outage.failed(KeyError("missing"))
            clock.now += 0.125
    finally:
        logger.removeHandler(handler)
    assert len(seen) == 2 and all(record.exc_info for record in seen)
    assert seen[1].levelname == "ERROR" and "39 more like it" in seen[1].getMessage()
    assert not outage.out


def settled_line_count(log: Path, quiet_s: float = 0.5, timeout: float = 10.0) -> int:
    """The log's line count once no line came for ``quiet_s``: a server that was slow to start can still be writing
    the lines of the health checks that waited for it (each is written after its answer)."""
    count, changed = len(log.read_text().splitlines()), time.monotonic()
    deadline = changed + timeout
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = len(log.read_text().splitlines())
        if now != count:
            count, changed = now, time.monotonic()
        elif time.monotonic() - changed >= quiet_s:
            break
    return count


@pytest.mark.parametrize("fault", ["killed", "paused"])
@pytest.mark.xdist_group("faults")
def test_a_redis_outage_of_five_seconds_writes_a_handful_of_lines(
    fault: str, tmp_path: Path, server_starter: ServerStarter
) -> None:
    """Rule: Redis killed (or paused) ~5 s under an idle served server: at most a handful of lines, all timed.

    The server runs at INFO; its turn clocks' sweeper fails 10 times a second meanwhile.
    """
    log = tmp_path / "server.log"
    with LocalRedis(tmp_path / "redis") as redis_server:
        port = free_port()
        process = server_starter(redis_server.url, port, log, env={"TIENLEN_LOG_LEVEL": "INFO"})
        try:
            before = settled_line_count(log)
            assert redis_server.pid is not None
            if fault == "killed":
                os.kill(redis_server.pid, signal.SIGKILL)
                time.sleep(OUTAGE_S)
                redis_server.restart()
            else:
                os.kill(redis_server.pid, signal.SIGSTOP)
                time.sleep(OUTAGE_S)
                os.kill(redis_server.pid, signal.SIGCONT)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and "answers again" not in log.read_text():
                time.sleep(0.1)
        finally:
            process.terminate()
            process.wait(timeout=20)
    lines = log.read_text().splitlines()[before:]
    outage = [line for line in lines if "tienlen.store" in line]
    assert outage and "Redis does not answer" in outage[0], lines
    assert "Redis answers again after" in outage[-1], lines
    assert len(lines) <= MOST_OUTAGE_LINES, "\n".join(lines)
    assert all(re.match(HEAD, line) for line in lines), lines
    assert not any("Traceback" in line for line in lines)
