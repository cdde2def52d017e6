"""What nothing caught, and the repr of what holds secrets: never a hand, a seed, a token or a digest in a log.

Rules checked: the repr of every object that holds a hand, a seed, a token or
its digest (match records, seats, the engine's match, a seat's view or state,
sessions and tokens, accounts) shows none of them; an exception that ends a
thread, a gevent pool's task or a greenlet, one Python ignores and a request's
bug are each logged once on ``tienlen.unhandled`` in the configured format
(type, where, message, frames), never with the objects involved nor the
message of an exception chained to it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.support.leaks import TOKEN, dealt_record, secrets_of_dealt_record
from tienlen.api import create_app
from tienlen.engine import format_mask
from tienlen.engine.views import seat_view
from tienlen.service.accounts import Account, IssuedToken, Registered, Session
from tienlen.service.states import SeatToken, seat_state
from tienlen.store.accounts import AccountRecord, TokenRecord
from tienlen.store.records import token_digest


def _reprs() -> list[tuple[str, Any]]:
    """Every object that holds a hand, a seed, a token or its digest, built around one record."""
    record = dealt_record()
    engine = record.engine
    assert engine is not None
    return [
        ("MatchRecord", record),
        ("SeatRecord", record.seats[0]),
        ("Match", engine),
        ("SeatView", seat_view(engine, 0)),
        ("SeatState", seat_state(record, 0)),
        ("SeatToken", SeatToken(0, TOKEN, record.match_id)),
        ("Session", Session(TOKEN, 1.0)),
        ("Registered", Registered(Account("Ann", "human", 1.0), TOKEN, 2.0)),
        ("IssuedToken", IssuedToken("t1", "bot", ("play",), 1.0, TOKEN)),
        ("AccountRecord", AccountRecord("a1", "Ann", "human", 1.0, f"$argon2id${token_digest(TOKEN)}")),
        ("TokenRecord", TokenRecord("t1", "bot", ("play",), 1.0, token_digest(TOKEN))),
    ]


@pytest.mark.parametrize(("name", "index"), [(name, i) for i, (name, _) in enumerate(_reprs())])
def test_a_repr_names_no_hand_seed_token_or_digest(name: str, index: int) -> None:
    """Rule (defence in depth): the repr of what holds hands, seeds, tokens or digests shows none of them."""
    shown = repr(_reprs()[index][1]) + str(_reprs()[index][1])
    leaks = secrets_of_dealt_record().leaks(shown)
    assert not leaks, f"{name}'s repr holds {leaks}"


_FAILING_EVERYWHERE = """
import functools, gc, logging.config, random, sys, threading, warnings
import gevent
from gevent.threadpool import ThreadPool
from tests.support.leaks import dealt_record
from tienlen.logs import logging_config, route_unhandled
from tienlen.settings import Settings

logging.config.dictConfig(logging_config(Settings(log_format=sys.argv[1], log_level="DEBUG")))
route_unhandled()
record = dealt_record()


def think(record):
    raise RuntimeError("the bot could not think")


def chained(record):
    try:
        raise KeyError(f"hands {record.engine.hands} seed {record.seed}")  # a careless message
    except KeyError as error:
        raise RuntimeError("the sweep failed") from error


class Dropped:
    def __init__(self, record):
        self.record = record

    def __del__(self):
        raise RuntimeError("dropped")


thread = threading.Thread(target=think, args=(record,), name="thinker")
thread.start()
thread.join()
thread = threading.Thread(target=chained, args=(record,), name="sweeper")
thread.start()
thread.join()
try:
    ThreadPool(1).apply(functools.partial(think, record))
except RuntimeError:
    pass
