"""Fair deals (``tienlen-deal/1``) of the service: the public commitment, the seats' entropy, the secret at the end.

Every match whose deal nobody fixed holds a secret drawn from :mod:`secrets` at
its creation (:attr:`MatchRecord.fair_secret`); its commitment is public from
then on, each seat adds its entropy when it is taken, and the engine deals
every hand from them (:class:`~tienlen.engine.FairDeal`). The secret is shown
only once the match is finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import FAIR_PROTOCOL, FairDeal, commitment
from ..store.records import MatchRecord, MatchStatus


@dataclass(frozen=True, slots=True)
class FairDealState:
    """The public part of a match's fair deal: the commitment, each seat's entropy, the secret once finished."""

    protocol: str
    commitment: str
    entropy: tuple[str, ...]
    secret: str | None


def fair_deal_of(record: MatchRecord) -> FairDeal | None:
    """The hand-key inputs of a fair-dealt match (its seats' entropy as it is now), or None for a fixed deal."""
    if record.fair_secret is None:
        return None
    entropy = tuple("" if seat.open else seat.entropy for seat in record.seats)
    return FairDeal(bytes.fromhex(record.fair_secret), record.match_id, entropy)


def fair_deal_state(record: MatchRecord) -> FairDealState | None:
    """What everybody sees of the match's fair deal (the secret only once it is finished), None for a fixed deal."""
    fair = fair_deal_of(record)
    if fair is None:
        return None
    revealed = record.status == MatchStatus.FINISHED
    return FairDealState(FAIR_PROTOCOL, commitment(fair.secret), fair.entropy, fair.secret.hex() if revealed else None)
