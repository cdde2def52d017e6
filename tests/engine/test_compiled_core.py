"""The compiled core (native/, docs/engine.md "The compiled core") plays exactly as the Python engine.

The Python engine is the reference. Seeded random matches under every preset and seat count, and
the variants no preset holds, run side by side (:mod:`tienlen.engine.crosscheck`): at every
position the legal plays of the pure Python generator, of the engine in use and of the same hand
inside the core (the same plays in the same order: seeded picks among them agree), and after
every action the events, must be identical; the places of every hand and the outcome of every
match on either engine too. Then hypothesis searches random hands and tables for a difference.

Without the compiled core these tests skip ("needs tienlen_native: ... run `make native`"), and
fail when ``TIENLEN_REQUIRE_TOOLS=1`` (CI builds the core first).
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.tools import require_tool
from tienlen.engine import Bombs, Match, RuleSet, Status, combos, legal, resolve_rules
from tienlen.engine import match as match_module
from tienlen.engine.accel import BUILD_HINT, KIND_NUMBERS, CompiledCore, load_core
from tienlen.engine.crosscheck import CASES, SEAT_COUNTS, Mismatch, case_rules, cross_check
from tienlen.engine.crosscheck import main as crosscheck_main
from tienlen.engine.kinds import Kind
from tienlen.engine.rules import PRESET_NAMES

_CORE = load_core()
require_tool("tienlen_native", _CORE is not None, f"the compiled core is not built: {BUILD_HINT}")
assert _CORE is not None
CORE: CompiledCore = _CORE
COMPILED = legal.compiled(CORE)

# Positions a case walks through: 13 cases x 40,000 = 520,000 in about 5 s; the 9 cases of a preset at a seat
# count alone give 360,000 (the issue asks 100,000 in CI). `python -m tienlen.engine.crosscheck --positions N`
# runs as many as asked.
POSITIONS = 40_000


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{p}-{n}-{'-'.join(o) or 'as-is'}" for p, n, o in CASES])
def test_legal_plays_and_events_are_the_python_engines(case: int) -> None:
    """Rules §2-§5 (combinations, beating, bombs, the flow of a hand): identical legal plays, events and places."""
    assert cross_check(CORE, case_rules(CASES[case]), case, POSITIONS) >= POSITIONS


class Skewed:
    """The core with one wrong answer: every straight's deciding card one too high."""

    def __getattr__(self, name: str) -> Any:
        return getattr(CORE, name)

    def classify(self, mask: int) -> tuple[int, int, int] | None:
        found = CORE.classify(mask)
        return found if found is None or found[0] != KIND_NUMBERS[Kind.STRAIGHT] else (found[0], found[1], found[2] + 1)


def test_a_difference_is_reported_with_the_rules_and_the_seed() -> None:
    """The cross-check fails on the first difference, naming what differed, the rule set and the seed."""
    with pytest.raises(Mismatch, match=r"^kinds differ \({'preset': 'standard'.*}, seed 5\): python"):
        cross_check(cast(CompiledCore, Skewed()), resolve_rules(), 5, POSITIONS)


def play_match(rules: RuleSet, seed: int) -> tuple[list[dict[str, Any]], Any]:
    """One seeded random match to its end: every event and the outcome."""
    rng = random.Random(seed)
    match, events = Match.new(rules, rng)
    log = [e.to_dict() for e in events]
    while match.status is Status.PLAYING:
        assert match.turn is not None
        plays = match.legal_masks()
        pick = rng.randrange(len(plays) + (match.table is not None))
        done = match.play(match.turn, plays[pick]) if pick < len(plays) else match.pass_turn(match.turn)
        log += [e.to_dict() for e in done]
    return log, match.outcome


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_whole_matches_end_alike_on_either_engine(monkeypatch: pytest.MonkeyPatch, preset: str) -> None:
    """Rules §6 (points, match end, tie-breaks): the match on each engine gives the same events and outcome."""
    for players in SEAT_COUNTS:
        rules = resolve_rules({"preset": preset}, players=players)
        for seed in range(3):
            results = []
            for engine in (legal.PYTHON, COMPILED):
                monkeypatch.setattr(match_module, "legal_masks_of", engine.legal_masks_of)
                results.append(play_match(rules, seed))
            assert results[0] == results[1]


def test_the_engine_calls_the_core_when_it_runs_compiled() -> None:
    """The switch (docs/engine.md): on the compiled engine the match, the bots and the env call the core."""
    from tienlen.bots import policy, sim
    from tienlen.engine import accel

    if accel.CORE is None:
        assert legal.legal_masks_of is legal.PYTHON.legal_masks_of
        return
    core = accel.CORE
    assert vars(match_module)["legal_masks_of"] is core.legal_masks
    assert vars(sim)["answer_masks"] is vars(policy)["answer_masks"] is core.answer_masks
    assert vars(sim)["bomb_answers"] is vars(policy)["bomb_answers"] is core.bomb_answers
    assert combos._classify is combos._compiled_classify


def test_random_hands_in_the_core_play_to_the_end() -> None:
    """Random self-play inside the core: every hand ends, with a plausible number of actions."""
    for players in SEAT_COUNTS:
        for bombs in Bombs:
            hands, actions = CORE.random_hands(players, bombs, True, True, False, players, 200)
            assert hands == 200 and 200 * players * 3 < actions < 200 * 400


