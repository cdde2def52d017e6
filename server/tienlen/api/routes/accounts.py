"""Accounts, sessions and personal tokens: players who come back (``/v1/accounts``, ``/v1/sessions``, ``/v1/me``).

An account's token (a session's from a login, or a personal one) is sent as
``Authorization: Bearer <token>``. Seat tokens of matches are not account
tokens, and matches do not know accounts yet.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...service.accounts import (
    Account,
    AccountService,
    IssuedToken,
    PersonalToken,
    Registered,
    Session,
)
from ..schemas.accounts import (
    AccountSchema,
    ConfirmSchema,
    CreateAccountSchema,
    CreateTokenSchema,
    IssuedTokenSchema,
    LoginSchema,
    PersonalTokenSchema,
    RegisteredSchema,
    SessionSchema,
)
from ..services import services
from .common import (
    AUTH,
    PER_ACCOUNT,
    PER_ADDRESS,
    Blueprint,
    bearer_token,
    client_address,
    errors,
    limited,
    with_retry_after,
)

BODY_REASONS = ("bad_request", "payload_too_large", "unsupported_media_type", "invalid_request")
TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")

accounts = Blueprint("accounts", __name__, url_prefix="/v1/accounts", description="Accounts of players and bots")
sessions = Blueprint("sessions", __name__, url_prefix="/v1/sessions", description="Logging in and out")
me = Blueprint(
    "me",
    __name__,
    url_prefix="/v1/me",
    description="The account of the token sent, and its personal API tokens (`Authorization: Bearer <token>`)",
)
blueprints = (accounts, sessions, me)


def account_service() -> AccountService:
    """The account service of the running app."""
    return services().accounts


@accounts.route("")
class Accounts(MethodView):
    """Making an account."""

    @limited("account", PER_ADDRESS)
    @accounts.arguments(CreateAccountSchema())
    @accounts.response(201, RegisteredSchema)
    @accounts.doc(operationId="create_account", responses=errors(*BODY_REASONS, "name_taken", "store_unavailable"))
    def post(self, body: dict[str, Any]) -> Registered:
        """Make an account and log in: answers the account and a session token (shown once).

        A name is 3 to 20 of `A-Z a-z 0-9 _ -`, unique ignoring case: a name
        that differs from another's only in case, a house bot's name (its
        level: `easy`, `medium`, `hard`, in any case) or the name of a deleted
        account answers 409 `name_taken`. A password is 8 to 128 characters
        (422 `invalid_request` otherwise), kept only as its Argon2id hash.
        """
        service = account_service()
        return service.register(body["name"], body["password"], body["kind"])


@sessions.route("")
class Sessions(MethodView):
    """Logging in."""

    @limited("login", PER_ADDRESS)
    @sessions.arguments(LoginSchema())
    @sessions.response(201, SessionSchema)
    @sessions.doc(
        operationId="login",
        responses=errors(*BODY_REASONS, "invalid_credentials", "store_unavailable"),
    )
    def post(self, body: dict[str, Any]) -> Session:
        """Log in: a new session token with both scopes (`play`, `account`), for `TIENLEN_SESSION_DAYS` days.

        A wrong name and a wrong password answer the same 401
        `invalid_credentials`, in about the same time. Failed logins are
        counted for 15 minutes per name and per client address: after 10 for
        one name or 30 from one address, a login (or an account's deletion) is
        refused with 429 `rate_limited` and `Retry-After` until the window
        ends, whatever the password.
        """
        return account_service().login(body["name"], body["password"], client_address())


@sessions.route("/current")
class CurrentSession(MethodView):
    """Logging out."""

    @sessions.response(204)
    @sessions.doc(
        security=AUTH, operationId="logout", responses=errors("invalid_request", "invalid_token", "store_unavailable")
    )
    def delete(self) -> None:
        """Log out: the session token sent stops working at once (a personal token answers 422 `invalid_request`)."""
        account_service().logout(bearer_token())


@me.route("")
class Me(MethodView):
    """The account of the token sent."""

    @me.response(200, AccountSchema)
    @me.doc(security=AUTH, operationId="get_me", responses=errors("invalid_token", "store_unavailable"))
    def get(self) -> Account:
        """The account the token sent acts for (a token of any scope)."""
        return account_service().me(bearer_token())

    @me.arguments(ConfirmSchema())
    @me.response(204)
    @me.doc(
        security=AUTH,
        operationId="delete_account",
        responses=with_retry_after(
            errors(*BODY_REASONS, "invalid_credentials", *TOKEN_REASONS, "rate_limited"), "rate_limited"
        ),
    )
    def delete(self, body: dict[str, Any]) -> None:
        """Delete the account (scope `account`), its password confirmed: its password hash and every token go.

        The name stays closed (409 `name_taken` to a new account), so nobody can
        take a name others knew. A wrong password answers 401 `invalid_credentials`
        and counts as a failed login.
        """
        account_service().delete(bearer_token(), body["password"], client_address())


@me.route("/tokens")
class Tokens(MethodView):
    """Personal API tokens."""

    @limited("token", PER_ACCOUNT)
    @me.arguments(CreateTokenSchema())
    @me.response(201, IssuedTokenSchema)
    @me.doc(
        security=AUTH, operationId="create_token", responses=errors(*BODY_REASONS, "too_many_tokens", *TOKEN_REASONS)
    )
    def post(self, body: dict[str, Any]) -> IssuedToken:
        """Make a personal API token (scope `account`) with the scopes asked; its secret is shown only here.

        It works until revoked. An account holds at most `TIENLEN_MAX_TOKENS`
        (50) at once: one more answers 409 `too_many_tokens` (revoke one first).
        """
        return account_service().create_token(bearer_token(), body["label"], body["scopes"])

    @me.response(200, PersonalTokenSchema(many=True))
    @me.doc(security=AUTH, operationId="list_tokens", responses=errors(*TOKEN_REASONS))
    def get(self) -> list[PersonalToken]:
        """The account's personal tokens (scope `account`), oldest first, without their secrets."""
        return account_service().tokens(bearer_token())


@me.route("/tokens/<string:token_id>")
class TokenResource(MethodView):
    """One personal API token."""

    @me.response(204)
    @me.doc(security=AUTH, operationId="revoke_token", responses=errors("token_not_found", *TOKEN_REASONS))
    def delete(self, token_id: str) -> None:
        """Revoke a personal token (scope `account`): it answers 401 `invalid_token` from now on."""
        account_service().revoke_token(bearer_token(), token_id)
