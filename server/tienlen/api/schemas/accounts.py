"""The bodies and answers of accounts, sessions and personal tokens."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...service.accounts import ACCOUNT_KINDS, ACCOUNT_NAME, ACCOUNT_NAME_RULE, SCOPES
from .common import TIME, Time, enum_field
from .dumping import AnswerSchema


def _account_name(name: str) -> None:
    """Refuse a name the account name rule does not match whole (``re.match`` with ``$`` let ``"hard\\n"`` in)."""
    if not ACCOUNT_NAME.fullmatch(name):
        raise ma.ValidationError(ACCOUNT_NAME_RULE)


PASSWORD = validate.Length(min=8, max=128)
ACCOUNT_TOKEN = (
    "An account's bearer token (a session's or a personal one), shown only here: keep it secret. "
    "Send it as `Authorization: Bearer <token>`"
)


def _name() -> fields.String:
    return fields.String(
        required=True,
        validate=_account_name,
        metadata={
            "description": "3 to 20 of `A-Z a-z 0-9 _ -` (the whole name), unique ignoring case and width",
            "pattern": "^[A-Za-z0-9_-]{3,20}$",
        },
    )


def _password() -> fields.String:
    return fields.String(
        required=True,
        validate=PASSWORD,
        load_only=True,
        metadata={"description": "8 to 128 characters; kept only as its Argon2id hash", "format": "password"},
    )


class CreateAccountSchema(ma.Schema):
    """Body of ``POST /v1/accounts``."""

    name = _name()
    password = _password()
    kind = enum_field("AccountKind", ACCOUNT_KINDS, metadata={"description": "A person, or a program"})


class LoginSchema(ma.Schema):
    """Body of ``POST /v1/sessions``."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=20))
    password = fields.String(required=True, validate=validate.Length(min=1, max=128), load_only=True)


class ConfirmSchema(ma.Schema):
    """Body of ``DELETE /v1/me``: the account's password, once more."""

    password = fields.String(required=True, validate=validate.Length(min=1, max=128), load_only=True)


class CreateTokenSchema(ma.Schema):
    """Body of ``POST /v1/me/tokens``."""

    label = fields.String(
        required=True, validate=validate.Length(min=1, max=60), metadata={"description": "What the token is for"}
    )
    scopes = fields.List(
        enum_field("Scope", SCOPES),
        required=True,
        validate=validate.Length(min=1, max=len(SCOPES)),
        metadata={"description": "`play`: act for the account's seats; `account`: manage the account and its tokens"},
    )


class AccountSchema(AnswerSchema):
    """An account."""

    name = fields.String(required=True)
    kind = enum_field("AccountKind", ACCOUNT_KINDS)
    created_at = Time(required=True, metadata=TIME)


class SessionSchema(AnswerSchema):
    """A session token, shown once, and when it stops working."""

    token = fields.String(required=True, metadata={"description": ACCOUNT_TOKEN})
    expires_at = Time(required=True, metadata=TIME)


class RegisteredSchema(SessionSchema):
    """Answer to ``POST /v1/accounts``: the account and its first session."""

    account = fields.Nested(AccountSchema, required=True)


class PersonalTokenSchema(AnswerSchema):
    """A personal API token, without its secret."""

    id = fields.String(required=True)
    label = fields.String(required=True)
    scopes = fields.List(enum_field("Scope", SCOPES), required=True)
    created_at = Time(required=True, metadata=TIME)


class IssuedTokenSchema(PersonalTokenSchema):
    """A new personal API token with its secret, shown only this once."""

    token = fields.String(required=True, metadata={"description": ACCOUNT_TOKEN})
