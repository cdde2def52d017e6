"""What an account keeps of others for the chat: whom it mutes (their messages hidden from it) and whom it blocks
(no challenge between the two, neither reads the other's messages), by name, with a ``play`` token."""

from __future__ import annotations

from collections.abc import Callable

from ..store.accounts import AccountRecord, AccountStore
from ..store.chat import ChatStore
from .accounts import authorized
from .errors import InvalidRequest, PlayerNotFound


class ChatLists:
    """An account's mute and block lists (``kind``: :data:`~tienlen.store.chat.MUTED` or ``BLOCKED``)."""

    def __init__(self, accounts: AccountStore, store: ChatStore, now: Callable[[], float]) -> None:
        self.accounts = accounts
        self.store = store
        self.now = now

    def names(self, token: str | None, kind: str) -> list[str]:
        """The names on the list of the token's account, first put there first."""
        me = authorized(self.accounts, token, "play")
        found = (self.accounts.get(account_id) for account_id in self.store.listed(me.account_id, kind))
        return [account.name for account in found if account is not None]

    def put(self, token: str | None, kind: str, name: str) -> None:
        """Put the account named ``name`` on the list (idempotent); yourself is :class:`InvalidRequest`."""
        me, other = self._pair(token, name)
        if other.account_id == me.account_id:
            raise InvalidRequest(f"you cannot put yourself on your {kind} list", errors={"name": ["yourself"]})
        self.store.put(me.account_id, kind, other.account_id, self.now())

    def take(self, token: str | None, kind: str, name: str) -> None:
        """Take the account named ``name`` off the list (idempotent)."""
        me, other = self._pair(token, name)
        self.store.take(me.account_id, kind, other.account_id)

    def _pair(self, token: str | None, name: str) -> tuple[AccountRecord, AccountRecord]:
        me = authorized(self.accounts, token, "play")
        other = self.accounts.find(name)
        if other is None:
            raise PlayerNotFound(f"no player is named {name!r}")
        return me, other
