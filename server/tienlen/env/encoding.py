"""The observation encoding: a seat's view as :data:`OBS_SIZE` numbers in [0, 1] (docs/env.md).

The encoding reads only what the server's seat view carries (the API's
``SeatViewSchema``, written from the engine's :class:`~tienlen.engine.SeatView`):
:class:`ViewFacts` holds exactly those fields, read either from the engine's
``SeatView`` (:func:`facts_of_view`, the environment's side) or from the JSON
of ``GET /v1/matches/{id}/seats/{seat}/view`` (:func:`facts_of_json`, a bot
playing over HTTP). The same :func:`encode` then serves both, so a policy
trained in the environment reads online exactly what it read in training.
(The engine's view also holds the hand's history; the server's JSON view does
not, so the encoding leaves it out.)

Seats are encoded relative to the observing seat: slot 0 is the seat itself,
slot 1 the next seat clockwise, and so on; slots past the player count are 0.
:data:`FIELDS` lists every field with its first index, size and meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.cards import cards_mask, parse_index
from ..engine.combos import Combination, classify
from ..engine.kinds import Kind
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS, Bombs, RuleSet, Scoring, Tiebreak
from ..engine.views import SeatView

KINDS: tuple[Kind, ...] = tuple(Kind)
SEAT_SLOTS = MAX_PLAYERS
SEAT_FEATURES = ("present", "cards_left", "passed", "out", "place", "score", "on_turn")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the encoding: ``size`` numbers from index ``start``."""

    name: str
    start: int
    size: int
    about: str

    @property
    def stop(self) -> int:
        """One past the field's last index."""
        return self.start + self.size


def _fields(rows: list[tuple[str, int, str]]) -> tuple[Field, ...]:
    out: list[Field] = []
    start = 0
    for name, size, about in rows:
        out.append(Field(name, start, size, about))
        start += size
    return tuple(out)


FIELDS: tuple[Field, ...] = _fields(
    [
        ("hand", 52, "1 for each card the seat holds, by card number (0 = 3S … 51 = 2H)"),
        ("table", 52, "1 for each card of the play on the table (all 0 when the seat on turn leads)"),
        ("table_kind", len(KINDS), "one-hot kind of the table: " + ", ".join(k.value for k in KINDS)),
        ("table_length", 1, "the table's length (cards, or pairs for consecutive pairs) / 12"),
        ("my_turn", 1, "1 when this seat is on turn"),
        ("leading", 1, "1 when the seat on turn leads a new battle (no table)"),
        ("reentry", 1, "1 when the seat on turn is pass-locked and may only bomb the 2s or pass"),
        ("table_owner", SEAT_SLOTS, "one-hot relative seat (0 = me, 1 = next clockwise, …) of the table's play"),
        ("start_card", 52, "one-hot card the seat's opening lead must include, if it holds it while that applies"),
        (
            "seats",
            SEAT_SLOTS * len(SEAT_FEATURES),
            "per relative seat (slot 0 = me), 7 numbers each: present (the seat plays), cards_left / 13, passed "
            "(pass-locked in this battle), out (has a place this hand), place / players (0 without one), "
            "score / ((players - 1) × hands) clipped to 1, on_turn",
        ),
        ("players", MAX_PLAYERS - MIN_PLAYERS + 1, "one-hot player count: 2, 3, 4"),
        ("bombs", len(Bombs), "one-hot bomb rule: " + ", ".join(b.value for b in Bombs)),
        ("flags", 3, "rule flags: pass_reentry_with_bomb, start_card_rule, end_on_first_out"),
        ("scoring", len(Scoring), "one-hot scoring: " + ", ".join(s.value for s in Scoring)),
        ("tiebreak", len(Tiebreak), "one-hot tiebreak: " + ", ".join(t.value for t in Tiebreak)),
        ("hands", 1, "hands in the match / 50"),
        ("hand_progress", 2, "min(hand_number, hands) / hands, and 1 in a tie-break hand (hand_number > hands)"),
        ("my_seat", SEAT_SLOTS, "one-hot absolute seat number"),
    ]
)
FIELD: dict[str, Field] = {f.name: f for f in FIELDS}
OBS_SIZE = FIELDS[-1].stop
"""How many numbers the encoding has."""


@dataclass(frozen=True, slots=True)
class ViewFacts:
    """What the encoding reads of a seat's view: the fields the server's JSON seat view carries.

    ``status`` is ``playing``, ``finished`` (or ``waiting`` online);
    ``passed`` is, per seat, whether it is pass-locked in the current battle;
    ``places`` each seat's place this hand (from 1) or None.
    """

    seat: int
    rules: RuleSet
    status: str
    hand_number: int
    hand: int
    start_card: int | None
    turn: int | None
    reentry: bool
    table: Combination | None
    table_seat: int | None
    cards_left: tuple[int, ...]
    passed: tuple[bool, ...]
    places: tuple[int | None, ...]
    scores: tuple[int, ...]


