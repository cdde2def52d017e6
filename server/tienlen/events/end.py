"""How a match ended, as one value with its cause: :class:`MatchEnd`.

A match ends in one of three ways: played out (``finished``: the engine's :class:`~tienlen.engine.Outcome` says
who won), ``abandoned`` (no remote seat was left; no winner) or ``cancelled`` (deleted while waiting for players).
A match record holds it as two things (the engine's outcome, and ``MatchRecord.ended``: ``"abandoned"`` or None);
:func:`match_end` reads them as one value and :func:`ended_text` writes what ``ended`` holds back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..engine import Outcome
from ..engine.events import Event, MatchEnded
from .table import MatchAbandoned, MatchCancelled


class EndCause(StrEnum):
    """Why a match ended."""

    FINISHED = "finished"  # played out: someone won (or several shared the win)
    ABANDONED = "abandoned"  # no remote seat was left to play it out: nobody won
    CANCELLED = "cancelled"  # deleted while waiting for players (it is gone)


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match ended: its cause, and who won when it was played out (``outcome``, None otherwise)."""

    cause: EndCause
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if (self.cause is EndCause.FINISHED) != (self.outcome is not None):
            raise ValueError("a match has an outcome exactly when it finished (was played out)")

    @classmethod
    def finished(cls, outcome: Outcome) -> MatchEnd:
        """A match played out with this outcome."""
        return cls(EndCause.FINISHED, outcome)

    @property
    def abandoned(self) -> bool:
        """Whether nobody was left to play the match out (no winner, no places)."""
        return self.cause is EndCause.ABANDONED

    @property
    def event(self) -> MatchEnded | MatchAbandoned | MatchCancelled:
        """The event that tells the match's followers it ended so."""
        if self.outcome is not None:
            return MatchEnded(self.outcome.winner, self.outcome.winners, self.outcome.scores)
        return MatchAbandoned() if self.cause is EndCause.ABANDONED else MatchCancelled()


ABANDONED = MatchEnd(EndCause.ABANDONED)
CANCELLED = MatchEnd(EndCause.CANCELLED)


def match_end(ended: str | None, outcome: Outcome | None) -> MatchEnd | None:
    """How a match ended, from its record's ``ended`` and its engine's outcome; None while it goes on (or waits).

    ``ended`` wins over an outcome (an abandoned match has none anyway). An unknown ``ended`` is a ValueError.
    """
    if ended is not None:
        return MatchEnd(EndCause(ended))
    return None if outcome is None else MatchEnd.finished(outcome)


def ended_text(end: MatchEnd | None) -> str | None:
    """What ``MatchRecord.ended`` holds for this end: its cause, but None for a match played out or going on
    (the engine holds the outcome)."""
    return None if end is None or end.cause is EndCause.FINISHED else end.cause.value


def end_of_event(event: Event) -> MatchEnd | None:
    """How a match ended, told by this event (``match_ended``, ``match_abandoned``, ``match_cancelled``); None when
    the event ends nothing."""
    if isinstance(event, MatchEnded):
        return MatchEnd.finished(Outcome(event.winners, event.scores))
    if isinstance(event, MatchAbandoned):
        return ABANDONED
    if isinstance(event, MatchCancelled):
        return CANCELLED
    return None
