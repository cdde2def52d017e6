"""The Flask application factory for API v1."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, current_app, request
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import RequestRedirect

from .. import wire
from ..engine import IllegalActionError
from ..logs import install_logs, log_unhandled
from ..service import ServiceError
from ..service.accounts import AccountService
from ..service.compose import MatchServices
from ..service.core import Offload
from ..service.errors import Throttled
from ..service.friends import FriendsService
from ..service.inbox import InboxService
from ..service.puzzles import PuzzleService
from ..settings import Settings
from ..store.errors import OutcomeUnknownError, StoreUnavailableError, TooManyWaitersError
from ..store.layout import Lifetimes
from ..store_kinds import StoreOptions, open_store, store_refusal
from .breaker import Breaker, BreakerOpenError
from .errors import DEFAULT_REASONS, FALLBACK_REASON, REASON_STATUS, error_body
from .headers import install_headers
from .limits import install_limits
from .metrics import count_store_error, install_metrics
from .routes import (
    accounts,
    challenges,
    chat,
    events,
    friends,
    inbox,
    lesson,
    live,
    matches,
    meta,
    moderation,
    players,
    puzzles,
    queue,
    rated,
    reviews,
    rooms,
    seats,
    tournaments,
    web,
)
from .runtime import gevent_offload, gevent_patched, gevent_settle, run_sweeper
from .schemas import ErrorSchema, describe
from .schemas.document import RefusedBeforeTheApp
from .services import Services, services_of
from .services import install as install_services
from .waits import install_waits, install_writes_first
from .write_turns import WriteTurns, WriteTurnTiming, install_write_turns

API_TITLE = "Tien Len Game Server"
API_VERSION = "1.0.0"
API_DESCRIPTION = """A stateless REST server for Tiến Lên (Thirteen), the Vietnamese climbing card game.

Create a match with remote, bot or open seats; each remote seat gets a bearer
token. Cards use the notation `3S`, `10D`, `QH`, `2C` (input also accepts `T`,
lower case and ♠♣♦♥); output is canonical, every hand sorted low to high.
Every error is `{code, status, message, reason}` with a machine-readable
`reason`; a refused request changes nothing.
"""

RETRY_WAIT_S = 2  # Retry-After of a refused wait
LOCATIONS = frozenset({"json", "query", "headers", "form", "files", "path", "cookies"})  # webargs' locations
REDIRECT_REASON = "moved_permanently"


class WireJSON(DefaultJSONProvider):
    """Answers written by :mod:`tienlen.wire` (orjson): compact UTF-8, keys in the order the schema wrote them."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """JSON text of ``obj``."""
        return wire.dumps(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON answer of one value (as :func:`flask.jsonify` is called by flask-smorest and the error handler)."""
        value = self._prepare_response_obj(args, kwargs)
        try:
            text = wire.dumps(value)
        except TypeError:  # field errors of a list are keyed by number
            text = wire.dumps_keyed(value)
        answer: Response = self._app.response_class(text, mimetype="application/json")  # type: ignore[arg-type, assignment]
        return answer


class TienLenFlask(Flask):
    """Flask whose every answer is in the API's shape, and that remembers which view layers are plain functions.

    flask-smorest wraps a view once per decorator and every layer asks
    ``ensure_sync`` whether its function is a coroutine, which costs an
    ``inspect`` call per layer on every request; the answer never changes.
    Routing answers are JSON too: a redirect (308, e.g. a doubled slash) in
    the error shape with its ``Location``, and ``OPTIONS`` a 204 with ``Allow``.
    """

    json_provider_class = WireJSON

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: set[Callable[..., Any]] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """``func`` itself when it is a plain function (remembered), else Flask's async wrapper."""
        key = getattr(func, "__func__", func)  # bound methods are new objects on every request
        if key in self._plain:
            return func
        wrapped = super().ensure_sync(func)
        if wrapped is func and len(self._plain) < 4096:
            self._plain.add(key)
        return wrapped

    def handle_http_exception(self, e: HTTPException) -> Any:
        """Flask's handling, except that a routing redirect answers in the error shape (Flask sends werkzeug's HTML)."""
        if isinstance(e, RequestRedirect):
            body, status = error_body(REDIRECT_REASON, f"this resource is at {e.new_url}")
            answer = self.json.response(body)
            answer.status_code = status
            answer.headers["Location"] = e.new_url
            return answer
        return super().handle_http_exception(e)

    def make_default_options_response(self) -> Response:
        """``OPTIONS`` of a route: 204 and the methods it allows (no body; CORS preflights are flask-cors')."""
        allowed = super().make_default_options_response().headers.get("Allow", "")
        answer = self.response_class(status=204, headers={"Allow": allowed})
        del answer.headers["Content-Type"]
        return answer


