"""What a store raises: it did not answer, a write's outcome is unknown, too many waiters or waits."""

from __future__ import annotations


class StoreUnavailableError(RuntimeError):
    """The store did not answer; a write that raised it changed nothing."""


class OutcomeUnknownError(StoreUnavailableError):
    """A write was sent to the store but not confirmed: it may or may not have been applied."""


class TooManyWaitersError(RuntimeError):
    """This server already holds as many waiting clients (long polls and streams) as it may."""


class TooManyWaitsError(RuntimeError):
    """One account, or one client address, already holds as many waits (long polls and streams) as it may.

    ``kind`` is ``account`` or ``address``, ``most`` the cap (``TIENLEN_MAX_WAITERS_PER_ACCOUNT`` or ``..._ADDRESS``).
    """

    def __init__(self, kind: str, most: int) -> None:
        super().__init__(f"this {kind} already holds {most} long polls and streams, as many as it may at once")
        self.kind = kind
        self.most = most
