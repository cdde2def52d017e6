"""Hard's compiled loops (native/src/medium.rs, search.rs, chains.rs, endgame.rs) decide exactly as the Python bots.

The Python bots are the reference. Side by side on positions of seeded Medium
self-play under every preset and seat count, and on random hands and tables:
Medium's plans, leads and answers, the playouts' values and steps, the judging
of sampled hands (misses and work, the refusing action moved first), the deal
chains' deals and work, the endgame search's answers and nodes, and Hard's whole
choice for a seed must be identical. So a seed gives the same Hard move on either
build whenever the fixed counts, not the clock, end the search.

Without the compiled core these tests skip ("needs tienlen_native: ... run
`make native`"), and fail when ``TIENLEN_REQUIRE_TOOLS=1`` (CI builds the core first).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.bots import PRESETS_AND_SEATS, medium_positions, required_core
from tienlen.bots import compiled, endgame, hard, planner, policy, sampling
from tienlen.bots.hard import DEAL_EVENTS, choose_hard, hidden_cards_known, in_endgame
from tienlen.bots.infer import SeatActions, action_events, judge_for
from tienlen.bots.playouts import PythonPlayouts, playouts_for
from tienlen.bots.sampling import DealChains, sample_hands
from tienlen.engine import Bombs, SeatView
from tienlen.engine.cards import FULL_DECK
from tienlen.engine.combos import classify

CORE = required_core()
CASES = PRESETS_AND_SEATS


positions = medium_positions


@pytest.fixture
def python_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run the bots' Python paths inside the test (the compiled core stays at hand as ``CORE``), their chains at
    the compiled build's pace, so that both builds do the same work."""
    monkeypatch.setattr(compiled, "CORE", None)
    monkeypatch.setattr(sampling, "PYTHON_PACE", sampling.COMPILED_PACE)
    yield


@pytest.fixture
def compiled_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run the bots' compiled loops inside the test (whatever ``TIENLEN_ENGINE`` chose)."""
    monkeypatch.setattr(compiled, "CORE", CORE)
    yield


hands = st.integers(min_value=1, max_value=FULL_DECK)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_plans_are_the_planners(hand: int) -> None:
    """Medium's plan: the same cost (the same float) and the same pieces, weakest first."""
    assert CORE.plan_cost(hand) == planner.plan_cost(hand)
    assert tuple(CORE.plan_masks(hand)) == planner.plan_masks(hand)


@settings(max_examples=400, deadline=None)
@given(
    hand=hands,
    unseen=st.integers(min_value=0, max_value=FULL_DECK),
    counts=st.lists(st.integers(min_value=0, max_value=13), min_size=3, max_size=3),
    bombs=st.sampled_from(list(Bombs)),
)
def test_leads_are_mediums(hand: int, unseen: int, counts: list[int], bombs: Bombs) -> None:
    """Medium's lead (the endgame's boss pieces, a nearly-out opponent) from any hand, counts and unseen cards."""
    unseen &= ~hand
    cards_left = [hand.bit_count(), *counts]
    assert CORE.medium_lead(hand, cards_left, 0, bombs.value, unseen, None) == policy.policy_lead(
        hand, cards_left, 0, bombs, unseen, None
    )