def facts_of_view(view: SeatView) -> ViewFacts:
    """The encoded fields of the engine's seat view (what the server writes as the JSON view)."""
    public = view.public
    table = public.table if public.table_seat is not None else None
    return ViewFacts(
        seat=view.seat,
        rules=public.rules,
        status=public.status.value,
        hand_number=public.hand_number,
        hand=view.hand,
        start_card=view.start_card,
        turn=public.turn,
        reentry=public.reentry,
        table=table,
        table_seat=public.table_seat if table is not None else None,
        cards_left=public.cards_left,
        passed=tuple(bool(public.locked >> s & 1) for s in range(len(public.cards_left))),
        places=public.places,
        scores=public.scores,
    )


def facts_of_json(view: Mapping[str, Any]) -> ViewFacts:
    """The encoded fields of a seat's view as the API answers it (``SeatViewSchema``, parsed JSON)."""
    seats = view["seats"]
    table = view["table"]
    combo = None if table is None else classify(cards_mask(table["cards"]))
    start = view.get("start_card")
    return ViewFacts(
        seat=int(view["seat"]),
        rules=RuleSet.from_dict(view["rules"]),
        status=str(view["status"]),
        hand_number=int(view["hand_number"]),
        hand=cards_mask(view["cards"]),
        start_card=None if start is None else parse_index(start),
        turn=view["turn"],
        reentry=bool(view["reentry"]),
        table=combo,
        table_seat=None if table is None else int(table["seat"]),
        cards_left=tuple(int(s["cards_left"]) for s in seats),
        passed=tuple(bool(s["passed"]) for s in seats),
        places=tuple(s["place"] for s in seats),
        scores=tuple(int(s["score"]) for s in seats),
    )


def _bits(mask: int) -> npt.NDArray[np.uint8]:
    """The 52 bits of a card mask, card 0 first."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8), bitorder="little")[:52]


_F = FIELD
_HAND, _TABLE, _KIND, _START = _F["hand"].start, _F["table"].start, _F["table_kind"].start, _F["start_card"].start
_SEATS, _WIDTH = _F["seats"].start, len(SEAT_FEATURES)
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_BOMBS_INDEX = {b: i for i, b in enumerate(Bombs)}
_SCORING_INDEX = {s: i for i, s in enumerate(Scoring)}
_TIEBREAK_INDEX = {t: i for i, t in enumerate(Tiebreak)}


def encode(facts: ViewFacts) -> npt.NDArray[np.float32]:
    """The fixed-size encoding (float32, :data:`OBS_SIZE` numbers in [0, 1]) of a seat's view."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[_HAND : _HAND + 52] = _bits(facts.hand)
    rules = facts.rules
    n = len(facts.cards_left)
    me = facts.seat
    table = facts.table
    if table is not None:
        out[_TABLE : _TABLE + 52] = _bits(table.mask)
        out[_KIND + _KIND_INDEX[table.kind]] = 1
        out[_F["table_length"].start] = table.length / 12
        if facts.table_seat is not None:
            out[_F["table_owner"].start + (facts.table_seat - me) % n] = 1
    turn = facts.turn
    out[_F["my_turn"].start] = turn == me
    out[_F["leading"].start] = turn is not None and table is None
    out[_F["reentry"].start] = facts.reentry
    if facts.start_card is not None:
        out[_START + facts.start_card] = 1
    most = max(1, (n - 1) * rules.hands)
    for seat in range(n):
        base = _SEATS + _WIDTH * ((seat - me) % n)
        place = facts.places[seat]
        out[base] = 1
        out[base + 1] = facts.cards_left[seat] / 13
        out[base + 2] = facts.passed[seat]
        out[base + 3] = place is not None
        out[base + 4] = 0 if place is None else place / n
        out[base + 5] = min(facts.scores[seat] / most, 1)
        out[base + 6] = turn == seat
    out[_F["players"].start + n - MIN_PLAYERS] = 1
    out[_F["bombs"].start + _BOMBS_INDEX[rules.bombs]] = 1
    flags = _F["flags"].start
    out[flags : flags + 3] = (rules.pass_reentry_with_bomb, rules.start_card_rule, rules.end_on_first_out)
    out[_F["scoring"].start + _SCORING_INDEX[rules.scoring]] = 1
    out[_F["tiebreak"].start + _TIEBREAK_INDEX[rules.tiebreak]] = 1
    out[_F["hands"].start] = rules.hands / 50
    progress = _F["hand_progress"].start
    out[progress] = min(facts.hand_number, rules.hands) / rules.hands
    out[progress + 1] = facts.hand_number > rules.hands
    out[_F["my_seat"].start + me] = 1
    return out


def encode_view(view: SeatView) -> npt.NDArray[np.float32]:
    """The encoding of the engine's seat view (the environment's observation)."""
    return encode(facts_of_view(view))


def encode_json(view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    """The encoding of a seat's JSON view from the server: equal to :func:`encode_view` of the same position."""
    return encode(facts_of_json(view))
