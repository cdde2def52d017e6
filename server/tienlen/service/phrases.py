"""The chat's quick phrases: a fixed list, each with its words in every language of the table (en, vi).

A message may be one of them (``{"phrase": "good_game"}``) instead of a text: a phone taps it, and each reader
shows it in its own language. ``GET /v1/rules`` serves the list (``chat_phrases``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

LANGUAGES = ("en", "vi")
"""The languages of the table (the web table's words.js has the same two)."""


@dataclass(frozen=True, slots=True)
class Phrase:
    """A quick phrase: its id and its words by language (every one of :data:`LANGUAGES`)."""

    id: str
    text: MappingProxyType[str, str]


def _phrase(phrase_id: str, en: str, vi: str) -> Phrase:
    return Phrase(phrase_id, MappingProxyType({"en": en, "vi": vi}))


CHAT_PHRASES: tuple[Phrase, ...] = (
    _phrase("hello", "Hello!", "Xin chào!"),
    _phrase("good_luck", "Good luck!", "Chúc may mắn!"),
    _phrase("good_game", "Good game", "Ván hay"),
    _phrase("well_played", "Well played!", "Đánh hay lắm!"),
    _phrase("nice_bomb", "Nice bomb!", "Chặt đẹp!"),
    _phrase("hurry_up", "Hurry up, please", "Nhanh lên nào"),
    _phrase("thanks", "Thanks!", "Cảm ơn!"),
    _phrase("oops", "Oops!", "Ối!"),
    _phrase("sorry", "Sorry!", "Xin lỗi!"),
    _phrase("rematch", "Rematch?", "Chơi lại không?"),
    _phrase("bye", "Bye!", "Tạm biệt!"),
)
"""Every quick phrase, in the order a table offers them."""

PHRASES_BY_ID: MappingProxyType[str, Phrase] = MappingProxyType({p.id: p for p in CHAT_PHRASES})
"""Each quick phrase by its id."""
