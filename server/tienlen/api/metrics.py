"""Metrics at ``GET /metrics`` in Prometheus's text format, summed over every worker of the server.

``tienlen serve`` runs several gunicorn workers, so the metrics use
prometheus_client's multiprocess mode: each worker writes its values to files
in ``PROMETHEUS_MULTIPROC_DIR`` (``tienlen serve`` makes a fresh temp dir when
it is not set, and removes it on exit; a directory you set must be emptied
between runs) and ``/metrics``, answered by any worker, adds them up. Without
the variable (the app in a test, a single process) the values live in the
process.

What is counted:

- ``tienlen_http_requests_total{route, method, status}`` and
  ``tienlen_http_request_duration_seconds{route, method}``: every request by
  route template (``unmatched`` for unknown paths), until its answer starts
  (a stream's answer starts at once);
- ``tienlen_refusals_total{reason}``: every error answer by its ``reason``
  (rules, tokens, limits, ``store_unavailable`` and ``outcome_unknown``...);
- ``tienlen_redis_errors_total{reason}``: the answers Redis failed
  (``store_unavailable``, ``outcome_unknown``), and the turn clocks' sweeps
  it failed (the sweeper logs them and goes on);
- ``tienlen_actions_applied_total{type}``: plays and passes committed, by
  people, bots and turn clocks alike (``played`` / ``passed``);
- ``tienlen_matches_created_total`` and ``tienlen_matches_finished_total{how}``
  (``ended`` or ``abandoned``);
- ``tienlen_bot_decision_seconds{level}``: how long each bot took to choose;
- ``tienlen_cas_retries_total``: commits that lost a compare-and-set race and
  were retried from a fresh read;
- ``tienlen_waiting_connections``: long polls and streams held now (summed
  over live workers).
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from ..events import MatchAbandoned, MatchEnded, Passed, Played
from ..store.errors import OutcomeUnknownError
from .services import services_of

MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
STORE_REASONS = ("store_unavailable", "outcome_unknown")

REQUESTS = Counter("tienlen_http_requests", "Requests answered", ["route", "method", "status"])
LATENCY = Histogram(
    "tienlen_http_request_duration_seconds",
    "Seconds until the answer started",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
REFUSALS = Counter("tienlen_refusals", "Error answers by reason", ["reason"])
REDIS_ERRORS = Counter("tienlen_redis_errors", "Answers that Redis failed, by reason", ["reason"])
ACTIONS = Counter("tienlen_actions_applied", "Plays and passes committed (people, bots, clocks)", ["type"])
CREATED = Counter("tienlen_matches_created", "Matches created")
FINISHED = Counter("tienlen_matches_finished", "Matches finished, by how", ["how"])
BOT_SECONDS = Histogram(
    "tienlen_bot_decision_seconds",
    "Seconds a bot took to choose an action",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
)
CAS_RETRIES = Counter("tienlen_cas_retries", "Commits that lost a compare-and-set race and were retried")
WAITING = Gauge("tienlen_waiting_connections", "Long polls and streams held now", multiprocess_mode="livesum")

_FINISHING = {MatchEnded.type: "ended", MatchAbandoned.type: "abandoned"}
_APPLIED = {kind: ACTIONS.labels(kind) for kind in (Played.type, Passed.type)}  # every action counts: labelled once


class _StoreMetrics:
    """The store's observer: commits, lost races and waiters into the metrics."""

    def committed(self, created: bool, events: list[dict[str, Any]]) -> None:
        if created:
            CREATED.inc()
        for event in events:
            kind = event.get("type")
            applied = _APPLIED.get(str(kind))
            if applied is not None:
                applied.inc()
            elif kind in _FINISHING:
                FINISHED.labels(_FINISHING[kind]).inc()

    def lost_race(self) -> None:
        CAS_RETRIES.inc()

    def waiters(self, count: int) -> None:
        WAITING.set(count)


def install_metrics(app: Flask) -> None:
    """Count every request of ``app``, observe its store and bots, and answer ``GET /metrics``."""
    service = services_of(app).game.core
    service.store.observe(_StoreMetrics())
    service.on_bot_decision = _time_decision

    @app.before_request
    def _started() -> None:
        g.tienlen_started = time.perf_counter()

    @app.after_request
    def _count(response: Response) -> Response:
        started = g.get("tienlen_started")
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        REQUESTS.labels(route, request.method, str(response.status_code)).inc()
        if started is not None:
            LATENCY.labels(route, request.method).observe(time.perf_counter() - started)
        if response.status_code >= 400 and response.is_json and not response.is_streamed:
            body = response.get_json(silent=True)
            reason = body.get("reason") if isinstance(body, dict) else None
            if isinstance(reason, str):
                REFUSALS.labels(reason).inc()
                if reason in STORE_REASONS:
                    REDIS_ERRORS.labels(reason).inc()
        return response

    app.add_url_rule("/metrics", "metrics", metrics_answer, methods=["GET"])


def count_store_error(error: BaseException) -> None:
    """Count a Redis failure that no answer reports (the sweeper's), by the reason an answer would give."""
    REDIS_ERRORS.labels("outcome_unknown" if isinstance(error, OutcomeUnknownError) else "store_unavailable").inc()


def _time_decision(seat: int, level: str, view: Any, legal: Any, seconds: float) -> None:
    BOT_SECONDS.labels(level).observe(seconds)


def metrics_answer() -> Response:
    """Every metric in Prometheus's text format (summed over the workers in multiprocess mode)."""
    registry = REGISTRY
    if os.environ.get(MULTIPROC_VARIABLE):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    response = Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
    response.headers["Cache-Control"] = "no-store"
    return response