class TienLenApi(Api):  # type: ignore[misc]
    """flask-smorest's Api with errors that always carry a ``reason``, whose views are documented when the
    document is first read.

    flask-smorest documents a blueprint's views as it registers them: apispec
    turns every schema into JSON Schema, three quarters of making an app, and
    most apps (a worker that is never asked for ``/openapi.json``, a test's)
    never read the document. Here :meth:`register_blueprint` routes the views
    at once and documents them, in the same order, the first time ``spec`` is
    read: the same document, built once, by one thread.
    """

    ERROR_SCHEMA = ErrorSchema

    def __init__(self, app: Flask) -> None:
        self._undocumented: list[tuple[Any, str, Any]] = []  # (blueprint, its name, its url prefix's parameters)
        self._documenting = threading.RLock()
        self._spec: Any = None
        super().__init__(app)

    @property
    def spec(self) -> Any:
        """The OpenAPI document (apispec's ``APISpec``), every registered view documented in it."""
        if self._undocumented:
            self._document_views()
        return self._spec

    @spec.setter
    def spec(self, value: Any) -> None:
        self._spec = value

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """Route the blueprint's views now (as flask-smorest does); document them when the document is read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        with self._documenting:
            self._undocumented.append((blp, name, parameters))

    def _document_views(self) -> None:
        """Document the registered views not yet in the document, in their order (flask-smorest's own steps).

        A blueprint leaves the list only once it is in the document, so another thread reading ``spec`` meanwhile
        waits here for the whole document.
        """
        with self._documenting:
            while self._undocumented:
                blp, name, parameters = self._undocumented[0]
                blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
                self._spec.tag({"name": name, "description": blp.description})
                self._undocumented.pop(0)

    def handle_http_exception(self, error: HTTPException) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Every HTTP error as ``{code, status, message, reason[, errors]}``."""
        code = error.code or 500
        data = getattr(error, "data", None) or {}
        payload: dict[str, Any] = {
            "code": code,
            "status": error.name,
            "message": data.get("message") or error.description or error.name,
            "reason": data.get("reason") or DEFAULT_REASONS.get(code, FALLBACK_REASON),
        }
        errors = data.get("errors") or data.get("messages")
        if errors:
            payload["errors"] = errors
            if code == 422 and "message" not in data:
                payload["message"] = "the request does not match the schema: " + _summary(errors)
            if code == 400 and "message" not in data:
                payload["message"] = "the body is not valid JSON"
        if code == 413 and "message" not in data:
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            payload["message"] = f"the body is larger than the {limit} bytes this server reads (TIENLEN_MAX_BODY)"
        # Werkzeug's own headers first (``Allow`` on a 405), then any the error set.
        headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
        return payload, code, headers | (data.get("headers") or {})


def _summary(errors: Any) -> str:
    """Field errors as a person reads them: ``seats.0.name: Missing data for required field.; ...`` (webargs'
    location, ``json`` or ``query``, left out)."""
    found: list[str] = []

    def walk(path: list[str], node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk([*path, str(key)], value)
        elif isinstance(node, list) and all(isinstance(item, str) for item in node):
            where = ".".join(part for part in path if part != "_schema") or "body"
            found.append(f"{where}: {' '.join(node)}")
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk([*path, str(index)], item)
        else:
            found.append(f"{'.'.join(path) or 'body'}: {node}")

    located = errors if not (isinstance(errors, dict) and set(errors) <= LOCATIONS) else None
    if located is None:
        for location in errors.values():
            walk([], location)
    else:
        walk([], located)
    text = "; ".join(found)
    return text if len(text) <= 300 else text[:297] + "..."


def store_options(settings: Settings, cooperative: bool) -> StoreOptions:
    """How the settings open the store (``cooperative``: the worker runs requests as gevent greenlets)."""
    return StoreOptions(
        settings.redis_options(cooperative),
        Lifetimes(settings.match_ttl_s, settings.waiting_ttl_s, settings.finished_ttl_s),
        settings.max_waiters,
    )


def refusal(settings: Settings) -> str | None:
    """Why the store cannot keep what the settings ask (``TIENLEN_DURABILITY=fsync`` on a Redis before 7.2), or
    None; ``tienlen serve`` asks once before it starts and refuses to start with the answer."""
    return store_refusal(settings.store, store_options(settings, cooperative=False))


def create_app(config: Settings | Mapping[str, Any] | None = None) -> Flask:
    """Build the app: with ``config`` (Settings), or the environment's with ``config`` over it (``TIENLEN_*``)."""
    settings = Settings.of(config)
    app = TienLenFlask("tienlen")
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=web.SWAGGER_UI_URL,  # Swagger UI's files from this server: /docs works offline
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},  # no badge fetched from another host
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION, "license": {"name": "MIT", "identifier": "MIT"}},
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        },
        MAX_CONTENT_LENGTH=settings.max_body,
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    cooperative = gevent_patched()
    store = open_store(settings.store, store_options(settings, cooperative))
    turns: WriteTurns | None = None
    offload: Offload | None = None
    if cooperative:  # gevent: bots think in a real thread; writes take turns while somebody waits here
        offload = gevent_offload
        if settings.writes_at_once:
            turns = WriteTurns(settings.writes_at_once, gevent_settle, lambda: store.waiters > 0)
            offload = turns.lending(gevent_offload)
    game = MatchServices.on(
        store,
        settings.bot_budget_s,
        offload,
        anonymous_hosting=settings.anonymous_hosting,
        history_days=settings.history_days,
        queue_fill_s=settings.queue_fill_s,
        queue_turn_s=settings.queue_turn_s,
        challenge_expiry_s=settings.challenge_expiry_s,
        max_challenges=(settings.max_challenges_sent, settings.max_challenges_received),
    )
    api = TienLenApi(app)
    describe(api)  # oneOf, const, servers and the rest of the contract that apispec does not write by itself
    api.spec.plugins.append(WriteTurnTiming())  # Server-Timing on every write's answers
    api.spec.plugins.append(RefusedBeforeTheApp())  # after it: what gunicorn refuses never waited for a turn
    blueprints = (matches.blp, rooms.blp, seats.blp, events.blp, meta.blp, *accounts.blueprints, players.blp, queue.blp)
    talk = (*chat.blueprints, *moderation.blueprints)
    for blueprint in (
        *blueprints,
        challenges.blp,
        *rated.blueprints,
        *inbox.blueprints,
        friends.blp,
        puzzles.blp,
        live.blp,
        *talk,
        tournaments.blp,
        lesson.blp,
        reviews.blp,
    ):
        api.register_blueprint(blueprint)
    breaker = Breaker()  # open for a moment after a Redis call failed: the limiter then answers 503 at once
    if turns is not None:
        install_write_turns(app, turns)  # before the limits wrap the views: a refused request waits for nothing
    accounts_service = AccountService(
        store.accounts(), settings.session_days * 24 * 3600, game.core.history, max_tokens=settings.max_tokens
    )
    held = Services(
        game=game,
        accounts=accounts_service,
        inbox=InboxService(store, game.core.history.rated, game.core.now),
        friends=FriendsService(store, game.core.history.rated, game.core.now),
        puzzles=PuzzleService(store),
        settings=settings,
        breaker=breaker,
        document=api,
        limiter=install_limits(app, settings, store, breaker),
    )
    install_services(app, held)
    web.register(app)  # the browser table at / and /m/<match_id>, Swagger UI's files
    _install_error_handlers(app, api, breaker)
    install_logs(app, settings)  # the tienlen loggers in the settings' format, and a line per request
    install_headers(app)
    install_waits(app, settings, store)  # each request's caps on waiting (per account, per address)
    install_writes_first(app, store)  # a process's waiting clients are woken after its writes are answered
    install_metrics(app)  # GET /metrics
    web.install_cors(app, settings.cors_origins)  # last: a page elsewhere may read every header the document has
    trust_proxies(app, settings.trusted_proxies)
    return app


