"""A hand's cards shown once it is over: the ``hand_shown`` event after each ``hand_ended``, and each completed
hand's deal in the public match.

While a hand is played nobody but its seat sees a card of it (the public match and events hold only counts and
what was played); once it ended, every seat's cards as dealt for it are public, so spectators and replays may
show them. Nothing here reads the hand in play.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Event, HandEnded
from ..events import HandShown
from ..replay import hand_deal
from ..store.records import MatchRecord


def dealt(record: MatchRecord, number: int) -> tuple[int, ...]:
    """Each seat's cards (masks) as dealt for hand ``number`` of the match (a hand that was dealt)."""
    engine = record.engine
    assert engine is not None
    return tuple(hand_deal(record.rules, number, record.deal, engine.deal_seed, engine.fair))


def completed_deals(record: MatchRecord) -> tuple[tuple[int, ...], ...]:
    """The deal of every completed hand, in order (none while the first hand is played)."""
    engine = record.engine
    if engine is None:
        return ()
    return tuple(dealt(record, hand.hand_number) for hand in engine.completed)


def with_hands_shown(record: MatchRecord, events: Sequence[Event]) -> list[Event]:
    """``events`` with a :class:`HandShown` right after each :class:`HandEnded` (the hand's deal, now public)."""
    if not any(isinstance(event, HandEnded) for event in events):
        return list(events)
    shown: list[Event] = []
    for event in events:
        shown.append(event)
        if isinstance(event, HandEnded):
            shown.append(HandShown(event.hand_number, dealt(record, event.hand_number)))
    return shown