@settings(max_examples=400, deadline=None)
@given(
    hand=hands,
    other=hands,
    counts=st.lists(st.integers(min_value=0, max_value=13), min_size=3, max_size=3),
    owner=st.integers(min_value=1, max_value=3),
    bombs=st.sampled_from(list(Bombs)),
    locked=st.booleans(),
)
def test_answers_are_mediums(hand: int, other: int, counts: list[int], owner: int, bombs: Bombs, locked: bool) -> None:
    """Medium's answer (rules §3-§4: beating and bombing; the urgency of a nearly-out seat) to a table from
    another hand's plan, pass-locked or not."""
    other &= ~hand
    pieces = planner.plan_masks(other)
    if not pieces:
        return
    table = classify(pieces[len(pieces) // 2])
    assert table is not None
    cards_left = [hand.bit_count(), *counts]
    found = CORE.medium_answer(hand, table.mask, owner, cards_left, 0, bombs.value, locked)
    assert found == policy.policy_answer(hand, table, owner, cards_left, 0, bombs, locked)


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_playouts_are_the_python_playouts(preset: str, players: int, compiled_bots: None) -> None:
    """Hard's playouts (rules §5: the flow of a hand to the first seat out): the same points and steps."""
    rng = random.Random(players)
    checked = 0
    for view, legal in positions(preset, players, range(3)):
        moves = [p.mask for p in legal.plays][:6] + ([0] if legal.can_pass else [])
        if not moves or not view.opponents:
            continue
        deal = sample_hands(view, rng)
        ours = playouts_for(view, 6.0).values(deal, moves)
        assert ours == PythonPlayouts(view, 6.0).values(deal, moves), (view.seat, deal, moves)
        checked += 1
    assert checked >= 20


def test_more_moves_than_the_output_buffer_holds_are_played_out_a_part_at_a_time(compiled_bots: None) -> None:
    """Points and steps come back in the core's output buffer: a list of moves longer than it holds is played out
    in parts, every move still valued as the Python playouts value it."""
    view, legal = next((v, g) for v, g in positions("standard", 4, range(1)) if g.plays and v.opponents)
    deal = sample_hands(view, random.Random(2))
    moves = [p.mask for p in legal.plays][:3]
    many = moves * (CORE.library.out_room // len(moves) + 5)
    expected = PythonPlayouts(view, 6.0).values(deal, moves)
    assert playouts_for(view, 6.0).values(deal, many) == expected * (len(many) // len(moves))


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_deal_chains_deal_and_judge_as_the_python_chains(
    preset: str, players: int, python_bots: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chains' deals, in order, and the actions they judged: the same on both builds (same seeds)."""
    checked = 0
    for index, (view, _) in enumerate(positions(preset, players, range(2))):
        events = action_events(view, DEAL_EVENTS)
        if index % 3 or not events or len(view.opponents) < 1:
            continue
        python = DealChains(view, events, random.Random(index), chains=3)
        with monkeypatch.context() as m:
            m.setattr(compiled, "CORE", CORE)
            ours = DealChains(view, events, random.Random(index), chains=3)
        for _ in range(9):
            assert ours.next_deal() == python.next_deal()
        assert ours.work == python.work > 0
        checked += 1
    assert checked >= 3


def per_deal_round(
    playouts: compiled.CompiledPlayouts,
    chains: compiled.CompiledDealChains,
    moves: list[int],
    totals: list[float],
    deals: int,
    progress: compiled.SearchProgress,
) -> bool:
    """A round of hard.compare_candidates drawn deal by deal from Python (the loop ``search_round`` runs in one
    call, without a clock)."""
    for _ in range(deals):
        if progress.seen > 0 and progress.steps + chains.work - progress.start_work > progress.budget:
            return True
        for i, (value, used) in enumerate(playouts.values(chains.next_deal(), moves)):
            totals[i] += value
            progress.steps += used
        progress.seen += 1
    return False


@pytest.mark.parametrize(("preset", "players"), CASES[::2])
def test_a_search_round_in_one_call_is_the_round_deal_by_deal(preset: str, players: int, compiled_bots: None) -> None:
    """Hard's halving round in one call of the core: the same deals, points, steps and stop (its step budget) as
    the same round drawn deal by deal; rounds follow one another as compare_candidates chains them."""
    checked = 0
    for index, (view, legal) in enumerate(positions(preset, players, range(2))):
        events = action_events(view, DEAL_EVENTS)
        moves = [p.mask for p in legal.plays][:4] + ([0] if legal.can_pass else [])
        if index % 3 or len(moves) < 2 or not view.opponents:
            continue
        twins = [DealChains(view, events, random.Random(index), chains=3).compiled for _ in range(2)]
        ours, theirs = (playouts_for(view, 20.0) for _ in range(2))
        assert isinstance(ours, compiled.CompiledPlayouts) and isinstance(theirs, compiled.CompiledPlayouts)
        budget = index * 37 % 900  # some rounds run out of steps, some do not
        one_call, per_deal = (compiled.SearchProgress(0, 0, 0, budget) for _ in range(2))
        totals_ours, totals_theirs = [0.0] * len(moves), [0.0] * len(moves)
        for deals in (3, 5, 8):
            assert twins[0] is not None and twins[1] is not None
            stopped = ours.search_round(twins[0], moves, totals_ours, deals, one_call, None)
            assert stopped == per_deal_round(theirs, twins[1], moves, totals_theirs, deals, per_deal)
            assert (totals_ours, one_call) == (totals_theirs, per_deal), (preset, players, index)
            assert twins[0].work == twins[1].work
        checked += 1
    assert checked >= 3


def test_a_search_round_draws_its_first_deal_whatever_the_clock(compiled_bots: None) -> None:
    """The clock stops a round only once a deal has been seen (as compare_candidates): out of time at once, the
    search's first round draws one deal, a later round none."""
    view, legal = next((v, g) for v, g in positions("standard", 4, range(1)) if len(g.plays) >= 2 and v.opponents)
    chains = DealChains(view, action_events(view, DEAL_EVENTS), random.Random(3), chains=2).compiled
    playouts = playouts_for(view, 20.0)
    assert chains is not None and isinstance(playouts, compiled.CompiledPlayouts)
    moves, totals = [legal.plays[0].mask, legal.plays[1].mask], [0.0, 0.0]
    progress = compiled.SearchProgress(0, 0, 0, 10**9)
    assert playouts.search_round(chains, moves, totals, 50, progress, 0.0)
    assert progress.seen == 1 and progress.steps > 0
    assert playouts.search_round(chains, moves, totals, 50, progress, 0.0) and progress.seen == 1
    assert not playouts.search_round(chains, moves, totals, 4, progress, None) and progress.seen == 5


@pytest.mark.parametrize(("preset", "players"), CASES[::2])
def test_judging_counts_misses_and_work_as_python(preset: str, players: int, python_bots: None) -> None:
    """Judging a hand by a seat's actions: the same misses, whether complete, and the actions judged, with
    the refusing action moved first on both (so later hands cost the same work)."""
    rng = random.Random(5)
    checked = 0
    for view, _ in positions(preset, players, range(2)):
        events = action_events(view, DEAL_EVENTS)
        seats = {ev.seat for ev in events}
        for seat in seats:
            mine = [ev for ev in events if ev.seat == seat]
            python = judge_for(mine, view)
            assert isinstance(python, SeatActions)
            ours = CORE.SeatActions([ev.as_tuple() for ev in mine], view.rules.bombs.value)
            for _ in range(4):
                hand = sample_hands(view, rng)[seat]
                limit = rng.randrange(3)
                assert ours.misses(hand, limit) == python.misses(hand, limit)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_endgame_search_is_the_python_search(players: int, python_bots: None) -> None:
    """The exact endgame (rules §5: first out): for every move the same forced / not / unknown, and the same
    positions searched, with a node limit that runs out on some deals."""
    checked = 0
    rng = random.Random(players)
    for view, _ in positions("standard", players, range(6)):
        if not in_endgame(view) or (hidden_cards_known(view) and rng.random() < 0.5):
            continue
        deal = sample_hands(view, rng)
        args = (deal, view.seat, view.table, view.table_seat, view.locked, view.rules.bombs)
        for limit in (40, 3000):
            python = endgame.forced_moves(*args, view.rules.pass_reentry_with_bomb, node_limit=limit)
            table = None if view.table is None else view.table.mask
            found, nodes = CORE.forced_moves(
                deal, view.seat, table, view.table_seat, view.locked, view.rules.bombs.value,
                view.rules.pass_reentry_with_bomb, limit, None,
            )  # fmt: skip
            assert (dict(found), nodes) == python
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("preset", "players"), CASES[::2])
def test_hards_choice_for_a_seed_is_the_same_on_both_builds(
    preset: str, players: int, compiled_bots: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same seed, same counts, same choice: Hard's whole decision (endgame, chains, halving) is the same with the
    compiled loops as with the Python ones (both at the same search counts and chain pace)."""
    monkeypatch.setattr(hard, "COMPILED_SEARCH_SCALE", 1)
    monkeypatch.setattr(sampling, "PYTHON_PACE", sampling.COMPILED_PACE)
    checked = 0
    for index, (view, legal) in enumerate(positions(preset, players, range(2))):
        if index % 4 or len(legal.plays) < 2:
            continue
        ours = choose_hard(view, legal, random.Random(index), iterations=40)
        with monkeypatch.context() as m:
            m.setattr(compiled, "CORE", None)
            python = choose_hard(view, legal, random.Random(index), iterations=40)
        assert ours == python, (preset, players, index)
        checked += 1
    assert checked >= 3


def test_the_compiled_build_searches_its_scale_times_the_counts(
    compiled_bots: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hard's fixed counts (playouts, step budget) are COMPILED_SEARCH_SCALE times larger with the compiled loops
    and its chains run at the compiled pace (the same search, faster, within the same clock); on the Python
    path both are as they were."""
    assert sampling.chain_pace() == sampling.COMPILED_PACE != sampling.PYTHON_PACE
    view, legal = next((v, g) for v, g in positions("standard", 4, range(1)) if len(g.plays) >= 2)
    searched: list[tuple[int, int]] = []

    def record(
        view: SeatView, cands: list[int], deals: object, playouts: int, budget: int, deadline: object, *starts: object
    ) -> int:
        searched.append((playouts, budget))
        return 0

    monkeypatch.setattr(hard, "compare_candidates", record)
    monkeypatch.setattr(hard, "candidates", lambda view, legal, medium: [legal.plays[0].mask, legal.plays[1].mask])
    monkeypatch.setattr(hard, "in_endgame", lambda view: False)
    choose_hard(view, legal, random.Random(1))
    monkeypatch.setattr(compiled, "CORE", None)
    choose_hard(view, legal, random.Random(1))
    assert sampling.chain_pace() == sampling.PYTHON_PACE
    scale = hard.COMPILED_SEARCH_SCALE
    assert scale > 1
    assert searched == [
        (scale * hard.DEFAULT_ITERATIONS, scale * hard.MAX_STEPS),
        (hard.DEFAULT_ITERATIONS, hard.MAX_STEPS),
    ]


def round_with_moves(moves: list[int]) -> bool:
    """A search round of seat 0 leading with a full hand, playing out these moves."""
    chains = CORE.DealChains(0, 0b111, [3, 3], 0b111000, [], "exact", [1], 0, 0, 0)
    playouts = CORE.Playouts(0, 2, None, None, 0, 0, None, "exact", True, False, 1.0)
    return playouts.search_round(chains, moves, [0.0] * len(moves), 2, compiled.SearchProgress(0, 0, 0, 99), None)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: CORE.plan_cost(1 << 52), "not a hand mask"),
        (lambda: CORE.plan_masks(-1), "not a hand mask"),
        (lambda: CORE.medium_lead(0b111, [13, 13], 2, "exact", 0, None), "seat 2 is not one of 2 seats"),
        (lambda: CORE.medium_lead(0b111, [13, 13], 0, "exact", 0, 60), "a lead needs cards in hand"),
        (lambda: CORE.medium_answer(0b111, 0b11000, 1, [13], 0, "exact", False), "2 to 4 seats' card counts"),
        (lambda: CORE.medium_answer(0b111, 0b1_0000_0001, 1, [13, 13], 0, "exact", False), "not a combination"),
        (lambda: CORE.Playouts(0, 5, None, None, 0, 0, None, "exact", True, False, 1.0), "players must be 2 to 4"),
        (lambda: CORE.Playouts(0, 2, 1, None, 0, 0, None, "exact", True, False, 1.0), "a table needs its owner"),
        (lambda: CORE.SeatActions([(0, None, None, False, 0, (13, 13), 0, 0)], "exact"), "a lead is a play"),
        (lambda: CORE.SeatActions([], "sometimes"), "unknown bombs rule"),
        (lambda: CORE.DealChains(0, 1, [1, 1], 2, [], "exact", [], 0, 0, 0), "a chain needs a seed"),
        (lambda: CORE.forced_moves([1, 1], 0, None, None, 0, "exact", True, 10, None), "the hands share a card"),
        (lambda: CORE.forced_moves([1, 2], 0, None, None, 0, "exact", True, 10, -1.0), "seconds must be a finite"),
        (lambda: round_with_moves([1 << 51 | 1]), "is not a play or pass of seat 0"),
    ],
)
def test_bad_input_to_the_compiled_loops_is_a_value_error(call: Callable[[], object], message: str) -> None:
    """Every refusal of the compiled loops is a ValueError with the core's message (the C side answers an error
    code; nothing is computed from bad input)."""
    with pytest.raises(ValueError, match=message):
        call()
