"""What is kept under an ``Idempotency-Key``: the first answer or refusal, and a digest of the body it answered.

A retry with the same key and the same body answers what was kept, an
accepted action's answer or a refusal alike, and applies nothing; the same
key with another body is refused (``idempotency_key_reused``) and applies
nothing either. Only a refusal decided by the match itself is kept (the
turn, the version, the cards): one that the next try may not meet (the store
did not answer, the match kept changing) is not.

Where each is kept, written in the same atomic commit as the write it answers:

- an accepted action: a compact entry on its seat's record, in the match
  record itself (:func:`remember_action`, :func:`recall_action`): the key's id, the body's digest and
  the numbers of the events the action caused. A retry answers those events,
  read again, with the seat's view as it is now (the first answer itself while
  the match has not moved on). A seat keeps its last :data:`KEPT_PER_SEAT`,
  for as long as the match is kept: ~50 bytes each, where the whole answer
  took ~1.7 KB of Redis;
- a refusal, and a create's or a join's answer (the match id, seat and
  tokens): a key of the store's (24 h). A create with a key makes the match
  whose id :func:`created_match_id` derives from the key and its scope, so
  the kept answer shares the match's hash tag (one Redis Cluster slot) and a
  retry finds both.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from .. import wire
from ..engine import IllegalActionError
from ..store import AnswerKey, SeatRecord
from .errors import IdempotencyKeyReused, MatchNotPlaying, StaleVersion

KEPT_PER_SEAT = 8  # compact answers a seat keeps: its last actions sent with a key
_BODY_DIGITS = 16  # hex digits of the body digest an entry keeps (64 bits)

# Refusals kept under a key: the match's own verdict on the request, the same however often it is asked.
KEPT_REFUSALS: tuple[type[Exception], ...] = (IllegalActionError, MatchNotPlaying, StaleVersion)


def body_digest(body: Mapping[str, Any]) -> str:
    """The SHA-256 of a request body as the schema read it, keys sorted (so key order and spacing do not count)."""
    return hashlib.sha256(wire.dumps(dict(sorted(body.items())))).hexdigest()


def kept_answer(digest: str, answer: dict[str, Any]) -> dict[str, Any]:
    """What to keep for an accepted request."""
    return {"body_sha256": digest, "answer": answer}


def kept_refusal(digest: str, refusal: Exception) -> dict[str, Any]:
    """What to keep for a refusal (one of :data:`KEPT_REFUSALS`)."""
    reason = getattr(refusal, "reason", "invalid_request")
    return {"body_sha256": digest, "refusal": {"reason": reason, "message": str(refusal)}}


def answer_again(kept: Mapping[str, Any], digest: str) -> dict[str, Any]:
    """The answer kept for a retry with body digest ``digest``; raises the kept refusal, or
    :class:`IdempotencyKeyReused` when the key was first sent with another body."""
    if kept.get("body_sha256") != digest:
        raise IdempotencyKeyReused("this Idempotency-Key was sent with another body: use a new key for a new request")
    refusal = kept.get("refusal")
    if refusal is None:
        return dict(kept["answer"])
    if refusal["reason"] == StaleVersion.reason:
        raise StaleVersion(refusal["message"])
    raise IllegalActionError(refusal["reason"], refusal["message"])


def refuse_again(kept: Mapping[str, Any], digest: str) -> NoReturn:
    """Raise the refusal kept under an action's key (an action keeps only refusals in the store)."""
    answer_again(kept, digest)
    raise IdempotencyKeyReused("this Idempotency-Key answered another kind of request: use a new key")


def created_match_id(answer: AnswerKey) -> str:
    """The id of the match a create with this key (in its scope) makes: the same on every retry."""
    text = f"tienlen-create:{answer.scope}:{answer.key}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(text).hexdigest()[:20]


def key_id(answer: AnswerKey) -> str:
    """A short id of a key in its scope, as a seat's compact entries name it (96 bits, URL-safe base64)."""
    text = f"{answer.scope}:{answer.key}".encode("utf-8", "surrogatepass")
    return base64.urlsafe_b64encode(hashlib.sha256(text).digest()[:12]).decode()


@dataclass(frozen=True, slots=True)
class KeptAction:
    """A seat's compact answer to one action: the body's digest (its first digits) and the events it caused."""

    body: str
    first_seq: int
    last_seq: int


def recall_action(seat: SeatRecord, answer: AnswerKey) -> KeptAction | None:
    """The seat's compact answer kept under ``answer``, if any."""
    prefix = key_id(answer) + " "
    for entry in seat.kept:
        if entry.startswith(prefix):
            _kid, body, first, last = entry.split(" ")
            return KeptAction(body, int(first), int(last))
    return None


def remember_action(seat: SeatRecord, answer: AnswerKey, digest: str, first_seq: int, last_seq: int) -> None:
    """Keep the compact answer to an accepted action on its seat (the oldest goes past :data:`KEPT_PER_SEAT`)."""
    kid = key_id(answer)
    entries = [e for e in seat.kept if not e.startswith(kid + " ")]
    entries.append(f"{kid} {digest[:_BODY_DIGITS]} {first_seq} {last_seq}")
    seat.kept = entries[-KEPT_PER_SEAT:]


def check_body(kept: KeptAction, digest: str) -> None:
    """:class:`IdempotencyKeyReused` unless ``digest`` is that of the body the kept answer answered."""
    if kept.body != digest[:_BODY_DIGITS]:
        raise IdempotencyKeyReused("this Idempotency-Key was sent with another body: use a new key for a new request")
