"""Challenges: an account challenges named players (accounts, house bots) to a match that starts when all accept.

``POST /v1/challenges`` names 1 to ``players - 1`` players for seats 1, 2, ...
(the challenger sits at 0; the last name fills the seats left). The house
bots (``easy``, ``medium``, ``hard``) accept at once, so a challenge of
house bots alone starts at once; a challenged account must be online
(listened to its inbox in the last :data:`~.inbox.ONLINE_S` seconds) and take
challenges of the kind (rated or casual: its settings), and hears of it
(``challenge_received``). It then accepts or declines; the challenger may
withdraw it; after :attr:`Challenges.expiry_s` the sweeper expires it. Each change
is a compare-and-set on the challenge's version, so two accepts racing start
one match, and an accept racing a withdrawal or the expiry is resolved once.
When the last challenged account accepts, the match is dealt (under an id
derived from the challenge's, so it is made once) and everyone hears
``challenge_started`` (and ``match_started``, from the match's commit).
A rated match moves every rating in it when it ends (:mod:`.rated`).
"""

from __future__ import annotations

from ..engine import RulesError, resolve_rules
from ..events import ChallengeReceived
from ..store.accounts import AccountRecord
from ..store.challenges import CLOSED_KEPT_S, ChallengeRecord, new_challenge_id
from ..store.errors import StoreUnavailableError
from ..store.records import new_token
from .accounts import authorized
from .challenge_ends import ChallengeEnds
from .challenge_states import (
    Challenge,
    challenge_answer,
    challenge_match_id,
)
from .commands import Accept
from .commands import Challenge as ChallengeCommand
from .core import Core
from .errors import (
    Blocked,
    ChallengeClosed,
    ChallengeExpired,
    ChallengeNotFound,
    ChallengeRefused,
    InvalidRequest,
    NotChallenged,
    NotChallenger,
    PlayerNotFound,
    PlayerOffline,
    TooManyChallenges,
)
from .inbox import ONLINE_S
from .states import SeatToken, match_state
from .writer import LOST, Lost, attempts, kept_changing

CHANGING = kept_changing("the challenge kept changing; try again")