def test_bad_input_is_refused_with_a_value_error() -> None:
    """The core refuses what is not a hand, a combination, a rule or a legal action, as the engine would."""
    single = combos.classify(1)
    assert single is not None
    with pytest.raises(ValueError, match="not a hand mask"):
        CORE.lead_masks(1 << 52)
    with pytest.raises(ValueError, match="unknown bombs rule"):
        CORE.answer_masks(2, single, "sometimes")
    with pytest.raises(ValueError, match="not a hand mask"):  # the plain calls' two halves hold 52 bits, no more
        CORE.legal_masks(1 << 52 | 1, None, Bombs.EXACT, False, None)
    with pytest.raises(ValueError, match="not a hand mask"):
        CORE.legal_masks(2, dataclasses.replace(single, mask=1 << 60 | 1), Bombs.EXACT, False, None)
    with pytest.raises(ValueError, match="not a hand mask"):
        CORE.bomb_answers(2, dataclasses.replace(single, mask=-1), Bombs.EXACT)
    with pytest.raises(ValueError, match="start card"):
        CORE.legal_masks(1, None, Bombs.EXACT, True, 52)
    assert CORE.classify(1 << 64 | 1) is None
    hand = CORE.Hand([1, 2], 0, Bombs.EXACT, True, False, 0)
    with pytest.raises(ValueError, match="not a legal play"):
        hand.play(2)
    with pytest.raises(ValueError, match="no table"):
        hand.pass_turn()
    with pytest.raises(ValueError, match="already installed"):
        CORE.install_bomb_table([("exact", [])])


@pytest.mark.parametrize(("suits", "ranks"), [((0, 1), 8), ((0, 1, 2), 7)])
def test_long_listings_come_back_whole(suits: tuple[int, ...], ranks: int) -> None:
    """Rules §2: every lead of a hand with hundreds or thousands of them (past the views of the output buffer, and
    past the buffer itself), the same list as the Python engine's, for leads and for legal plays on a lead."""
    hand = sum(1 << (rank * 4 + suit) for rank in range(ranks) for suit in suits)
    expected = legal.PYTHON.lead_masks(hand)
    assert len(expected) > 1000
    assert CORE.lead_masks(hand) == expected
    assert CORE.legal_masks(hand, None, Bombs.EXACT, False, None) == expected


def test_threads_calling_the_core_at_once_each_get_their_own_answers() -> None:
    """The server runs bots in threads: answers come back through per-thread buffers, so threads calling the core
    at once (switching as often as the interpreter allows) each get exactly what a lone call gives."""
    rng = random.Random(11)
    single = combos.classify(1 << 20)
    cases = [
        (sum(1 << c for c in rng.sample(range(52), 13)), rng.choice([None, single]), rng.choice(list(Bombs)))
        for _ in range(100)
    ]
    expected = [CORE.legal_masks(hand, table, bombs, False, None) for hand, table, bombs in cases]

    def agrees(offset: int) -> bool:
        picks = [(i * 7 + offset) % len(cases) for i in range(3000)]
        return all(CORE.legal_masks(*cases[i], False, None) == expected[i] for i in picks)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(4) as pool:
            assert all(pool.map(agrees, range(4)))
    finally:
        sys.setswitchinterval(interval)


# ----- hypothesis: random hands against random tables ----------------------------------

CARDS = st.lists(st.integers(0, 51), min_size=1, max_size=20, unique=True).map(lambda cs: sum(1 << c for c in cs))


@settings(max_examples=400, deadline=None)
@given(hand=CARDS, source=CARDS, data=st.data(), bombs=st.sampled_from(list(Bombs)), locked=st.booleans())
def test_no_hand_and_table_tell_the_engines_apart(
    hand: int, source: int, data: st.DataObject, bombs: Bombs, locked: bool
) -> None:
    """Rules §2-§4: for any hand and any table, the same combinations, legal plays and bombs in both engines."""
    leads = legal.PYTHON.lead_masks(source)
    assert COMPILED.lead_masks(source) == leads
    assert COMPILED.lead_masks(hand) == legal.PYTHON.lead_masks(hand)
    for mask in (hand, source, *leads[:50]):
        expected = combos.python_classify(mask)
        found = CORE.classify(mask)
        assert found == (None if expected is None else (KIND_NUMBERS[expected.kind], expected.length, expected.top))
    table = combos.python_classify(data.draw(st.sampled_from(leads))) if leads else None
    start = data.draw(st.sampled_from([None, *(c for c in range(52) if hand >> c & 1)]))
    expected_legal = legal.PYTHON.legal_masks_of(hand, table, bombs, locked, start)
    assert COMPILED.legal_masks_of(hand, table, bombs, locked, start) == expected_legal
    if table is not None:
        assert COMPILED.answer_masks(hand, table, bombs) == legal.PYTHON.answer_masks(hand, table, bombs)
        assert COMPILED.bomb_answers(hand, table, bombs) == legal.PYTHON.bomb_answers(hand, table, bombs)


def test_the_crosscheck_command_prints_what_it_compared(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m tienlen.engine.crosscheck` (docs/engine.md): every case, the positions compared, no difference."""
    crosscheck_main(["--positions", "50", "--seed", "7"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["cases"] == len(CASES) and figures["positions"] >= 50 * len(CASES) and figures["differences"] == 0
