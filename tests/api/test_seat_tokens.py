"""Seat tokens: URL-safe, unguessable, and never beginning with '-' (bots take them as command-line arguments)."""

from __future__ import annotations

import base64
import random
import re

import pytest

from tienlen.service.lifecycle import rematch_token
from tienlen.store import new_token, token_text
from tienlen.store.records import TOKEN_BYTES

URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")
DRAWS = 3000  # a token began with '-' one time in 64: (63/64) ** 3000 < 1e-20 that none would


@pytest.mark.parametrize("first_byte", [0xF8, 0xF9, 0xFA, 0xFB])
def test_bytes_whose_text_would_begin_with_a_dash_begin_with_an_underscore(first_byte: int) -> None:
    """Rule: a leading '-' would read as an option to a bot's argument parser, so it becomes '_'; the rest is kept."""
    raw = bytes([first_byte]) + random.Random(first_byte).randbytes(TOKEN_BYTES - 1)
    plain = base64.urlsafe_b64encode(raw).decode()
    assert plain.startswith("-")
    text = token_text(raw)
    assert text == "_" + plain[1:]


def test_other_bytes_are_their_url_safe_text() -> None:
    raw = bytes(range(TOKEN_BYTES))
    assert token_text(raw) == base64.urlsafe_b64encode(raw).decode()


def test_fresh_tokens_are_url_safe_distinct_and_never_begin_with_a_dash() -> None:
    tokens = [new_token() for _ in range(DRAWS)]
    assert all(URL_SAFE.fullmatch(t) and len(t) == 32 for t in tokens)
    assert len(set(tokens)) == DRAWS
    assert not [t for t in tokens if t.startswith("-")]


def test_rematch_tokens_never_begin_with_a_dash_and_are_the_same_for_the_same_seat() -> None:
    rng = random.Random(5)
    derived = [rematch_token(new_token(), rng.randbytes(10).hex()) for _ in range(DRAWS)]
    assert all(URL_SAFE.fullmatch(t) and len(t) == 32 for t in derived)
    assert not [t for t in derived if t.startswith("-")]
    token, next_id = new_token(), "0123456789abcdef0123"
    assert rematch_token(token, next_id) == rematch_token(token, next_id)
