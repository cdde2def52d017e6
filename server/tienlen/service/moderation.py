"""What a moderator (the server's moderator token) does: reads reports and dismisses one, removes a chat message,
mutes an account's chat for a time, closes an account; every act is recorded in the audit list
(:meth:`Moderation.record`).

The audit list holds when, what, whom and a short detail: never a message's text or a token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..events import CHAT_SAID, ChatRemoved
from ..store.accounts import AccountRecord
from ..store.base import Loaded
from ..store.errors import StoreUnavailableError
from .chat import Chat, message_prefix
from .errors import MatchNotFound, MessageNotFound, PlayerNotFound, ReportNotFound
from .retry import LOST, Lost, attempts
from .watching import Watching
from .writer import Write, found

MAX_MUTE_MINUTES = 43200  # 30 days


@dataclass(frozen=True, slots=True)
class AuditPage:
    """Moderators' acts, newest first, and the cursor of the next page (None at the end)."""

    acts: list[dict[str, Any]]
    next_cursor: str | None


class Moderation:
    """The moderators' acts over the chat's use cases (:class:`~.chat.Chat`), the live table
    (:class:`~.watching.Watching`) and the accounts."""

    def __init__(self, chat: Chat, watching: Watching) -> None:
        self.chat = chat
        self.watching = watching
        self.core = chat.core
        self.store = chat.store

    def record(self, act: str, target: str, detail: str = "") -> None:
        """Record a moderator's act in the audit list: when, ``act``, its ``target`` (an account's name, a match,
        a message) and a short ``detail`` (never a message's text, nor a token)."""
        self.store.audit({"at": self.core.now(), "act": act, "target": target, "detail": detail})

    def feature(self, match_id: str) -> None:
        """Feature the match on the live table (:meth:`.Watching.feature`'s refusals), recorded in the audit."""
        self.watching.feature(match_id)
        self.record("match_featured", match_id)

    def unfeature(self) -> None:
        """Feature no match: the live table shows the best live match again; recorded in the audit."""
        self.watching.unfeature()
        self.record("match_unfeatured", "live")

    def audit(self, cursor: str | None, limit: int) -> AuditPage:
        """A page of the audit list, newest first (``cursor``: where the previous page ended)."""
        offset = int(cursor) if cursor and cursor.isdigit() else 0
        acts = self.store.audit_page(offset, limit + 1)
        more = len(acts) > limit
        return AuditPage(acts[:limit], str(offset + limit) if more else None)

    def reports(self, cursor: str | None, limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the open reports, oldest first, and the next page's cursor."""
        offset = int(cursor) if cursor and cursor.isdigit() else 0
        found_ = self.store.reports(offset, limit + 1)
        return found_[:limit], (str(offset + limit) if len(found_) > limit else None)

    def dismiss(self, report_id: str) -> None:
        """Dismiss the open report ``report_id`` and leave its message as it is (:class:`ReportNotFound` when no
        report is open under that id). The message's other reports stay open, and its reporter cannot report it
        again. Recorded in the audit as ``report_dismissed``: the message (``<match id>/<seq>``) and the reporter."""
        report = self.store.dismiss_report(report_id)
        if report is None:
            raise ReportNotFound(f"no open report {report_id!r}")
        match_id, seq, _ = report_id.rsplit(":", 2)
        self.record("report_dismissed", f"{match_id}/{seq}", f"reported by {report.get('reporter', '?')}")

    # ----- messages -----------------------------------------------------------------------------

    def remove(self, match_id: str, seq: int) -> None:
        """Remove chat message ``seq``: its text leaves the match's events and the kept chat, a ``chat_removed``
        follows it on the match, and its reports are closed. :class:`MessageNotFound` when there is none."""
        if self.core.store.load(match_id).record is None:
            self._remove_kept(match_id, seq)
        else:
            self.chat.message(match_id, seq)
            emptied = self._empty_in_events(match_id, seq)

            def change(loaded: Loaded) -> Write[None]:
                return Write(found(loaded, match_id), [ChatRemoved(seq)], lambda _: None)

            self.core.writer.write(match_id, change)
            if emptied is not None:
                self.store.keep_chat(match_id, [emptied])
        closed = self.store.close_reports(message_prefix(match_id, seq))
        self.record("message_removed", f"{match_id}/{seq}", f"reports closed: {closed}")

    def _empty_in_events(self, match_id: str, seq: int) -> dict[str, Any] | None:
        """Empty the message's text in the match's events (a compare-and-set on the record); the emptied event."""

        def once() -> dict[str, Any] | Lost | None:
            record = self.core.store.load(match_id).record
            if record is None:
                return None
            events = self.core.store.all_events(match_id)
            target = next((e for e in events if e["seq"] == seq and e["type"] == CHAT_SAID), None)
            if target is None:
                return None
            target["text"], target["phrase"] = "", None
            expected = record.version
            record.version += 1
            if self.core.history.kept.scrub(match_id, expected, record.to_json(), record.version, events):
                return target
            return LOST

        def exhausted() -> dict[str, Any] | None:
            raise StoreUnavailableError(f"the match {match_id} kept changing while a message was removed")

        return attempts(once, exhausted)

    def _remove_kept(self, match_id: str, seq: int) -> None:
        """Empty the message in the chat kept with a kept match (the live match is gone)."""
        kept = self.store.kept_chat(match_id)
        target = next((e for e in kept if e["seq"] == seq and e["text"]), None)
        if target is None:
            if not kept and self.core.history.kept.get(match_id) is None:
                raise MatchNotFound(f"no match {match_id!r}")
            raise MessageNotFound(f"no chat message {seq} in match {match_id!r}")
        self.store.keep_chat(match_id, [target | {"text": "", "phrase": None}])

    # ----- accounts -----------------------------------------------------------------------------

    def mute(self, name: str, minutes: int) -> float:
        """Mute the chat of the account named ``name`` for ``minutes``; when the mute ends."""
        account = self._account(name)
        until = self.core.now() + minutes * 60
        self.store.mute_chat(account.account_id, until)
        self.record("chat_muted", account.name, f"{minutes} minutes")
        return until

    def unmute(self, name: str) -> None:
        """Lift a moderator's mute of the account named ``name`` (none: nothing changes, still recorded)."""
        account = self._account(name)
        lifted = self.store.lift_chat_mute(account.account_id)
        self.record("chat_unmuted", account.name, "lifted" if lifted else "was not muted")

    def close(self, name: str, close_account: Callable[[AccountRecord], None]) -> None:
        """Close the account named ``name`` with ``close_account`` (its tokens revoked, no login again)."""
        account = self._account(name)
        close_account(account)
        self.record("account_closed", account.name)

    def _account(self, name: str) -> AccountRecord:
        account = self.core.accounts.find(name)
        if account is None:
            raise PlayerNotFound(f"no player is named {name!r}")
        return account
