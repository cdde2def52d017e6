"""The players of ``bench/failover.py``: accounts playing one-hand matches against a bot, over HTTP, that write
down every write the server acknowledged, so that what a failover lost can be counted afterwards.

Each player thread makes an account, hosts matches with it (its seat against
an Easy bot), plays its lowest play (or passes) until the match ends, and
then reads its history once. The project's client retries a write that
answered 503 (``store_unavailable``, ``outcome_unknown``) or whose connection
failed, with the same ``Idempotency-Key``, so a call that returns was
acknowledged exactly once. Written down (:class:`Ledger`):

- each account the server said it made (201, or a retry's 409 followed by a
  working login);
- each action: the event it made is the next after the view it was chosen
  from (the bot answers inside the same write), so an action is (match, that
  event's number, seat, played cards or a pass);
- each finished match its account's history listed once (a kept match; read back, one missing is given the
  sweeper's time to keep it again, :data:`KEEP_SETTLE_S`, before it counts as lost);
- when every write was sent and answered, for the downtime.

:func:`missing` reads everything back through the server and answers what
is gone.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tienlen_client import ApiError, RetryPolicy

from http_players import FAILURES, Client, ErrorCount, choose_from_view
from tienlen.service.history import KEEP_AFTER_S, KEEP_LEASE_S

__all__ = ["PATIENT", "Acted", "Ledger", "Missing", "missing", "player"]

PASSWORD = "correct horse battery"
MATCHES_PER_ACCOUNT = 3
# A kept match its player saw listed may be missing for a while after a failover: the keep ran after the action's
# commit and its write can die with the primary (its confirmation was never given); the finishing action's own due
# mark, which was confirmed, has the sweeper keep it again within KEEP_AFTER_S, or KEEP_LEASE_S more when that keep
# fails too. So a kept match counts as lost only when it is still missing that long (and a sweep's margin) after its
# player saw it.
KEEP_SETTLE_S = KEEP_AFTER_S + KEEP_LEASE_S + 5.0
# Patient enough to ride out a failover (a few seconds): ~20 attempts, 0.1 s growing to 0.5 s apart.
PATIENT = RetryPolicy(attempts=40, backoff_s=0.1, max_backoff_s=0.5, max_retry_after_s=2.0)


@dataclass(frozen=True, slots=True)
class Acted:
    """An acknowledged action: the event it made in its match."""

    match_id: str
    seq: int
    seat: int
    kind: str  # "played" or "passed"
    cards: tuple[str, ...]
    answered: float  # time.monotonic() of its answer


@dataclass
class Ledger(ErrorCount):
    """What one player thread was told was written, and what went wrong."""

    accounts: list[tuple[str, float]] = field(default_factory=list)  # (name, answered)
    actions: list[Acted] = field(default_factory=list)
    kept: list[tuple[str, str, float]] = field(default_factory=list)  # (account name, match id, seen)
    writes: list[tuple[float, float]] = field(default_factory=list)  # (sent, answered) of every acknowledged write
    latencies_s: list[float] = field(default_factory=list)  # of the actions


def _sign_up(client: Client, name: str, ledger: Ledger) -> str:
    """Make the account ``name``; its session token (a retry that finds the name taken logs in instead)."""
    sent = time.monotonic()
    try:
        token = str(client.create_account(name, PASSWORD)["token"])
    except ApiError as error:
        if error.status != 409 or error.attempts == 1:
            raise
        token = str(client.login(name, PASSWORD)["token"])  # an earlier attempt made it
    answered = time.monotonic()
    ledger.accounts.append((name, answered))
    ledger.writes.append((sent, answered))
    return token


def _play_match(client: Client, name: str, token: str, seed: int, ledger: Ledger, stop: threading.Event) -> None:
    """Host a one-hand match against an Easy bot and play it out; list it once in the history when it ends."""
    sent = time.monotonic()
    seats = [{"name": name}, {"name": "Bot", "bot": "easy"}]
    created = client.create_match(seats, rules={"hands": 1}, seed=seed, token=token)
    ledger.writes.append((sent, time.monotonic()))
    match_id = str(created["match_id"])
    seat = client.seat(match_id, token)
    view: dict[str, Any] = seat.view()
    while view["status"] == "playing" and not stop.is_set():
        cards = choose_from_view(view)
        sent = time.monotonic()
        answer = seat.pass_turn() if cards is None else seat.play(cards)
        answered = time.monotonic()
        ledger.latencies_s.append(answered - sent)
        ledger.writes.append((sent, answered))
        kind = "passed" if cards is None else "played"
        ledger.actions.append(
            Acted(match_id, int(view["last_seq"]) + 1, int(view["seat"]), kind, tuple(cards or ()), answered)
        )
        view = answer
    if view["status"] == "finished":
        listed = {kept["match_id"] for kept in client.player_matches(name, limit=100)["matches"]}
        if match_id in listed:
            ledger.kept.append((name, match_id, time.monotonic()))


def player(base_url: str, index: int, ledger: Ledger, stop: threading.Event) -> None:
    """Make accounts and play their matches until ``stop``; errors are counted and the match given up."""
    with Client(base_url, timeout=10, retry=PATIENT) as client:
        account = 0
        while not stop.is_set():
            account += 1
            name = f"fo{index}n{account}t{int(time.time() * 1000) % 10**8}"
            try:
                token = _sign_up(client, name, ledger)
            except FAILURES as error:
                ledger.error(error)
                continue
            for match in range(MATCHES_PER_ACCOUNT):
                if stop.is_set():
                    break
                try:
                    _play_match(client, name, token, index * 1_000_000 + account * 10 + match, ledger, stop)
                except FAILURES as error:
                    ledger.error(error)


@dataclass
class Missing:
    """What was acknowledged but is gone: accounts (names), actions, kept matches ((name, match id))."""

    accounts: list[tuple[str, float]] = field(default_factory=list)
    actions: list[Acted] = field(default_factory=list)
    kept: list[tuple[str, str, float]] = field(default_factory=list)
    found: list[str] = field(default_factory=list)  # for the first few lost actions: what the match has instead
    kept_late: int = 0  # kept matches missing at the first read-back that the sweeper kept again (not lost)

    @property
    def total(self) -> int:
        """Every lost acknowledged write."""
        return len(self.accounts) + len(self.actions) + len(self.kept)

    def answered(self) -> list[float]:
        """When each lost write had been acknowledged (monotonic)."""
        return [t for _, t in self.accounts] + [a.answered for a in self.actions] + [t for _, _, t in self.kept]


def missing(base_url: str, ledgers: Iterable[Ledger]) -> Missing:
    """Read back every acknowledged account, action and kept match through the server; answer the gone ones."""
    gone = Missing()
    by_match: dict[str, list[Acted]] = defaultdict(list)
    kept_by_name: dict[str, list[tuple[str, str, float]]] = defaultdict(list)
    accounts: list[tuple[str, float]] = []
    for ledger in ledgers:
        accounts += ledger.accounts
        for acted in ledger.actions:
            by_match[acted.match_id].append(acted)
        for entry in ledger.kept:
            kept_by_name[entry[0]].append(entry)
    with Client(base_url, timeout=10, retry=PATIENT) as client:
        for name, answered in accounts:
            try:
                client.player(name)
            except ApiError as error:
                if error.status != 404:
                    raise
                gone.accounts.append((name, answered))
        for match_id, actions in by_match.items():
            events = {int(e["seq"]): e for e in _events(client, match_id)}
            for acted in actions:
                event = events.get(acted.seq)
                if (
                    event is None
                    or (event["type"], event.get("seat")) != (acted.kind, acted.seat)
                    or (acted.kind == "played" and tuple(event["cards"]) != acted.cards)
                ):
                    gone.actions.append(acted)
                    if len(gone.found) < 5:
                        gone.found.append(f"{acted} acknowledged; event {acted.seq} is {event} of {len(events)}")
        unlisted = _unlisted(client, kept_by_name)
        at_first = sum(map(len, unlisted.values()))
        settled_by = max((seen for entries in unlisted.values() for _, _, seen in entries), default=0.0) + KEEP_SETTLE_S
        while unlisted and time.monotonic() < settled_by:
            time.sleep(0.5)
            unlisted = _unlisted(client, unlisted)
        gone.kept += [entry for entries in unlisted.values() for entry in entries]
        gone.kept_late = at_first - len(gone.kept)
    return gone


def _unlisted(
    client: Client, kept_by_name: dict[str, list[tuple[str, str, float]]]
) -> dict[str, list[tuple[str, str, float]]]:
    """Of each account's kept matches, those its history does not list now."""
    unlisted: dict[str, list[tuple[str, str, float]]] = {}
    for name, entries in kept_by_name.items():
        try:
            listed = {kept["match_id"] for kept in client.all_player_matches(name)}
        except ApiError as error:
            if error.status != 404:
                raise
            listed = set()  # the account is gone, and its history with it
        if absent := [entry for entry in entries if entry[1] not in listed]:
            unlisted[name] = absent
    return unlisted


def _events(client: Client, match_id: str) -> list[dict[str, Any]]:
    """Every event of the match (an unknown match: none)."""
    found: list[dict[str, Any]] = []
    try:
        while True:
            page = client.events(match_id, after=len(found) and int(found[-1]["seq"]))
            if not page["events"]:
                return found
            found += page["events"]
    except ApiError as error:
        if error.status == 404:
            return found
        raise
