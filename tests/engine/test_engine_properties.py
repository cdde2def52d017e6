"""Property tests: random legal games, the legal-play generator against a brute-force oracle,
serialization round trips and what the views reveal."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tienlen_client.botkit import view_legal_masks

from tests.support.answers import public_answer, seat_answer
from tienlen.engine import (
    Bombs,
    Combination,
    Match,
    RuleSet,
    Scoring,
    Status,
    Tiebreak,
    beats,
    bomb_beats,
    classify,
    lead_masks,
    mask_of,
    match_from_dict,
    match_to_dict,
    parse_cards,
    public_view,
    resolve_rules,
    seat_view,
)
from tienlen.engine.cards import CARD_TEXT

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

# ----- an independent oracle of docs/rules.md §2-§4 -------------------------------

TWO = 12


def oracle_classify(cards: list[int]) -> tuple[str, int, int] | None:
    """(kind, length, deciding card) straight from docs/rules.md §2, or None."""
    if not cards:
        return None
    counts = Counter(c // 4 for c in cards)
    ranks = sorted(counts)
    top = max(cards)
    if len(ranks) == 1:
        return ({1: "single", 2: "pair", 3: "triple", 4: "four_of_a_kind"}[len(cards)], len(cards), top)
    if TWO in ranks or len(ranks) < 3 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return None
    if all(v == 1 for v in counts.values()):
        return ("straight", len(cards), top)
    if all(v == 2 for v in counts.values()):
        return ("consecutive_pairs", len(ranks), top)
    return None


def table_label(combo: tuple[str, int, int]) -> str | None:
    kind, length, top = combo
    if kind in ("single", "pair", "triple") and top // 4 == TWO:
        return f"{kind}_of_2s"
    if kind == "four_of_a_kind":
        return "four_of_a_kind"
    if kind == "consecutive_pairs":
        return f"{length}_pairs"
    return None


def play_label(combo: tuple[str, int, int]) -> str | None:
    kind, length, _ = combo
    if kind == "four_of_a_kind":
        return "four_of_a_kind"
    if kind == "consecutive_pairs":
        return f"{length}_pairs"
    return None


def _ladder_long(n: int) -> set[str]:
    return {"single_of_2s", "pair_of_2s", "four_of_a_kind"} | {f"{k}_pairs" for k in range(3, n)}


# docs/rules.md §4, row by row: what each bomb beats.
BOMB_ROWS: dict[str, dict[str, set[str]]] = {
    "exact": {
        "four_of_a_kind": {"single_of_2s"},
        "3_pairs": {"single_of_2s"},
        "4_pairs": {"pair_of_2s"},
        "5_pairs": {"triple_of_2s"},
        "6_pairs": set(),
    },
    "classic": {
        "four_of_a_kind": {"single_of_2s"},
        "3_pairs": {"single_of_2s"},
        "4_pairs": {"single_of_2s", "pair_of_2s"},
        "5_pairs": set(),
        "6_pairs": set(),
    },
    "ladder": {
        "four_of_a_kind": {"single_of_2s", "pair_of_2s", "3_pairs"},
        "3_pairs": {"single_of_2s"},
        "4_pairs": _ladder_long(4),
        "5_pairs": _ladder_long(5),
        "6_pairs": _ladder_long(6),
    },
    "off": {},
}


def oracle_bomb(play: tuple[str, int, int], table: tuple[str, int, int], bombs: str) -> bool:
    p, t = play_label(play), table_label(table)
    return p is not None and t is not None and t in BOMB_ROWS[bombs].get(p, set())


def oracle_ordinary(play: tuple[str, int, int], table: tuple[str, int, int]) -> bool:
    return play[0] == table[0] and play[1] == table[1] and play[2] > table[2]


def oracle_reentry(table: tuple[str, int, int], bombs: str) -> bool:
    """A single, pair or triple of 2s that some bomb row of this rule beats (docs/rules.md §5)."""
    label = table_label(table)
    return label is not None and label.endswith("_of_2s") and any(label in row for row in BOMB_ROWS[bombs].values())


def bits(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def oracle_legal(match: Match) -> set[int]:
    """Every subset of the hand on turn that docs/rules.md allows, by brute force."""
    seat = match.turn
    assert seat is not None
    hand = bits(match.hands[seat])
    table = None if match.table is None else oracle_classify(bits(match.table.mask))
    locked = match.is_locked(seat)
    bombs = match.rules.bombs.value
    out: set[int] = set()
    for pick in range(1, 1 << len(hand)):
        chosen = [c for k, c in enumerate(hand) if pick >> k & 1]
        combo = oracle_classify(chosen)
        if combo is None:
            continue
        m = sum(1 << c for c in chosen)
        if table is None:
            ok = match.start_card is None or match.start_card in chosen
        elif locked:
            ok = oracle_bomb(combo, table, bombs)
        else:
            ok = oracle_ordinary(combo, table) or oracle_bomb(combo, table, bombs)
        if ok:
            out.add(m)
    return out


def test_oracle_classify_agrees_with_engine_on_random_subsets() -> None:
    """Random subsets of a few neighbouring ranks plus the 2s: both classifiers agree."""
    rng = random.Random(5)
    for _ in range(4000):
        base = rng.randint(0, 11) * 4
        pool = [*range(base, min(base + 20, 48)), 48, 49, 50, 51]
        chosen = rng.sample(pool, rng.randint(0, min(10, len(pool))))
        engine = classify(sum(1 << c for c in chosen))
        expected = oracle_classify(chosen)
        assert (None if engine is None else (engine.kind.value, engine.length, engine.top)) == expected, chosen


# ----- random legal games and their invariants ----------------------------------


def choose(match: Match, rng: random.Random, pass_chance: float = 0.3) -> int | None:
    """A random legal action for the seat on turn: a play mask, or None for a pass."""
    seat = match.turn
    assert seat is not None
    plays = match.legal_masks()
    can_pass = match.can_pass(seat)
    assert plays or can_pass, "the seat on turn has no legal action"
    if can_pass and (not plays or rng.random() < pass_chance):
        return None
    return rng.choice(plays)


def apply(match: Match, action: int | None) -> list[dict[str, Any]]:
    seat = match.turn
    assert seat is not None
    events = match.pass_turn(seat) if action is None else match.play(seat, action)
    return [e.to_dict() for e in events]


def expected_outcome(rules: RuleSet, completed: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> tuple[list[int], int]:
    """Winners and the number of hands the match must last, recomputed from docs/rules.md §6."""
    n = rules.players
    if rules.scoring is Scoring.NONE:
        return [completed[0][0][0]], 1
    totals = [0] * n
    hands = rules.hands
    for places, _ in completed[:hands]:
        for place, seat in enumerate(places):
            totals[seat] += n - 1 - place if rules.scoring is Scoring.PLACES else int(place == 0)
    top = [s for s in range(n) if totals[s] == max(totals)]
    if len(top) == 1:
        return top, hands
    if rules.tiebreak is Tiebreak.BEST_FINISH:
        last = completed[hands][0]
        return [min(top, key=last.index)], hands + 1
    for extra in range(1, 11):
        places = completed[hands + extra - 1][0]
        for place, seat in enumerate(places):
            totals[seat] += n - 1 - place if rules.scoring is Scoring.PLACES else int(place == 0)
        top = [s for s in range(n) if totals[s] == max(totals)]
        if len(top) == 1:
            return top, hands + extra
    return top, hands + 10


class GameChecker:
    """Checks the invariants of docs/rules.md after every action of a game."""

    def __init__(self, match: Match, events: list[dict[str, Any]]) -> None:
        self.match = match
        self.n = match.players
        self.dealt = 0
        self.hand_outs: list[int] = []
        self.results: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self.ended = False
        self.check(events)

    def _hand_started(self, event: dict[str, Any]) -> None:
        m = self.match
        self.dealt = 0
        for h in m.hands:
            assert self.dealt & h == 0
            self.dealt |= h
        self.hand_outs = []
        if event["hand_number"] == 1:
            lowest = (self.dealt & -self.dealt).bit_length() - 1
            assert m.hands[event["leader"]] >> lowest & 1
            assert m.start_card == (lowest if m.rules.start_card_rule else None)
        else:
            assert event["leader"] == self.results[-1][0][0]
            assert m.start_card is None
            assert [h.bit_count() for h in m.hands] == [13] * self.n

    def _hand_ended(self, event: dict[str, Any]) -> None:
        places, points = tuple(event["places"]), tuple(event["points"])
        assert sorted(places) == list(range(self.n)), "each seat takes exactly one place"
        assert list(places) == self.hand_outs
        scoring = self.match.rules.scoring
        assert sum(points) == {Scoring.PLACES: self.n * (self.n - 1) // 2, Scoring.WINS: 1, Scoring.NONE: 0}[scoring]
        for place, seat in enumerate(places):
            expected = {Scoring.PLACES: self.n - 1 - place, Scoring.WINS: int(place == 0), Scoring.NONE: 0}[scoring]
            assert points[seat] == expected
        self.results.append((places, points))

    def check(self, events: list[dict[str, Any]]) -> None:
        m = self.match
        for k, event in enumerate(events):
            if event["type"] == "hand_started":
                self._hand_started(event)
            elif event["type"] == "went_out":
                assert event["place"] == len(self.hand_outs) + 1
                assert event["seat"] not in self.hand_outs
                self.hand_outs.append(event["seat"])
            elif event["type"] == "hand_ended":
                self._hand_ended(event)
                assert events[k + 1]["type"] in ("hand_started", "match_ended")
            elif event["type"] == "match_ended":
                assert not self.ended, "the match ended twice"
                self.ended = True
                assert k == len(events) - 1
                winners, length = expected_outcome(m.rules, self.results)
                assert len(self.results) == length
                assert event["winners"] == winners
                assert event["winner"] == (winners[0] if len(winners) == 1 else None)
                assert event["scores"] == [sum(p[1][s] for p in self.results) for s in range(self.n)]
        # cards: nothing lost, nothing duplicated
        held = 0
        count = 0
        for h in m.hands:
            assert held & h == 0, "two hands share a card"
            held |= h
            count += h.bit_count()
        for _, mk in m.log:
            assert held & mk == 0
            held |= mk
            count += mk.bit_count()
        if m.status is Status.PLAYING:
            assert held == self.dealt and count == self.dealt.bit_count()
            seat = m.turn
            assert seat is not None and m.hands[seat], "the turn is on a seat without cards"
            assert m.places == self.hand_outs
            if m.is_locked(seat):
                assert m.table is not None and m.rules.pass_reentry_with_bomb
                table = oracle_classify(bits(m.table.mask))
                assert table is not None and oracle_reentry(table, m.rules.bombs.value)
            legal = m.legal_masks()
            assert len(legal) == len(set(legal)), "duplicate legal plays"
            for mk in legal:
                combo = classify(mk)
                assert combo is not None and mk & ~m.hands[seat] == 0
        else:
            assert m.turn is None and m.legal_masks() == []
        # the outcome checks above run on the match_ended event: a finished match must have sent it
        assert self.ended is (m.status is Status.FINISHED)
        self.check_views()

    def check_views(self) -> None:
        m = self.match
        hand_cards = [set(CARD_TEXT[i] for i in bits(h)) for h in m.hands]
        public = public_view(m)
        assert public.played & (m.hands[0] | m.hands[-1] | sum(m.hands)) == 0, "a played card is still in a hand"
        wire = public_answer(m)
        json.dumps(wire)
        assert not _card_strings(_in_play(wire)) & set().union(*hand_cards), "the public view shows a hand card"
        assert len(wire["hands"]) == len(m.completed), "a deal is shown only for a hand that is over"
        for seat in range(self.n):
            view = seat_view(m, seat)
            assert view.hand == m.hands[seat] and view.public == public
            wire = seat_answer(m, seat)
            assert wire["cards"] == [CARD_TEXT[i] for i in bits(m.hands[seat])]
            others = set().union(*(hand_cards[s] for s in range(self.n) if s != seat))
            assert not _card_strings(_in_play(wire)) & others, "a seat view shows another seat's card"
            # a seat's own view is enough to know its legal plays, exactly as the referee does
            expected = m.legal_masks() if seat == m.turn else []
            assert view_legal_masks(json.loads(json.dumps(wire))) == expected


def _in_play(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without the deals of the hands that are over (``hands[].dealt``: public once a hand ended)."""
    return answer | {"hands": [{k: v for k, v in hand.items() if k != "dealt"} for hand in answer["hands"]]}


