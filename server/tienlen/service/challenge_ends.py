"""How a challenge ends: its match is dealt when the last challenged account accepts (:meth:`ChallengeEnds.start`),
or it closes (declined, withdrawn, expired: :meth:`ChallengeEnds.close`), and the sweeper expires those not
accepted in time (:meth:`ChallengeEnds.expire_due`). Sending and answering are :mod:`.challenges`.
"""

from __future__ import annotations

import secrets

from ..engine import resolve_rules
from ..events import ChallengeCancelled, ChallengeStarted
from ..store.challenges import CLOSED_KEPT_S, ChallengeRecord
from ..store.records import MatchRecord
from .challenge_states import challenge_seats, seats_of_accounts
from .core import Core

EXPIRY_SLACK_S = 0.001  # the due set counts whole milliseconds: a challenge may be found due up to 1 ms early
EXPIRE_BATCH = 64


class ChallengeEnds:
    """Starting and closing challenges, over the shared :class:`~.core.Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def close(self, record: ChallengeRecord, status: str, *, by: str | None, by_id: str | None) -> bool:
        """Close a pending challenge (declined, withdrawn, expired) and tell everyone else; False: the race was lost."""
        expected = record.version
        record.status, record.closed_at, record.version = status, self.core.now(), record.version + 1
        if status == "declined":
            record.declined_by = by
        challenges = self.core.store.challenges()
        if not challenges.save(record, expected, CLOSED_KEPT_S):
            return False
        challenges.release_pending(record)
        challenges.done_due(record.challenge_id)
        cancelled = ChallengeCancelled(record.challenge_id, status, by)
        self.core.notices.tell_many({account: [cancelled] for account in record.accounts() if account != by_id})
        return True

    def expire(self, record: ChallengeRecord) -> ChallengeRecord | None:
        """Expire a pending challenge past its time (everyone hears it); None when another change came first."""
        return record if self.close(record, "expired", by=None, by_id=None) else None

    def expire_due(self, limit: int = EXPIRE_BATCH) -> int:
        """Expire the pending challenges whose time ran out (the sweeper); how many this call expired.

        A challenge that started but whose match was not dealt (the process of its last acceptance stopped in
        between: its due entry is dropped only after the deal) gets its match dealt here.
        """
        challenges = self.core.store.challenges()
        now = self.core.now()
        done = 0
        for challenge_id in challenges.due(now, limit):
            record = challenges.load(challenge_id)
            if record is not None and record.status == "started":
                self.deal_owed(record)  # its last acceptance's process stopped before dealing it
            if record is None or record.status != "pending":
                challenges.done_due(challenge_id)
                continue
            if record.expires_at > now + EXPIRY_SLACK_S:
                continue
            done += self.expire(record) is not None  # lost the race: another change closed it, or the next sweep
        return done

    # ----- starting ------------------------------------------------------------------------------

    def deal_owed(self, record: ChallengeRecord) -> MatchRecord | None:
        """The started challenge's match, dealt here when it is owed; None when it is gone (ended and deleted).

        A match is owed while the challenge keeps its due entry, which its last acceptance drops only after
        dealing: between its start and its deal (a read in that moment must not find a started challenge
        without a match) or for good when that request's process stopped in between. The deal is made once
        whoever comes first (the match's id is the challenge's). A match found costs one read, as before; a
        match not found and no longer owed is read again (a deal may have finished in between).
        """
        assert record.match_id is not None
        found = self.core.store.load(record.match_id).record
        if found is not None:
            return found
        challenges = self.core.store.challenges()
        if not challenges.is_due(record.challenge_id):
            return self.core.store.load(record.match_id).record  # dealt since the read above, or gone
        dealt = self.start(record) or self.core.store.load(record.match_id).record
        challenges.done_due(record.challenge_id)
        return dealt

    def start(
        self, record: ChallengeRecord, challenger_token: str | None = None, *, tell: bool = True
    ) -> MatchRecord | None:
        """Deal the challenge's match (under :func:`challenge_match_id`), then tell everyone ``challenge_started``.

        None when a match of that id exists already (made by an earlier try).
        """
        assert record.match_id is not None
        rules = resolve_rules({"preset": record.preset}, players=record.players)
        match = MatchRecord(
            match_id=record.match_id,
            version=0,
            seats=challenge_seats(record, challenger_token),
            rules=rules,
            seed=secrets.randbits(63),
            created_at=self.core.now(),
            takeover=record.takeover,
            host=record.sender_id,
            rated=record.rated,
        )
        if not self.core.add(match.match_id, lambda: match):
            return None
        if tell:
            self.core.notices.tell_many(
                {
                    account: [ChallengeStarted(record.challenge_id, record.match_id, seat)]
                    for account, seat in seats_of_accounts(record).items()
                }
            )
        return match
