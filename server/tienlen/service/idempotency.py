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

A create's or a join's key is bound to its caller (:func:`caller_of`: the
account of the token sent, else the client's address): the kept answer holds
a digest of the caller, and the same key sent by anyone else is refused
(``idempotency_key_reused``), never answered with the first answer and never
used to make a second match. The kept answer holds no token in clear: each
is sealed (:func:`seal`) under a key derived from the raw Idempotency-Key and
the caller, neither of which the store holds (its Redis key is a SHA-256 of
the scope and the key), so only a retry by the same caller with the same key
opens it. An action's key is scoped to the seat token already (no token is
kept for it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from .. import wire
from ..engine import IllegalActionError
from ..store.base import AnswerKey
from ..store.records import SeatRecord
from .errors import IdempotencyKeyReused, MatchNotPlaying, StaleVersion

KEPT_PER_SEAT = 8  # compact answers a seat keeps: its last actions sent with a key
_BODY_DIGITS = 16  # hex digits of the body digest an entry keeps (64 bits)

# Refusals kept under a key: the match's own verdict on the request, the same however often it is asked.
KEPT_REFUSALS: tuple[type[Exception], ...] = (IllegalActionError, MatchNotPlaying, StaleVersion)


def body_digest(body: Mapping[str, Any]) -> str:
    """The SHA-256 of a request body as the schema read it, keys sorted (so key order and spacing do not count)."""
    return hashlib.sha256(wire.dumps(dict(sorted(body.items())))).hexdigest()


def caller_of(account_id: str | None, client: str) -> str:
    """Who a create's or a join's key is bound to: the account of the token sent, else the client's address."""
    return f"account:{account_id}" if account_id is not None else f"address:{client}"


def _secret(answer: AnswerKey, caller: str) -> bytes:
    """The sealing key of a kept answer: from the raw key and the caller, which the store never holds."""
    text = f"tienlen-kept-token\0{answer.scope}\0{caller}".encode("utf-8", "surrogatepass")
    return hmac.new(answer.key.encode("utf-8", "surrogatepass"), text, hashlib.sha256).digest()


def _pad(secret: bytes, label: str, size: int) -> bytes:
    """``size`` bytes of keystream for one sealed token (HMAC-SHA256 in counter mode; one label a token)."""
    blocks = (size + 31) // 32
    return b"".join(hmac.new(secret, f"pad\0{label}\0{i}".encode(), hashlib.sha256).digest() for i in range(blocks))


def _tag(secret: bytes, label: str, box: bytes) -> bytes:
    """The 128-bit HMAC tag of a sealed token (encrypt, then MAC)."""
    return hmac.new(secret, b"tag\0" + label.encode() + b"\0" + box, hashlib.sha256).digest()[:16]


def seal(token: str, secret: bytes, label: str) -> str:
    """A token sealed for keeping: XOR with a keystream, then its tag (URL-safe base64)."""
    plain = token.encode()
    box = bytes(a ^ b for a, b in zip(plain, _pad(secret, label, len(plain)), strict=False))
    return base64.urlsafe_b64encode(_tag(secret, label, box) + box).decode()


def unseal(sealed: str, secret: bytes, label: str) -> str:
    """The token :func:`seal` sealed; :class:`IdempotencyKeyReused` when the key or the caller is not its own."""
    raw = base64.urlsafe_b64decode(sealed.encode())
    tag, box = raw[:16], raw[16:]
    if not hmac.compare_digest(tag, _tag(secret, label, box)):
        raise IdempotencyKeyReused("this Idempotency-Key was sent by another caller: use a new key")
    return bytes(a ^ b for a, b in zip(box, _pad(secret, label, len(box)), strict=False)).decode()


def kept_answer(
    digest: str, answer: dict[str, Any], key: AnswerKey | None = None, caller: str | None = None
) -> dict[str, Any]:
    """What to keep for an accepted request; with ``key`` and ``caller``, bound to the caller, tokens sealed."""
    if key is None or caller is None:
        return {"body_sha256": digest, "answer": answer}
    secret = _secret(key, caller)
    kept = dict(answer)
    if "token" in kept:
        kept["token"] = seal(str(kept["token"]), secret, "token")
    if "tokens" in kept:
        kept["tokens"] = [t | {"token": seal(str(t["token"]), secret, f"seat{t['seat']}")} for t in kept["tokens"]]
    return {"body_sha256": digest, "caller_sha256": _caller_digest(caller), "answer": kept}


def _caller_digest(caller: str) -> str:
    return hashlib.sha256(caller.encode("utf-8", "surrogatepass")).hexdigest()


def answer_bound(kept: Mapping[str, Any], digest: str, key: AnswerKey, caller: str) -> dict[str, Any]:
    """The answer kept for a create's or a join's retry, tokens opened (see :func:`answer_again` too).

    :class:`IdempotencyKeyReused` when another caller sent the key first (whatever the body), or the same
    caller with another body.
    """
    if kept.get("caller_sha256") != _caller_digest(caller):
        raise IdempotencyKeyReused("this Idempotency-Key was sent by another caller: use a new key")
    first = answer_again(kept, digest)
    secret = _secret(key, caller)
    if "token" in first:
        first["token"] = unseal(str(first["token"]), secret, "token")
    if "tokens" in first:
        first["tokens"] = [t | {"token": unseal(str(t["token"]), secret, f"seat{t['seat']}")} for t in first["tokens"]]
    return first


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
