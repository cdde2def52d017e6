"""The chat's requests and answers: a message, a report, mute and block lists, the moderators' reports, mutes
and audit list, and the quick phrases of ``GET /v1/rules``."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate, validates_schema

from ...service.chat import ROOMS
from ...service.commands import Report, Say
from ...service.moderation import MAX_MUTE_MINUTES
from ...service.phrases import CHAT_PHRASES, LANGUAGES
from .common import Time, _unicode_text, enum_field
from .dumping import AnswerSchema

MAX_TEXT = 200
MAX_PAGE = 100
TEXT_RULE = (
    f"1 to {MAX_TEXT} characters once trimmed; no control, line-separator or bidi embedding/override/isolate characters"
)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_HIDDEN = "".join(
    f"\\u{c:04x}" for c in range(0x10000) if unicodedata.category(chr(c)) in ("Cc", "Zl", "Zp") or chr(c) in _BIDI
)
CHAT_TEXT = re.compile(f"^[^{_HIDDEN}]*$")


class ChatText(fields.String):
    """A message's or a report's text: trimmed, then 1 (0 for an optional ``why``) to 200 characters of Unicode
    text without control, line-separator or bidi-override characters (emoji and their joiners are welcome)."""

    def __init__(self, *, least: int = 1, **kwargs: Any) -> None:
        self.least = least
        metadata = {"description": TEXT_RULE, "maxLength": MAX_TEXT} | kwargs.pop("metadata", {})
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = str(super()._deserialize(value, attr, data, **kwargs)).strip()
        _unicode_text(text)
        if not self.least <= len(text) <= MAX_TEXT:
            raise ma.ValidationError(f"must be {self.least} to {MAX_TEXT} characters once trimmed")
        if CHAT_TEXT.fullmatch(text) is None:
            raise ma.ValidationError(TEXT_RULE)
        return text


class SaySchema(ma.Schema):
    """Body of a chat message (``POST /v1/matches/{match_id}/chat``): a ``text`` or a quick ``phrase``, not both."""

    room = enum_field("ChatRoom", list(ROOMS), required=True, metadata={"description": "`table` or `spectators`"})
    text = ChatText()
    phrase = fields.String(
        validate=validate.OneOf([p.id for p in CHAT_PHRASES]),
        metadata={"description": "A quick phrase's id (`GET /v1/rules` `chat_phrases`), instead of `text`"},
    )

    @validates_schema
    def one_of_text_or_phrase(self, data: dict[str, Any], **_: Any) -> None:
        """Exactly one of ``text`` and ``phrase``."""
        if ("text" in data) == ("phrase" in data):
            raise ma.ValidationError("send exactly one of 'text' and 'phrase'", "text")

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Say:
        """The message as the service takes it."""
        return Say(data["room"], data.get("text"), data.get("phrase"))


class ReportRequestSchema(ma.Schema):
    """Body of a report (``POST /v1/matches/{match_id}/chat/{seq}/report``)."""

    why = ChatText(least=0, metadata={"description": "Why, up to 200 characters (optional)"})

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Report:
        """The report as the service takes it."""
        return Report(data.get("why") or None)


class ChatFromSchema(AnswerSchema):
    """Who said a message."""

    name = fields.String(required=True, metadata={"description": "The seat's name, or the spectator account's"})
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null for a spectator"})
    account = fields.String(
        required=True, allow_none=True, metadata={"description": "The account's name; null for an anonymous seat"}
    )


class ChatMessageSchema(AnswerSchema):
    """A chat message: its number among the match's events, its room, who said it, what and when."""

    seq = fields.Integer(required=True, metadata={"description": "Its `seq` among the match's events"})
    room = enum_field("ChatRoom", list(ROOMS), required=True)
    from_ = fields.Nested(ChatFromSchema, required=True, data_key="from", attribute="from")
    text = fields.String(required=True, metadata={"description": "Empty once a moderator removed the message"})
    phrase = fields.String(required=True, allow_none=True, metadata={"description": "The quick phrase's id, or null"})
    at = Time(required=True)


class ChatSchema(AnswerSchema):
    """A match's chat as the reader may read it, oldest first."""

    messages = fields.List(fields.Nested(ChatMessageSchema), required=True)


class ReportSchema(AnswerSchema):
    """A report kept for the moderators."""

    match_id = fields.String(required=True)
    message = fields.Nested(ChatMessageSchema, required=True, metadata={"description": "The message as reported"})
    reporter = fields.String(required=True, metadata={"description": "The reporting account's name"})
    why = fields.String(required=True, allow_none=True)
    at = Time(required=True)


class OpenReportSchema(ReportSchema):
    """An open report as the moderators list it: the report and its id."""

    id = fields.String(
        required=True,
        metadata={"description": "The report's id: dismiss it with `DELETE /v1/moderation/reports/{report_id}`"},
    )


class NameListSchema(AnswerSchema):
    """Names of accounts, first listed first."""

    names = fields.List(fields.String(), required=True)


class PageQuerySchema(ma.Schema):
    """A page of a moderators' list."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.String(
        validate=validate.Regexp(r"^[0-9]{1,12}$"), metadata={"description": "`next_cursor` of the previous page"}
    )


NEXT_CURSOR = {"description": "Pass as `cursor` for the next page; null at the end"}


class ReportsPageSchema(AnswerSchema):
    """Open reports, oldest first."""

    reports = fields.List(fields.Nested(OpenReportSchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True, metadata=NEXT_CURSOR)


class ChatMuteRequestSchema(ma.Schema):
    """Body of a moderator's mute."""

    minutes = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_MUTE_MINUTES))


class ChatMuteSchema(AnswerSchema):
    """A moderator's mute: whose, and when it ends."""

    name = fields.String(required=True)
    until = Time(required=True)


class AuditActSchema(AnswerSchema):
    """A moderator's act: when, what, whom, and a short detail (never a message's text)."""

    at = Time(required=True)
    act = fields.String(
        required=True,
        metadata={
            "description": "message_removed, report_dismissed, chat_muted, chat_unmuted, account_closed, "
            "match_featured, match_unfeatured"
        },
    )
    target = fields.String(
        required=True,
        metadata={"description": "An account's name, a message `<match id>/<seq>`, a match id, or `live`"},
    )
    detail = fields.String(required=True)


class AuditPageSchema(AnswerSchema):
    """Moderators' acts, newest first."""

    acts = fields.List(fields.Nested(AuditActSchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True, metadata=NEXT_CURSOR)


class ChatPhraseSchema(AnswerSchema):
    """A quick phrase: its id and its words in every language of the table."""

    id = fields.String(required=True)
    text = fields.Dict(
        keys=fields.String(validate=validate.OneOf(LANGUAGES)),
        values=fields.String(),
        required=True,
        metadata={"description": "Its words by language: " + ", ".join(f"`{lang}`" for lang in LANGUAGES)},
    )


__all__ = [
    "AuditPageSchema",
    "ChatMessageSchema",
    "ChatMuteRequestSchema",
    "ChatMuteSchema",
    "ChatPhraseSchema",
    "ChatSchema",
    "NameListSchema",
    "OpenReportSchema",
    "PageQuerySchema",
    "ReportRequestSchema",
    "ReportSchema",
    "ReportsPageSchema",
    "SaySchema",
]