class Challenges:
    """Challenges between accounts and to the house bots, over the shared :class:`~.core.Core`; how they end
    (started, closed, expired) is :attr:`ends`."""

    def __init__(self, core: Core, *, expiry_s: float = 60, most: tuple[int, int] = (8, 32)) -> None:
        self.core = core
        self.ends = ChallengeEnds(core)
        self.expiry_s = expiry_s  # how long a challenge waits for every challenged account to accept
        self.most = most  # pending challenges an account may have sent, and received, at once

    # ----- sending ------------------------------------------------------------------------

    def send(self, command: ChallengeCommand, token: str | None) -> Challenge:
        """Challenge the players named in ``to`` (the token's account, scope ``play``, at seat 0).

        An unknown name is :class:`PlayerNotFound`; the challenger itself, an
        account named twice, an account left to fill several seats, more names
        than seats or a bad preset :class:`InvalidRequest`; a challenged account
        blocking the challenger or blocked by it :class:`Blocked`, not online
        :class:`PlayerOffline`, one whose settings refuse the kind :class:`ChallengeRefused`. House bots
        alone: the match starts at once.
        """
        challenger = authorized(self.core.accounts, token, "play")
        players, rated, preset = command.players, command.rated, command.preset
        named = self._challenged(challenger, list(command.to), players)
        try:
            resolve_rules({"preset": preset}, players=players)
        except RulesError as error:
            raise InvalidRequest(str(error), errors={"preset": [str(error)]}) from None
        chat = self.core.store.chat()
        for account, house in named:
            if not house and chat.blocks(account.account_id, challenger.account_id):
                raise Blocked(f"{account.name!r} and you: one blocks the other, so no challenge between you")
        for account, house in named:
            if not house:
                self._check_takes(account, rated)
        now = self.core.now()

        def once() -> Challenge | Lost:
            record = ChallengeRecord(
                challenge_id=new_challenge_id(),
                sender=challenger.name,
                sender_id=challenger.account_id,
                to=[account.name for account, _house in named],
                to_ids=[account.account_id for account, _house in named],
                house=[house for _account, house in named],
                players=players,
                preset=preset,
                rated=rated,
                takeover=command.takeover,
                created_at=now,
                expires_at=now + self.expiry_s,
                accepted=list(dict.fromkeys(account.name for account, house in named if house)),
                entropy={challenger.account_id: command.entropy} if command.entropy else {},
            )
            if all(record.house):
                made = self._challenge_house_bots(record)
                return LOST if made is None else made
            challenges = self.core.store.challenges()
            self._claim_pending(record, now)
            challenges.mark_due(record.challenge_id, record.expires_at)  # before: a sweeper always finds it
            # the index outlives the record, which a late sweeper may close after its expiry time
            challenges.note(record.accounts(), record.challenge_id, now, self._kept_s + CLOSED_KEPT_S)
            record.version = 1
            if challenges.save(record, None, self._kept_s):
                self._tell_received(record)
                return challenge_answer(record)
            challenges.release_pending(record)
            return LOST

        def exhausted() -> Challenge:
            raise StoreUnavailableError("could not store the new challenge")

        return attempts(once, exhausted)

    def _claim_pending(self, record: ChallengeRecord, now: float) -> None:
        """Take the challenge's places among its accounts' pending ones; :class:`TooManyChallenges` over a cap."""
        sent, received = self.most
        over = self.core.store.challenges().claim_pending(record, now, sent, received)
        if over == record.sender_id:
            raise TooManyChallenges(
                f"you have {sent} pending challenges already: wait for one to be answered, withdraw one, "
                "or wait until one expires"
            )
        if over is not None:
            name = record.to[record.to_ids.index(over)]
            raise TooManyChallenges(f"{name!r} has {received} pending challenges already: try again later")

    @property
    def _kept_s(self) -> int:
        """How long a pending challenge's record is kept: until it expires, and a while after."""
        return int(self.expiry_s) + CLOSED_KEPT_S

    def _challenged(
        self, challenger: AccountRecord, names: list[str], players: int
    ) -> list[tuple[AccountRecord, bool]]:
        """The accounts named, each with whether it is a house bot; refusals of the names themselves."""
        if len(names) > players - 1:
            raise InvalidRequest(
                f"a {players}-player match has room for {players - 1} challenged players",
                errors={"to": [f"at most {players - 1} names"]},
            )
        house = self.core.history.rated.house_bots()
        named: list[tuple[AccountRecord, bool]] = []
        for name in names:
            if name.lower() in house:
                named.append((house[name.lower()], True))
                continue
            account = self.core.accounts.find(name)
            if account is None:
                raise PlayerNotFound(f"no player is named {name!r}")
            if account.account_id == challenger.account_id:
                raise InvalidRequest("you cannot challenge yourself", errors={"to": [f"{name}: yourself"]})
            if any(account.account_id == other.account_id for other, _house in named):
                raise InvalidRequest(f"{name!r} is named twice", errors={"to": [f"{name}: named twice"]})
            named.append((account, False))
        if len(names) < players - 1 and not named[-1][1]:
            raise InvalidRequest(
                f"{names[-1]!r} would fill {players - len(names)} seats: an account holds one seat "
                "(name a player for every seat, or end with a house bot)",
                errors={"to": [f"{names[-1]}: an account holds one seat"]},
            )
        return named

    def _check_takes(self, account: AccountRecord, rated: bool) -> None:
        """Refuse a challenged account that is not online, or does not take challenges of this kind."""
        seen = self.core.notices.inbox.last_seen(account.account_id, account.kind)
        if seen is None or seen < self.core.now() - ONLINE_S:
            raise PlayerOffline(f"{account.name!r} is not online (listening to its events) now")
        takes_rated, takes_casual = self.core.accounts.challenge_settings(account.account_id)
        if not (takes_rated if rated else takes_casual):
            kind = "rated" if rated else "casual"
            raise ChallengeRefused(f"{account.name!r} does not take {kind} challenges")

    def _challenge_house_bots(self, record: ChallengeRecord) -> Challenge | None:
        """Start a challenge of house bots alone at once; None when its id was taken (try another)."""
        made = new_token()
        record.status, record.match_id = "started", challenge_match_id(record.challenge_id)
        record.closed_at = record.created_at
        record.version = 1
        match = self.ends.start(record, made, tell=False)
        if match is None:
            return None
        challenges = self.core.store.challenges()
        challenges.note([record.sender_id], record.challenge_id, record.created_at, CLOSED_KEPT_S)
        if not challenges.save(record, None, CLOSED_KEPT_S):
            return None
        return challenge_answer(record, match_state(match), (SeatToken(0, made),))

    # ----- reading ------------------------------------------------------------------------

    def status(self, challenge_id: str, token: str | None) -> Challenge:
        """The challenge, for its sender or a challenged account (scope ``play``); else :class:`ChallengeNotFound`."""
        account = authorized(self.core.accounts, token, "play")
        record = self._load_challenge(challenge_id)
        if account.account_id not in record.accounts():
            raise _not_found(challenge_id)
        if record.status == "pending" and self._past_expiry(record):
            record = self.ends.expire(record) or self._load_challenge(challenge_id)
        return self._answer(record)

    def _load_challenge(self, challenge_id: str) -> ChallengeRecord:
        record = self.core.store.challenges().load(challenge_id)
        if record is None:
            raise _not_found(challenge_id)
        return record

    def _answer(self, record: ChallengeRecord) -> Challenge:
        """The challenge with its match's state, when it started and the match is still there (dealt now when
        it is owed: see :meth:`ChallengeEnds.deal_owed`)."""
        match = None
        if record.match_id is not None:
            found = self.ends.deal_owed(record)
            match = None if found is None else match_state(found)
        return challenge_answer(record, match)

    def _past_expiry(self, record: ChallengeRecord) -> bool:
        return self.core.now() >= record.expires_at

    # ----- answering -----------------------------------------------------------------------

    def accept(self, challenge_id: str, token: str | None, command: Accept) -> Challenge:
        """The token's account (challenged, scope ``play``) accepts, with its fair-deal ``entropy``; the last
        acceptance deals the match.

        Accepting again (also once the match started) answers the challenge as it is. Refusals:
        :class:`NotChallenged`, :class:`ChallengeExpired`, :class:`ChallengeClosed`.
        """
        account = authorized(self.core.accounts, token, "play")

        def once() -> Challenge | Lost:
            record, name = self._pending_for_challenged(challenge_id, account, accepting=True)
            if name in record.accepted:
                return self._answer(record)
            expected = record.version
            record.accepted.append(name)
            if command.entropy:
                record.entropy[account.account_id] = command.entropy
            record.version += 1
            started = all(to in record.accepted for to in record.to)
            if started:
                record.status, record.match_id = "started", challenge_match_id(challenge_id)
                record.closed_at = self.core.now()
            ttl = CLOSED_KEPT_S if started else self._left_s(record)
            if not self.core.store.challenges().save(record, expected, ttl):
                return LOST  # another answer, the withdrawal or the expiry came first: read it again
            if not started:
                return challenge_answer(record)
            self.core.store.challenges().release_pending(record)
            match = self.ends.start(record)
            self.core.store.challenges().done_due(challenge_id)  # after: a sweeper deals a match this process did not
            return self._answer(record) if match is None else challenge_answer(record, match_state(match))

        return attempts(once, CHANGING)

    def decline(self, challenge_id: str, token: str | None) -> Challenge:
        """The token's account (challenged, scope ``play``) declines; the others hear ``challenge_cancelled``."""
        account = authorized(self.core.accounts, token, "play")

        def once() -> Challenge | Lost:
            record, name = self._pending_for_challenged(challenge_id, account)
            closed = self.ends.close(record, "declined", by=name, by_id=account.account_id)
            return challenge_answer(record) if closed else LOST

        return attempts(once, CHANGING)

    def withdraw(self, challenge_id: str, token: str | None) -> None:
        """Its sender (scope ``play``) withdraws a pending challenge; the challenged hear ``challenge_cancelled``."""
        account = authorized(self.core.accounts, token, "play")

        def once() -> Lost | None:
            record = self._load_challenge(challenge_id)
            if account.account_id != record.sender_id:
                raise NotChallenger("only the account that sent a challenge withdraws it")
            if record.status == "pending" and self._past_expiry(record):
                self.ends.expire(record)
                raise _closed("expired")
            if record.status != "pending":
                raise _closed(record.status)
            return None if self.ends.close(record, "withdrawn", by=record.sender, by_id=account.account_id) else LOST

        attempts(once, CHANGING)

    def _pending_for_challenged(
        self, challenge_id: str, account: AccountRecord, *, accepting: bool = False
    ) -> tuple[ChallengeRecord, str]:
        """A pending challenge of which the account is a challenged player, and its name there; else a refusal.

        ``accepting``: a challenge the account's acceptance started is answered too (an accept sent again).
        """
        record = self._load_challenge(challenge_id)
        if account.account_id not in [i for i, house in zip(record.to_ids, record.house, strict=True) if not house]:
            raise NotChallenged("only a challenged account accepts or declines a challenge")
        name = record.to[record.to_ids.index(account.account_id)]
        if accepting and record.status == "started" and name in record.accepted:
            return record, name
        if record.status == "pending" and self._past_expiry(record):
            self.ends.expire(record)
            raise ChallengeExpired(f"the challenge {challenge_id!r} expired before everyone accepted")
        if record.status == "expired":
            raise ChallengeExpired(f"the challenge {challenge_id!r} expired before everyone accepted")
        if record.status != "pending":
            raise _closed(record.status)
        return record, name

    def _left_s(self, record: ChallengeRecord) -> int:
        """The lifetime a pending challenge's record keeps: to its expiry, and a while after."""
        return max(int(record.expires_at - self.core.now()), 0) + CLOSED_KEPT_S

    def _tell_received(self, record: ChallengeRecord) -> None:
        """Tell each challenged account of a new challenge."""
        received = ChallengeReceived(
            record.challenge_id,
            record.sender,
            tuple(record.to),
            record.players,
            record.preset,
            record.rated,
            record.expires_at,
        )
        told = [account for account in record.accounts() if account != record.sender_id]
        self.core.notices.tell_many({account: [received] for account in told})


def _not_found(challenge_id: str) -> ChallengeNotFound:
    return ChallengeNotFound(f"no challenge {challenge_id!r} of yours (it may have closed long ago)")


def _closed(status: str) -> ChallengeClosed:
    why = "its match started" if status == "started" else f"it was {status}"
    return ChallengeClosed(f"the challenge is no longer pending: {why}")
