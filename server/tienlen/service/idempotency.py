"""What is kept under an ``Idempotency-Key``: the first answer or refusal, and a digest of the body it answered.

A retry with the same key and the same body answers what was kept, an
accepted action's answer or a refusal alike, and applies nothing; the same
key with another body is refused (``idempotency_key_reused``) and applies
nothing either. Only a refusal decided by the match itself is kept (the
turn, the version, the cards): one that the next try may not meet (the store
did not answer, the match kept changing) is not.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from .. import wire
from ..engine import IllegalActionError
from .errors import IdempotencyKeyReused, MatchNotPlaying, StaleVersion

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


def replay(kept: Mapping[str, Any], digest: str) -> dict[str, Any]:
    """The kept answer for a retry with body digest ``digest``; raises the kept refusal, or
    :class:`IdempotencyKeyReused` when the key was first sent with another body."""
    if "body_sha256" not in kept:  # an answer kept before bodies were digested: as it was
        return dict(kept)
    if kept["body_sha256"] != digest:
        raise IdempotencyKeyReused("this Idempotency-Key was sent with another body: use a new key for a new request")
    refusal = kept.get("refusal")
    if refusal is None:
        return dict(kept["answer"])
    if refusal["reason"] == StaleVersion.reason:
        raise StaleVersion(refusal["message"])
    raise IllegalActionError(refusal["reason"], refusal["message"])