def trust_proxies(app: Flask, hops: int) -> None:
    """Believe the ``X-Forwarded-For``, ``-Proto`` and ``-Host`` of the ``hops`` proxies in front of the server
    (werkzeug's ``ProxyFix``): the client's address is then the one they forwarded, for every per-address count.

    With 0 (the default) the headers are ignored and the client is the peer:
    anyone may send them, so believing them without a proxy would let a
    client pick its own address.
    """
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]


def challenge(reason: str) -> dict[str, str]:
    """The ``WWW-Authenticate`` header of a 401 (RFC 6750): a seat's or an account's bearer token is what this call
    takes."""
    if REASON_STATUS.get(reason) != 401:
        return {}
    sent = bool(request.headers.get("Authorization"))
    return {"WWW-Authenticate": 'Bearer realm="tienlen"' + (', error="invalid_token"' if sent else "")}


def _install_error_handlers(app: Flask, api: TienLenApi, breaker: Breaker) -> None:
    """Every refusal of the service and the engine answers its reason's status, in the one error shape.

    A store that did not answer also opens ``breaker``.
    """

    def refused(error: ServiceError | IllegalActionError) -> tuple[dict[str, Any], int, dict[str, str]]:
        errors = error.errors if isinstance(error, ServiceError) else None
        body, status = error_body(error.reason, str(error), errors)
        if isinstance(error, Throttled):
            return body, status, {"Retry-After": str(error.retry_after_s)}
        return body, status, challenge(error.reason)

    def store_down(error: StoreUnavailableError) -> tuple[dict[str, Any], int]:
        if not isinstance(error, BreakerOpenError):
            breaker.trip()
        return error_body("store_unavailable", "the store does not answer; nothing was changed")

    def outcome_unknown(error: OutcomeUnknownError) -> tuple[dict[str, Any], int]:
        breaker.trip()
        message = (
            "the store did not confirm the write, which may have been applied:"
            " retry with the same Idempotency-Key, or read the match"
        )
        return error_body("outcome_unknown", message)

    def too_many_waiters(error: TooManyWaitersError) -> tuple[dict[str, Any], int, dict[str, str]]:
        body, status = error_body("too_many_waiters", f"{error}; try again shortly or on another server")
        return body, status, {"Retry-After": str(RETRY_WAIT_S)}

    def unexpected(error: Exception) -> tuple[dict[str, Any], int, dict[str, str]]:
        rule = request.url_rule.rule if request.url_rule is not None else request.path
        log_unhandled(f"{request.method} {rule}", type(error), error, error.__traceback__)  # frames, never locals
        return api.handle_http_exception(InternalServerError())

    app.register_error_handler(ServiceError, refused)
    app.register_error_handler(IllegalActionError, refused)
    app.register_error_handler(StoreUnavailableError, store_down)
    app.register_error_handler(OutcomeUnknownError, outcome_unknown)
    app.register_error_handler(TooManyWaitersError, too_many_waiters)
    app.register_error_handler(Exception, unexpected)


def start_sweeper(app: Flask) -> None:
    """Apply this app's turn clocks as they run out, from a background loop (``tienlen serve`` starts one a worker).

    A sweep that Redis failed is counted in ``tienlen_redis_errors_total`` (and logged; the loop goes on),
    as is each timeout it handed on that Redis failed.
    """
    service = services_of(app).game
    stopped = services_of(app).sweeper

    def counted(task: Callable[[], object]) -> object:
        try:
            return task()
        except StoreUnavailableError as error:
            count_store_error(error)
            raise

    def sweep(*, dispatch: Callable[[Callable[[], object]], object]) -> int:
        done = counted(lambda: service.sweep(dispatch=lambda task: dispatch(lambda: counted(task))))
        assert isinstance(done, int)
        return done

    run_sweeper(sweep, stopped)


def shutdown(app: Flask) -> None:
    """The server is stopping: end every stream and long poll of this process at once, stop sweeping."""
    held = services_of(app)
    held.sweeper.set()
    held.game.core.store.close()


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of API v1 (needs no Redis)."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    spec: dict[str, Any] = services_of(app).document.spec.to_dict()
    return spec
