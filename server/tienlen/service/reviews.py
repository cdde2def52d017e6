"""Reviews of finished matches: asked for by anyone once a match is over, computed by the servers' sweepers.

The first ask enqueues a job (:meth:`Reviews.review` answers its progress: :class:`ReviewPending`); each
server's sweep (:meth:`Reviews.sweep`) claims one job at a time for :data:`LEASE_S`, reviews the match hand by
hand off its event loop (``core.offload``), renewing the lease and recording the progress after each hand, and
stores the review beside the kept match (:mod:`..store.redis_reviews`), as long as it is kept. A job whose
worker died is taken again once its lease runs out. The review itself is :mod:`..bots.review`'s: each decision
judged from what its seat could see then, so no answer names a card another seat held hidden at that moment.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from ..bots.review import THRESHOLDS, Decision, Estimate, review_hands
from ..engine import cards_mask, format_mask, resolve_rules
from ..replay import fair_deal_of
from ..store.errors import StoreUnavailableError
from ..store.reviews import ReviewRecord
from .core import Core
from .errors import MatchNotFinished, MatchNotFound
from .kept import replay_of
from .watching import check_kept_reader, reader_seat

LEASE_S = 120.0  # a claimed job is taken again this long after its last renewal (a hand takes seconds)
UNKEPT_TTL_S = 86400  # a review of a finished match nobody with an account sat in lasts a day
_log = logging.getLogger("tienlen.service")


@dataclass(frozen=True, slots=True)
class ReviewPending:
    """A review not ready yet: ``pending`` (queued) or ``running``, with the actions reviewed of all."""

    status: str
    done: int
    total: int


Dispatch = Callable[[Callable[[], object]], object]


class Reviews:
    """Ask for a match's review, read it, and compute the pending ones in the sweep."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.store = core.store.reviews()
        self.worker = secrets.token_hex(8)  # this server's name on the jobs it holds
        self._one = threading.Lock()  # held while this server computes a review

    def review(self, match_id: str, token: str | None = None) -> dict[str, Any] | ReviewPending:
        """The match's review once computed, else its progress (the first ask enqueues it).

        :class:`MatchNotFound` for no such match, :class:`MatchNotFinished` while it is played; read by whoever
        may read its replay (:class:`~.errors.NotWatchable` for a stranger to a match whose host turned watching
        off, or a duplicate tournament table: another table may still be playing its cards).
        """
        self._readable(match_id, token)
        self._replay(match_id)  # the match exists and is over
        found = self.store.get(match_id)
        if found is None:
            self.store.enqueue(match_id, self._ttl_s(match_id))
            found = self.store.get(match_id) or ReviewRecord("pending")
        if found.status == "done" and found.document is not None:
            return cast(dict[str, Any], json.loads(zlib.decompress(found.document)))
        return ReviewPending(found.status, found.done, found.total)

    def _readable(self, match_id: str, token: str | None) -> None:
        """The reader may read the match's replay (the replay's own check)."""
        record = self.core.store.load(match_id).record
        if record is None:
            check_kept_reader(self.core, self.core.history.kept_match(match_id), token)
        else:
            reader_seat(self.core, record, token)

    def _ttl_s(self, match_id: str) -> int | None:
        """None for a kept match (the review lasts as long as it), a day for a match that is not kept."""
        return UNKEPT_TTL_S if self.core.history.kept.get(match_id) is None else None

    def _replay(self, match_id: str) -> dict[str, Any]:
        """The finished match's replay, from the live record or what was kept of it."""
        record = self.core.store.load(match_id).record
        if record is None:
            return self.core.history.kept_match(match_id).replay()
        if record.status != "finished" or record.engine is None or record.seed is None:
            raise MatchNotFinished("a review is for a finished match")
        return replay_of(record, self.core.store.all_events(match_id))

    # ----- the sweeper's work ------------------------------------------------------------

    def sweep(self, dispatch: Dispatch | None = None) -> bool:
        """Claim one pending job and compute it (or hand it to ``dispatch``); whether one was claimed.

        A server computes one review at a time: while its last one runs, its sweeps claim none.
        """
        if not self._one.acquire(blocking=False):
            return False
        try:
            match_id = self.store.claim(self.core.now(), LEASE_S, self.worker)
        except BaseException:
            self._one.release()
            raise
        if match_id is None:
            self._one.release()
            return False
        if dispatch is None:
            self._compute_then_release(match_id)
        else:
            dispatch(partial(self._compute_then_release, match_id))
        return True

    def _compute_then_release(self, match_id: str) -> bool:
        try:
            return self.compute(match_id)
        finally:
            self._one.release()

    def compute(self, match_id: str) -> bool:
        """Review a claimed match hand by hand off the event loop; whether the review was stored."""
        try:
            replay = self._replay(match_id)
        except (MatchNotFound, MatchNotFinished):
            self.store.drop(match_id)
            return False
        steps = review_hands(**review_inputs(replay))
        decisions: list[Decision] = []
        while True:
            step = self.core.offload(partial(next, steps, None))
            if step is None:
                break
            found, done, total = cast(tuple[list[Decision], int, int], step)
            decisions.extend(found)
            try:
                if not self.store.renew(match_id, self.worker, self.core.now() + LEASE_S, done, total):
                    return False  # another worker took it over (this one stalled past its lease)
            except StoreUnavailableError as error:
                _log.warning("the review of match %s stops: %s", match_id, error)
                return False
        document = review_document(match_id, decisions)
        return self.store.finish(match_id, self.worker, zlib.compress(json.dumps(document).encode(), 9))


def review_inputs(replay: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of :func:`~..bots.review.review_hands` from a ``tienlen-replay/1`` document."""
    rules = resolve_rules(dict(replay["rules"]))
    hands = list(replay["hands"])
    fair = fair_deal_of(replay["fair_deal"], rules.players) if "fair_deal" in replay else None
    first = None if fair is not None or not hands else [cards_mask(cards) for cards in hands[0]["deal"]]
    actions = [[(a["seat"], cards_mask(a["cards"]) if a["cards"] else 0) for a in hand["actions"]] for hand in hands]
    return {"rules": rules, "seed": replay["seed"], "hands": actions, "first_deal": first, "fair": fair}


def _action(mask: int, estimate: Estimate | None) -> dict[str, Any]:
    return {
        "type": "play" if mask else "pass",
        "cards": format_mask(mask),
        "first": None if estimate is None else round(estimate.first, 4),
        "points": None if estimate is None else round(estimate.points, 4),
    }


def decision_document(d: Decision) -> dict[str, Any]:
    """A decision as the API answers it."""
    return {
        "hand_number": d.hand_number,
        "index": d.index,
        "seat": d.seat,
        "grade": d.grade,
        "loss": round(d.loss, 4),
        "taken": _action(d.taken, d.taken_estimate),
        "best": _action(d.best, d.best_estimate),
        "deals": d.deals,
        "explanation": d.best_words,
        "taken_explanation": d.taken_words,
    }


def review_document(match_id: str, decisions: list[Decision]) -> dict[str, Any]:
    """The review as the API answers it: the thresholds, and each seat's decisions in order."""
    seats = sorted({d.seat for d in decisions})
    return {
        "match_id": match_id,
        "status": "done",
        "progress": {"done": len(decisions), "total": len(decisions)},
        "thresholds": {grade: threshold for grade, threshold in THRESHOLDS},
        "seats": [
            {"seat": seat, "decisions": [decision_document(d) for d in decisions if d.seat == seat]} for seat in seats
        ],
    }


__all__ = ["LEASE_S", "ReviewPending", "Reviews", "review_document", "review_inputs"]