def _card_strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if value in CARD_TEXT else set()
    if isinstance(value, dict):
        return set().union(set(), *(_card_strings(k) | _card_strings(v) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(_card_strings(v) for v in value))
    return set()


def run_game(rules: RuleSet, seed: int, max_actions: int = 5000) -> Iterator[tuple[Match, random.Random]]:
    """Play a random legal game to its end, checking every action; yield after each action."""
    rng = random.Random(seed)
    match, events = Match.new(rules, rng)
    checker = GameChecker(match, [e.to_dict() for e in events])
    for _ in range(max_actions):
        if match.status is Status.FINISHED:
            return
        checker.check(apply(match, choose(match, rng)))
        yield match, rng
    raise AssertionError("the game did not end")


GAME_RULES = [
    pytest.param(preset, players, id=f"{preset}-{players}p")
    for preset in ("standard", "classic", "ladder")
    for players in (2, 3, 4)
]


@pytest.mark.parametrize(("preset", "players"), GAME_RULES)
@settings(max_examples=3, deadline=None, database=None)
@given(seed=SEEDS)
def test_random_games_keep_every_invariant(preset: str, players: int, seed: int) -> None:
    rules = resolve_rules({"preset": preset}, players=players)
    for _ in run_game(rules, seed):
        pass


@settings(max_examples=12, deadline=None, database=None)
@given(
    seed=SEEDS,
    players=st.integers(2, 4),
    bombs=st.sampled_from(list(Bombs)),
    scoring=st.sampled_from(["places", "wins"]),
    hands=st.integers(1, 3),
    tiebreak=st.sampled_from(list(Tiebreak)),
    reentry=st.booleans(),
    first_out=st.booleans(),
    start_rule=st.booleans(),
)
def test_random_games_under_any_rules(
    seed: int,
    players: int,
    bombs: Bombs,
    scoring: str,
    hands: int,
    tiebreak: Tiebreak,
    reentry: bool,
    first_out: bool,
    start_rule: bool,
) -> None:
    rules = resolve_rules(
        {
            "bombs": bombs.value,
            "scoring": scoring,
            "hands": hands,
            "tiebreak": tiebreak.value,
            "pass_reentry_with_bomb": reentry,
            "end_on_first_out": first_out,
            "start_card_rule": start_rule,
        },
        players=players,
    )
    for _ in run_game(rules, seed):
        pass


# ----- serialization ------------------------------------------------------------


@settings(max_examples=6, deadline=None, database=None)
@given(seed=SEEDS, preset=st.sampled_from(["standard", "classic", "ladder"]), players=st.integers(2, 4))
def test_serialization_round_trips_and_continues_identically(seed: int, preset: str, players: int) -> None:
    rules = resolve_rules({"preset": preset}, players=players)
    picker = random.Random(seed ^ 0x5EED)
    continued = 0
    finished = False
    for actions, (match, _) in enumerate(run_game(rules, seed), start=1):
        # always after the first action (no hand can end with it), then at random positions
        if actions > 1 and picker.random() > 0.08 and match.status is Status.PLAYING:
            continue
        data = match_to_dict(match)
        text = json.dumps(data)
        copy = match_from_dict(json.loads(text))
        assert copy == match
        assert match_to_dict(copy) == data
        assert copy.legal_masks() == match.legal_masks()
        if match.status is Status.FINISHED:
            assert copy.outcome == match.outcome
            finished = True
            break
        continued += 1
        # continue a side copy of the original and the rebuilt copy with the same choices
        original = match_from_dict(data)
        assert original == match
        a_rng, b_rng = random.Random(seed + 1), random.Random(seed + 1)
        for _ in range(25):
            if original.status is Status.FINISHED:
                break
            assert apply(original, choose(original, a_rng)) == apply(copy, choose(copy, b_rng))
            assert original == copy
        assert match_to_dict(original) == match_to_dict(copy)
    assert continued >= 1, "a match in play was rebuilt and continued"
    assert finished, "the finished match was rebuilt"


# ----- legal plays = acceptance, against the oracle -----------------------------


def small_deal(rng: random.Random, players: int) -> list[list[str]]:
    """Up to 8 cards a seat from a block of neighbouring ranks (often with the 2s), so pairs,
    runs and bombs are common."""
    low = rng.randint(0, 8)
    ranks = list(range(low, min(low + rng.randint(3, 5), 12)))
    if rng.random() < 0.7:
        ranks.append(TWO)
    deck = [r * 4 + s for r in ranks for s in range(4)]
    rng.shuffle(deck)
    out: list[list[str]] = []
    for _ in range(players):
        size = rng.randint(1, min(8, len(deck) - (players - len(out) - 1)))
        out.append([CARD_TEXT[c] for c in deck[:size]])
        deck = deck[size:]
    return out


def planted_hand(rng: random.Random) -> int:
    """A hand built around a bomb: a run of 3-6 pairs or four of a kind, plus a few loose cards."""
    if rng.random() < 0.6:
        pairs = rng.randint(3, 6)
        low = rng.randint(0, 12 - pairs)
        hand = 0
        for rank in range(low, low + pairs):
            for suit in rng.sample(range(4), 2):
                hand |= 1 << (rank * 4 + suit)
    else:
        rank = rng.randint(0, 12)
        hand = 15 << (rank * 4)
    for _ in range(rng.randint(0, min(2, 12 - hand.bit_count()))):
        hand |= 1 << rng.randrange(52)
    return hand


def check_legal_equals_acceptance(match: Match) -> None:
    seat = match.turn
    assert seat is not None
    legal = match.legal_masks()
    assert len(legal) == len(set(legal))
    legal_set = set(legal)
    assert legal_set == oracle_legal(match)
    hand = bits(match.hands[seat])
    for pick in range(1 << len(hand)):
        chosen = [c for k, c in enumerate(hand) if pick >> k & 1]
        mk = sum(1 << c for c in chosen)
        accepted = match.can_play(seat, mk)
        assert accepted is (mk in legal_set), [CARD_TEXT[c] for c in chosen]
        assert match.can_play(seat, [CARD_TEXT[c] for c in reversed(chosen)]) is accepted
    for mk in legal:
        combo = classify(mk)
        assert combo is not None
        if match.table is not None:
            assert beats(combo, match.table, match.rules.bombs)
            if match.is_locked(seat):
                assert bomb_beats(combo, match.table, match.rules.bombs)
    plays = match.legal_plays()
    assert plays.seat == seat and [c.mask for c in plays.plays] == legal
    wire = seat_answer(match, seat)
    assert view_legal_masks(wire) == legal, "the seat's view alone gives its legal plays"
    assert plays.can_pass is (match.table is not None)


@settings(max_examples=60, deadline=None, database=None)
@given(
    seed=SEEDS,
    players=st.integers(2, 4),
    bombs=st.sampled_from(list(Bombs)),
    reentry=st.booleans(),
    steps=st.integers(0, 14),
)
def test_legal_plays_equal_acceptance_on_played_positions(
    seed: int, players: int, bombs: Bombs, reentry: bool, steps: int
) -> None:
    rng = random.Random(seed)
    rules = resolve_rules({"bombs": bombs.value, "pass_reentry_with_bomb": reentry, "hands": 1}, players=players)
    match, _ = Match.new(rules, rng, deal=small_deal(rng, players))
    for _ in range(steps + 1):
        if match.status is Status.FINISHED:
            break
        check_legal_equals_acceptance(match)
        apply(match, choose(match, rng, pass_chance=0.4))


TABLE_KINDS = ["single", "pair", "triple", "four_of_a_kind", "straight", "consecutive_pairs"]


def classified(mask: int) -> Combination:
    """The combination of a mask that must be one (fails the test otherwise)."""
    combo = classify(mask)
    assert combo is not None, mask
    return combo


@settings(max_examples=400, deadline=None, database=None)
@given(
    seed=SEEDS,
    bombs=st.sampled_from(list(Bombs)),
    locked=st.booleans(),
    table_kind=st.sampled_from(["twos", "twos", "twos", "none", *TABLE_KINDS]),
    planted=st.booleans(),
)
def test_legal_plays_equal_acceptance_on_built_positions(
    seed: int, bombs: Bombs, locked: bool, table_kind: str, planted: bool
) -> None:
    """Seat 1 on turn facing a table of seat 0 (often 2s or a bomb), possibly locked for a re-entry turn."""
    rng = random.Random(seed)
    rules = resolve_rules({"bombs": bombs.value, "hands": 1}, players=2)
    hand = planted_hand(rng) if planted else mask_of(parse_cards(small_deal(rng, 2)[1]))
    low = rng.randint(0, 7)
    window = sum(15 << (4 * r) for r in range(low, low + 5))  # keeps the choice of tables small
    rest = ((1 << 52) - 1) & ~hand
    table = None
    if table_kind == "twos":
        options = [m for m in lead_masks(rest & (15 << 48)) if m.bit_count() < 4]
    elif table_kind != "none":
        options = [m for m in lead_masks(rest & window) if classified(m).kind.value == table_kind]
        options = [m for m in options if m.bit_count() <= 8]
    else:
        options = []
    if options:
        table = classify(rng.choice(options))
    used = hand | (0 if table is None else table.mask)
    other = next(1 << c for c in range(52) if not used >> c & 1)
    match = Match(
        rules=rules,
        deal_seed=0,
        hand_number=1,
        hands=[other, hand],
        turn=1,
        table=table,
        table_seat=None if table is None else 0,
        locked=2 if locked and table is not None else 0,
        scores=[0, 0],
    )
    check_legal_equals_acceptance(match)
