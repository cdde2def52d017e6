"""Where the unseen cards are: a small learned model of the public history, for Hard's deals.

For each unseen card and each other seat still holding cards, a few features
of that seat's plays and passes this hand (:func:`pair_features`) give a score;
a card's scores over the seats, plus each seat's count of cards, give the odds
of who holds it (a multinomial logit). :func:`card_probabilities` then scales
each seat's odds so that the expected cards a seat holds match its count, and
:class:`ModelDeals` draws deals from those probabilities, exactly consistent
with the counts. The weights are learned offline from Medium self-play
(``bench/train_infer.py``, ``make train-infer``) and shipped in
``cardmodel.json``; evaluation is pure Python (no numpy at play time).
With fewer than four players the cards out of play are held by a pseudo-seat
whose features are all zero but its count.
"""

from __future__ import annotations

import json
import math
import random
from functools import cache
from pathlib import Path

from ..engine.cards import TWO_RANK, indices
from ..engine.kinds import Kind
from ..engine.views import SeatView
from .infer import ActionEvent, action_events

MODEL_PATH = Path(__file__).with_name("cardmodel.json")
FEATURES = (
    "log_count",  # log of the cards the seat holds (the uniform prior has weight 1)
    "passed_single_below",  # the seat passed, unlocked, on a single this card beats (count)
    "passed_pair_below",  # ... on a pair whose rank is below this card's
    "passed_other_below",  # ... on a triple, straight or run of pairs whose top is below this card
    "skipped_single",  # the seat answered a single with a higher card than this one, which also beat it
    "skipped_pair",  # the seat answered a pair with a higher rank; this card's rank lies between
    "led_single_above",  # the seat led a single higher than this card
    "led_combo_above",  # the seat led a combination whose lowest card is higher than this card
    "rank_played",  # cards of this card's rank the seat played
    "single_same_rank",  # the seat played a single of this card's rank
    "extends_straight",  # this card's rank would have extended a straight the seat played
    "high_x_played",  # card strength (0..1) times the share of its 13 cards the seat has played
    "two_x_played",  # the card is a 2, times that share
    "high_x_passes",  # card strength times the seat's unlocked passes (/ 4)
    "last_passed_below",  # the seat's latest action was a pass on a table this card beats
)
MAX_EVENTS = 60  # the whole hand's actions (a hand has fewer)
SCALING_ROUNDS = 12


@cache
def load_weights(path: Path = MODEL_PATH) -> tuple[float, ...]:
    """The shipped weights, one a feature (uniform odds — weight 1 on ``log_count`` — without the file)."""
    if not path.exists():
        return (1.0,) + (0.0,) * (len(FEATURES) - 1)
    data = json.loads(path.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path} was trained on other features")
    return tuple(float(w) for w in data["weights"])


def _rank(card: int) -> int:
    return card >> 2


def seat_features(view: SeatView, seat: int, events: list[ActionEvent], unseen: list[int]) -> list[list[float]]:
    """The feature rows of one other seat, one row a card of ``unseen`` (in that order)."""
    rows = [[0.0] * len(FEATURES) for _ in unseen]
    count = view.cards_left[seat]
    played_share = (13 - count) / 13 if view.players == 4 else 0.0
    passes = 0
    played = 0
    last: ActionEvent | None = None
    for ev in events:
        if ev.seat != seat:
            continue
        last = ev
        if ev.action == 0:
            if ev.table is not None and not ev.locked:
                passes += 1
                kind, top = ev.table.kind, ev.table.top
                column = 1 if kind is Kind.SINGLE else 2 if kind is Kind.PAIR else 3
                for row, card in zip(rows, unseen, strict=True):
                    if card > top and (column != 2 or _rank(card) > _rank(top)):
                        row[column] += 1.0
            continue
        played |= ev.action
        action_cards = list(indices(ev.action))
        low, high = action_cards[0], action_cards[-1]
        is_single = len(action_cards) == 1
        if ev.table is None:
            column = 6 if is_single else 7
            for row, card in zip(rows, unseen, strict=True):
                if card < low:
                    row[column] += 1.0
        elif ev.table.kind is Kind.SINGLE:
            for row, card in zip(rows, unseen, strict=True):
                if ev.table.top < card < high:
                    row[4] += 1.0
        elif ev.table.kind is Kind.PAIR:
            for row, card in zip(rows, unseen, strict=True):
                if _rank(ev.table.top) < _rank(card) < _rank(high):
                    row[5] += 1.0
        if is_single:
            for row, card in zip(rows, unseen, strict=True):
                if _rank(card) == _rank(low):
                    row[9] += 1.0
        elif (
            len(action_cards) >= 3
            and _rank(low) != _rank(high)
            and len({_rank(c) for c in action_cards}) == len(action_cards)
        ):
            for row, card in zip(rows, unseen, strict=True):
                r = _rank(card)
                if r == _rank(low) - 1 or (r == _rank(high) + 1 and r < TWO_RANK):
                    row[10] += 1.0
    for row, card in zip(rows, unseen, strict=True):
        strength = card / 51
        row[0] = math.log(count)
        row[8] = float(sum(1 for c in indices(played) if _rank(c) == _rank(card)))
        row[11] = strength * played_share
        row[12] = played_share if _rank(card) == TWO_RANK else 0.0
        row[13] = strength * passes / 4
        if last is not None and last.action == 0 and last.table is not None and not last.locked:
            row[14] = 1.0 if card > last.table.top else 0.0
    return rows


