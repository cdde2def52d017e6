"""Reading a JSON request body so that every bad body is a 4xx with a reason, never a 500.

flask-smorest reads bodies with webargs, which on its own would answer a
body of another media type as if it were missing (422 ``invalid_request``)
and let Python's JSON decoder raise on input it cannot represent (a body
nested ~1,000 levels deep, an integer of more than 4,300 digits), which
became a 500. :class:`JsonBodyParser` refuses each of these up front:

- a body sent as another media type (``text/plain``, a form, no
  ``Content-Type`` at all): 415 ``unsupported_media_type``;
- a body larger than ``TIENLEN_MAX_BODY``, with a ``Content-Length`` or sent
  chunked without one: 413 ``payload_too_large`` (werkzeug enforces the limit
  while the body is read);
- text that is not JSON: 400 ``bad_request``;
- JSON nested deeper than :data:`MAX_DEPTH`, or a number the decoder will
  not turn into an integer: 422 ``invalid_request``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import flask
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from ..service import InvalidRequest

MAX_DEPTH = 32  # the deepest request body of API v1 nests 4 levels (a deal: {"deal": [["3S"]]})
JSON_MEDIA_TYPES = "application/json (or another +json type)"
_STRING_OR_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class JsonBodyParser(FlaskParser):
    """webargs' Flask parser that refuses what it cannot read instead of failing on it."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        """The body as JSON, ``missing`` when there is none; raises the refusals in the module's docstring."""
        data = req.get_data(cache=True)  # 413 here when a Content-Length is over the limit
        if _chunked_over_limit(req, data):
            raise RequestEntityTooLarge(f"the body is larger than {req.max_content_length} bytes")
        if not is_json_request(req):
            if req.mimetype or data:
                raise UnsupportedMediaType(f"send the body as {JSON_MEDIA_TYPES}, not {req.mimetype or 'untyped'}")
            return core.missing
        return parse_json(data)


def _chunked_over_limit(req: flask.Request, data: bytes) -> bool:
    """Whether a body sent without a Content-Length went on past the limit.

    werkzeug stops reading such a body at the limit without a word, which
    would leave a truncated body to decode (400 instead of 413).
    """
    if req.content_length is not None:
        return False
    limit = req.max_content_length
    if limit is None or len(data) < limit:
        return False
    return bool(req.environ["wsgi.input"].read(1))


def parse_json(data: bytes) -> Any:
    """Decode a JSON body; ``json.JSONDecodeError`` (400) when it is not JSON, :class:`InvalidRequest` (422)
    when it nests deeper than :data:`MAX_DEPTH` or holds an integer too long to read."""
    if _too_deep(data):
        raise InvalidRequest(f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        return core.parse_json(data)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as error:  # ValueError: an integer of more than 4,300 digits
        raise InvalidRequest(f"the body holds a value that cannot be read: {error}") from None


def _too_deep(data: bytes) -> bool:
    """Whether arrays and objects nest more than :data:`MAX_DEPTH` levels deep (brackets inside strings aside)."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(data):
        found = token.group()
        if found in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif found in (b"]", b"}"):
            depth -= 1
    return False