gevent.spawn(think, record).join()
Dropped(record)
gc.collect()
warnings.warn("careful")
"""


@pytest.mark.parametrize("form", ["text", "json"])
def test_what_nothing_caught_is_logged_once_in_the_format_without_the_objects_involved(form: str) -> None:
    """Rule: an exception escaping a thread, a gevent pool's task or a greenlet, and one Python ignores, is one
    record on ``tienlen.unhandled`` in the configured format (type, where, message, the frames), never the record
    it held nor the message of an exception chained to it."""
    result = subprocess.run(
        [sys.executable, "-c", _FAILING_EVERYWHERE, form], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    leaks = secrets_of_dealt_record().leaks(output)
    assert not leaks, f"the output holds {leaks}"
    assert "MatchRecord(" not in output.replace("MatchRecord(match_id=", "")
    lines = output.splitlines()
    if form == "json":
        records = [json.loads(line) for line in lines]
        heads = [r for r in records if r["logger"] == "tienlen.unhandled"]
        assert all("where" in r and "traceback" in r for r in heads)
        messages = [r["message"] for r in heads]
        assert any(r["logger"] == "py.warnings" and "careful" in r["message"] for r in records)
    else:
        assert all(re.match(r"\S+Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) \[\d+\] [\w.]+: ", line) for line in lines)
        messages = [line.split(": ", 1)[1] for line in lines if " tienlen.unhandled: unhandled" in line]
    assert len(messages) == 5, messages
    assert sum("in thread sweeper: the sweep failed" in m for m in messages) == 1, messages
    assert sum("in thread thinker: the bot could not think" in m for m in messages) == 1, messages
    assert sum("gevent's hub (a _Worker" in m or "gevent's hub (a ThreadPool" in m for m in messages) == 1, messages
    assert sum("gevent's hub (a Greenlet" in m for m in messages) == 1, messages
    assert sum("Dropped" in m and "dropped" in m for m in messages) == 1, messages


@pytest.mark.parametrize("form", ["text", "json"])
def test_a_request_that_fails_is_logged_once_without_what_its_exceptions_held(
    form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule: a bug in a request answers 500 internal_error and logs one record on ``tienlen.unhandled`` naming the
    request's route, the type and where, and never the message of an exception chained to it (here: hands, seed)."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_LOG_FORMAT": form, "TIENLEN_LOG_LEVEL": "DEBUG"})

    def careless() -> str:
        record = dealt_record()
        assert record.engine is not None
        try:
            raise KeyError(f"{record.engine.hands} {record.seed} {record.seats[0].token_sha256}")
        except KeyError as error:
            raise RuntimeError("could not answer") from error

    app.add_url_rule("/v1/careless", view_func=careless)
    answer = app.test_client().get("/v1/careless")
    assert answer.status_code == 500 and answer.get_json()["reason"] == "internal_error"
    output = capsys.readouterr()
    text = output.out + output.err
    assert not secrets_of_dealt_record().leaks(text), text
    heads = [line for line in text.splitlines() if "unhandled RuntimeError in GET /v1/careless" in line]
    assert len(heads) == 1, text
    if form == "json":
        assert all(isinstance(json.loads(line), dict) for line in text.splitlines())


def test_an_unhandled_exceptions_own_message_is_written_with_its_secrets_hidden(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Rule: a bug whose own message holds hands (as cards and as masks), the seed, a token, its digest and a fair
    deal's secret is logged with its type, where and the rest of its message, each of those hidden."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_LOG_FORMAT": "text"})
    secret = "ab" * 32

    def careless() -> str:
        record = dealt_record()
        assert record.engine is not None
        hands = [format_mask(mask) for mask in record.engine.hands]
        digest = record.seats[0].token_sha256
        raise ValueError(f"bad state {record.engine.hands} {hands} {record.seed} {TOKEN} {digest} {secret} near 7S")

    app.add_url_rule("/v1/careless", view_func=careless)
    assert app.test_client().get("/v1/careless").status_code == 500
    output = capsys.readouterr()
    text = output.out + output.err
    assert not secrets_of_dealt_record().leaks(text), text
    assert secret not in text
    heads = [line for line in text.splitlines() if "unhandled ValueError in GET /v1/careless: bad state" in line]
    assert len(heads) == 1 and "<hidden>" in heads[0] and "<hidden> near 7S" in heads[0], text
