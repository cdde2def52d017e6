"""What a chat store is: who an account mutes and blocks, reports for moderators, moderators' mutes and audit
list, and the chat kept beside a kept match.

The service is written against :class:`ChatStore`; :mod:`.redis_chat` keeps it in Redis. A match's live chat is
its events (``chat_said``), kept with the match like every event.
"""

from __future__ import annotations

from typing import Any, Protocol

MUTED, BLOCKED = "muted", "blocked"
"""The two lists an account keeps of other accounts."""


class ChatStore(Protocol):
    """Mute and block lists, reports, moderators' mutes and audit list, kept matches' chat."""

    def listed(self, account_id: str, kind: str) -> list[str]:
        """The accounts on the account's ``kind`` list (:data:`MUTED`, :data:`BLOCKED`), first put there first."""
        ...

    def put(self, account_id: str, kind: str, other_id: str, at: float) -> None:
        """Put ``other_id`` on the account's ``kind`` list (again: unchanged); a block is noted on ``other_id`` too."""
        ...

    def take(self, account_id: str, kind: str, other_id: str) -> None:
        """Take ``other_id`` off the account's ``kind`` list (not there: nothing)."""
        ...

    def hidden(self, account_id: str) -> set[str]:
        """The accounts whose chat the account does not read: it mutes or blocks them, or they block it."""
        ...

    def blocks(self, account_id: str, other_id: str) -> bool:
        """Whether either of the two accounts blocks the other."""
        ...

    def forget(self, account_id: str) -> None:
        """An erased account: its lists go, and it leaves the block lists of others."""
        ...

    # ----- reports ------------------------------------------------------------------------------

    def report(self, report_id: str, report: dict[str, Any], at: float) -> bool:
        """Keep a report under its id (match, message, reporter) unless one is kept there already (False then)."""
        ...

    def reports(self, offset: int, count: int) -> list[dict[str, Any]]:
        """Open reports, oldest first: ``count`` of them after the first ``offset``, each with its ``id``."""
        ...

    def dismiss_report(self, report_id: str) -> dict[str, Any] | None:
        """Close the open report of that id, keeping its record (its reporter cannot report the message again);
        the report (empty when its record is gone), or None when no report is open under that id."""
        ...

    def close_reports(self, prefix: str) -> int:
        """Close (forget) every open report whose id starts with ``prefix``; how many."""
        ...

    # ----- moderators ---------------------------------------------------------------------------

    def mute_chat(self, account_id: str, until: float) -> None:
        """A moderator's mute: the account cannot chat until ``until`` (epoch seconds)."""
        ...

    def lift_chat_mute(self, account_id: str) -> bool:
        """Lift a moderator's mute; whether there was one."""
        ...

    def chat_muted_until(self, account_id: str) -> float | None:
        """When a moderator's mute of the account ends; None when it has none."""
        ...

    def audit(self, entry: dict[str, Any]) -> None:
        """Add a moderator's act to the audit list, which keeps the newest acts only (a bound of the store's)."""
        ...

    def audit_page(self, offset: int, count: int) -> list[dict[str, Any]]:
        """Moderators' acts, newest first: ``count`` of them after the first ``offset``."""
        ...

    # ----- the chat of a kept match -------------------------------------------------------------

    def keep_chat(self, match_id: str, messages: list[dict[str, Any]]) -> bool:
        """Keep these ``chat_said`` events (by ``seq``, again: replaced) beside the match's kept record, for as
        long as it is kept; False (nothing kept) when no record of the match is kept."""
        ...

    def kept_chat(self, match_id: str) -> list[dict[str, Any]]:
        """The chat kept beside a kept match, oldest first (none: empty)."""
        ...
