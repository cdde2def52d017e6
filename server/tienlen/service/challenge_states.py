"""What a challenge answers (:class:`Challenge`), and the match a challenge starts: its id and its seats.

Seats: the challenger at 0, then the challenged players in the order named;
the last name fills the seats left (a house bot can sit in several seats, an
account in one). Every account's seat gets a fresh random token digest, so
the seat is remote and nobody knows its token: the account's own token acts
for it. A house bot's seat is its bot, holding the bot's account (so a rated
match moves its rating).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..store.challenges import ChallengeRecord
from ..store.records import SeatRecord, new_token, token_digest
from .states import MatchState, SeatToken


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as its sender and challenged players see it; ``match`` once it started (None if gone since).

    ``tokens`` holds the challenger's seat token only in the answer to a
    challenge of house bots alone (it started at once); between accounts the
    accounts' own tokens act for their seats.
    """

    challenge_id: str
    sender: str
    to: tuple[str, ...]
    players: int
    preset: str
    rated: bool
    status: str
    accepted: tuple[str, ...]
    declined_by: str | None
    created_at: float
    expires_at: float
    match_id: str | None
    tokens: tuple[SeatToken, ...]
    match: MatchState | None


def challenge_answer(
    record: ChallengeRecord, match: MatchState | None = None, tokens: tuple[SeatToken, ...] = ()
) -> Challenge:
    """The answer for a stored challenge (with its match's state and the tokens to give, when there are)."""
    return Challenge(
        challenge_id=record.challenge_id,
        sender=record.sender,
        to=tuple(record.to),
        players=record.players,
        preset=record.preset,
        rated=record.rated,
        status=record.status,
        accepted=tuple(record.accepted),
        declined_by=record.declined_by,
        created_at=record.created_at,
        expires_at=record.expires_at,
        match_id=record.match_id,
        tokens=tokens,
        match=match,
    )


def challenge_match_id(challenge_id: str) -> str:
    """The id of the match a challenge starts: one id whoever starts it, so a challenge makes at most one match."""
    return hashlib.sha256(f"tienlen-challenge:{challenge_id}".encode()).hexdigest()[:20]


def seat_index(record: ChallengeRecord, players_seat: int) -> int:
    """Which challenged name (index into ``to``) holds seat ``players_seat`` (1 and up): the last fills the rest."""
    return min(players_seat - 1, len(record.to) - 1)


def challenge_seats(record: ChallengeRecord, challenger_token: str | None = None) -> list[SeatRecord]:
    """The seats of the challenge's match; the challenger's seat digest is of ``challenger_token`` when given."""
    made = challenger_token or new_token()
    entropy = record.entropy
    seats = [
        SeatRecord(
            name=record.sender,
            token_sha256=token_digest(made),
            account=record.sender_id,
            entropy=entropy.get(record.sender_id, ""),
        )
    ]
    for seat in range(1, record.players):
        index = seat_index(record, seat)
        name, account_id = record.to[index], record.to_ids[index]
        if record.house[index]:
            seats.append(SeatRecord(name=name, bot=name, account=account_id))
        else:
            held = SeatRecord(name=name, token_sha256=token_digest(new_token()), account=account_id)
            held.entropy = entropy.get(account_id, "")
            seats.append(held)
    return seats


def seats_of_accounts(record: ChallengeRecord) -> dict[str, int]:
    """Each account's seat (house bots left out): the challenger's 0, each challenged account's own."""
    found = {record.sender_id: 0}
    for seat in range(1, record.players):
        index = seat_index(record, seat)
        if not record.house[index]:
            found.setdefault(record.to_ids[index], seat)
    return found