def holders(view: SeatView) -> list[int]:
    """The seats that may hold unseen cards: the other seats holding cards, and ``players`` for those out of play."""
    seats = view.opponents
    if sum(view.cards_left[s] for s in seats) < view.unseen.bit_count():
        seats = [*seats, view.players]
    return seats


def holder_count(view: SeatView, holder: int) -> int:
    """Cards a holder has: a seat's count, or the cards out of play for the pseudo-seat."""
    if holder < view.players:
        return view.cards_left[holder]
    return view.unseen.bit_count() - sum(view.cards_left[s] for s in view.opponents)


def feature_table(view: SeatView) -> tuple[list[int], list[int], list[list[list[float]]]]:
    """The unseen cards, their possible holders and the features ``[holder][card]`` of every pair."""
    unseen = list(indices(view.unseen))
    seats = holders(view)
    events = action_events(view, MAX_EVENTS)
    table = []
    for holder in seats:
        if holder < view.players:
            table.append(seat_features(view, holder, events, unseen))
        else:
            out = [0.0] * len(FEATURES)
            out[0] = math.log(holder_count(view, holder))
            table.append([list(out) for _ in unseen])
    return unseen, seats, table


def card_probabilities(
    view: SeatView, weights: tuple[float, ...] | None = None
) -> tuple[list[int], list[int], list[list[float]]]:
    """The unseen cards, their holders and ``p[holder][card]``: each card's probabilities sum to 1.

    Each holder's odds are scaled (a few rounds of iterative proportional
    fitting) so that its expected cards come close to its count.
    """
    w = load_weights() if weights is None else weights
    unseen, seats, table = feature_table(view)
    odds = [[math.exp(sum(wi * xi for wi, xi in zip(w, row, strict=True))) for row in rows] for rows in table]
    counts = [holder_count(view, h) for h in seats]
    probs = odds
    for _ in range(SCALING_ROUNDS):
        totals = [sum(probs[h][i] for h in range(len(seats))) for i in range(len(unseen))]
        probs = [[p / t for p, t in zip(row, totals, strict=True)] for row in probs]
        expected = [sum(row) for row in probs]
        probs = [[p * c / e for p in row] for row, c, e in zip(probs, counts, expected, strict=True)]
    totals = [sum(probs[h][i] for h in range(len(seats))) for i in range(len(unseen))]
    probs = [[p / t for p, t in zip(row, totals, strict=True)] for row in probs]
    return unseen, seats, probs


class ModelDeals:
    """Deals of the unseen cards drawn from the card model, every deal consistent with the counts.

    Cards are dealt one by one in a random order, each to a holder with room
    left, in proportion to its probability of holding the card. ``work`` is
    always 0 (the search charges nothing for drawing these deals).
    """

    def __init__(self, view: SeatView, events: list[ActionEvent], rng: random.Random) -> None:
        """Compute the card probabilities of ``view`` (``events`` is unused: the model reads the whole history)."""
        del events
        self.view, self.rng = view, rng
        self.work = 0
        self.unseen, self.seats, self.probs = card_probabilities(view)
        self.counts = [holder_count(view, h) for h in self.seats]

    def next_deal(self) -> list[int]:
        """A deal: a hand a seat (the seat's own hand as it is)."""
        rng = self.rng
        order = list(range(len(self.unseen)))
        rng.shuffle(order)
        room = list(self.counts)
        hands = [0] * (self.view.players + 1)
        hands[self.view.seat] = self.view.hand
        for i in order:
            weights = [self.probs[h][i] if room[h] > 0 else 0.0 for h in range(len(self.seats))]
            total = sum(weights)
            if total <= 0.0:
                pick = next(h for h in range(len(self.seats)) if room[h] > 0)
            else:
                x = rng.random() * total
                pick = max(h for h, wt in enumerate(weights) if wt > 0.0)  # should rounding leave x >= 0
                for h, wt in enumerate(weights):
                    x -= wt
                    if x < 0.0 and wt > 0.0:
                        pick = h
                        break
            room[pick] -= 1
            hands[self.seats[pick]] |= 1 << self.unseen[i]
        return hands[: self.view.players]
