"""What the request and answer schemas share: card text, names, the error shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ...engine import Kind

KINDS = [k.value for k in Kind]


def _unicode_text(value: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate such as ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ma.ValidationError("must be valid Unicode text (no lone surrogates)") from error


NAME_RULES: list[Callable[[Any], Any]] = [validate.Length(min=1, max=40), _unicode_text]
CARD = fields.String(metadata={"description": "A card in wire notation, e.g. 3S, 10D, QH, 2C", "example": "3S"})


class ErrorSchema(ma.Schema):
    """Every non-2xx answer."""

    code = fields.Integer(required=True, metadata={"description": "HTTP status code"})
    status = fields.String(required=True, metadata={"description": "HTTP status name"})
    message = fields.String(required=True, metadata={"description": "What went wrong, for people"})
    reason = fields.String(required=True, metadata={"description": "What went wrong, for programs"})
    errors = fields.Dict(metadata={"description": "Field details on validation failures"})


class Flag(fields.Boolean):
    """A JSON ``true`` or ``false``, nothing else (``1``, ``"yes"`` and ``null`` are refused).

    marshmallow's ``Boolean`` accepts ``1`` even with ``truthy={True}``, since ``1 == True``.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


MAX_SEQ = 2**63 - 1  # a stream entry id's sequence part is a 64-bit number in Redis
TIME = {"format": "date-time", "description": "RFC 3339, UTC"}
