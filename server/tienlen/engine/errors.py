"""The engine's refusals: illegal actions and bad deals."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """A refused action; ``reason`` is one of the engine's refusal reasons."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class DealError(ValueError):
    """An explicit deal that breaks the deal rules (1..13 distinct cards a seat, none twice)."""

    reason = "invalid_deal"
