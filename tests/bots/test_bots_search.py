"""Hard's machinery: the playout simulator follows the engine, sampling respects what is known, budgets hold."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from tests.support.bots import Advance, MatchFactory, assert_hands_fit
from tienlen.bots import bot_rng, choose, hard, playouts
from tienlen.bots.medium import choose_medium
from tienlen.bots.playouts import start_simulation
from tienlen.bots.sampling import DealChain, sample_hands
from tienlen.bots.sim import SimHand
from tienlen.engine import PRESET_NAMES, Match, SeatView, seat_view
from tienlen.engine.match import LegalPlays
from tienlen.engine.rules import resolve_rules


def _sim_of(match: Match) -> SimHand:
    """The simulator as Hard starts it, from the seat on turn's view and the true hands."""
    assert match.turn is not None
    return start_simulation(seat_view(match, match.turn), list(match.hands))


def _played(match: Match) -> int:
    """Every card played so far in the current hand."""
    played = 0
    for _, mask in match.log:
        played |= mask
    return played


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("end_on_first_out", [False, True])
def test_simulator_follows_the_engine_turn_by_turn(
    preset: str, players: int, end_on_first_out: bool, make_match: MatchFactory
) -> None:
    """Battles, pass locks, bomb re-entry, going out and hand end (docs/rules.md §5) match the engine.

    Before every action, on leads as on answers, the simulator holds the engine's turn, table,
    locks, hands, played cards and start card, and its Medium move is one the engine accepts;
    on an answer its legal answers are the engine's.
    """
    leads = answers = 0
    for seed in range(4):
        match = make_match(preset, players, seed, end_on_first_out=end_on_first_out)
        sim = _sim_of(match)
        rng = random.Random(seed)
        while match.outcome is None:
            assert match.turn is not None
            assert match.turn == sim.turn
            assert (sim.table, sim.table_seat, sim.locked) == (match.table, match.table_seat, match.locked)
            assert sim.hands == match.hands
            assert sim.played == _played(match)
            assert sim.start_card == match.start_card
            move = sim.policy_move()
            if match.table is None:
                leads += 1
                assert sim.answers() == []
                assert move in match.legal_masks(), "a legal lead (an opening lead includes the start card)"
            else:
                answers += 1
                assert sorted(sim.answers()) == sorted(match.legal_masks())
                assert move in match.legal_masks() or (move == 0 and match.can_pass(match.turn))
            masks = match.legal_masks()
            if match.table is not None and (not masks or rng.random() < 0.4):
                match.pass_turn(match.turn)
                sim.pass_turn()
            else:
                mask = rng.choice(masks)
                match.play(match.turn, mask)
                sim.play(mask)
            assert sim.places == match.places or match.outcome is not None
        assert sim.done
        assert sim.places == list(match.completed[0].places)
    assert leads >= 30 and answers >= 50, (leads, answers)  # measured: at least 42 leads and 71 answers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_hands_fit_card_counts_and_exclude_known_cards(
    players: int, make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Samples deal only unseen cards (52 − own − played), by each seat's count; fewer than 4 leaves some out."""
    match = make_match("standard", players, 5)
    advance_bots(match, 7, "medium")
    assert match.turn is not None
    view = seat_view(match, match.turn)
    rng = random.Random(0)
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert_hands_fit(view, hands)


def test_hard_respects_its_wall_clock_budget(make_match: MatchFactory) -> None:
    """With budget_s the search stops on time (checked inside the loop) even with many iterations."""
    match = make_match("standard", 4, 2)
    assert match.turn is not None
    view, legal = seat_view(match, match.turn), match.legal_plays()
    start = time.perf_counter()
    choose("hard", view, legal, random.Random(1), budget_s=0.05, iterations=100_000)
    assert time.perf_counter() - start < 0.5


def test_hard_default_server_budget_is_bounded(make_match: MatchFactory) -> None:
    """The public choose with the server's default-sized budget returns promptly."""
    match = make_match("standard", 4, 9)
    assert match.turn is not None
    start = time.perf_counter()
    choose("hard", seat_view(match, match.turn), match.legal_plays(), bot_rng(match, match.turn), budget_s=0.2)
    assert time.perf_counter() - start < 1.0


def test_halving_keeps_the_move_that_goes_out_and_stays_within_its_playouts(
    make_match: MatchFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of several leads, the one that sheds the whole hand (docs/rules.md §5: out first) wins the comparison,
    and sequential halving plays no more playouts than it is given, every survivor on the same deals."""
    match = make_match("standard", 2, 1, start_card_rule=False)
    assert match.turn is not None
    view = seat_view(match, match.turn)
    cands = [p.mask for p in match.legal_plays().plays if p.mask.bit_count() == 1][:7]
    assert len(cands) == 7
    calls: list[tuple[list[int], int]] = []  # the deals are kept, so their ids stay distinct
    real = playouts.playouts_for

    class Counted:
        def __init__(self, view: SeatView, first_bonus: float) -> None:
            self.inner = real(view, first_bonus)

        def values(self, hands: list[int], moves: list[int]) -> list[tuple[float, int]]:
            found = self.inner.values(hands, moves)
            calls.extend((hands, move) for move in moves)
            better = view.players + hard.FIRST_BONUS  # more than going out first on every deal
            return [(better, 1) if move == cands[4] else value for move, value in zip(moves, found, strict=True)]

    monkeypatch.setattr(hard, "playouts_for", Counted)
    deals = DealChain(view, [], random.Random(3))
    assert hard.compare_candidates(view, cands, deals, 140, 10**9, None) == 4
    assert len(calls) <= 140
    per_deal: dict[int, set[int]] = {}
    for deal, move in calls:
        per_deal.setdefault(id(deal), set()).add(move)
    sizes = [len(moves) for moves in per_deal.values()]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] == len(cands) and sizes[-1] == 2, sizes


class _CostlyDeals:
    """Uniform deals, each charged a million judged actions (as a deal source reports its work)."""

    def __init__(self, view: SeatView, events: object, rng: random.Random, *, deadline: float | None = None) -> None:
        self.view, self.rng, self.drawn = view, rng, 0

    @property
    def work(self) -> int:
        return self.drawn * 1_000_000

    def next_deal(self) -> list[int]:
        self.drawn += 1
        return sample_hands(self.view, self.rng)


def _endgame_where(wanted: Callable[[SeatView, LegalPlays], bool], what: str) -> tuple[SeatView, Match]:
    """A Medium self-play position in Hard's endgame, the hidden cards unknown and several moves legal, that is
    ``wanted``."""
    for seed in range(200):
        match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}, players=4), random.Random(seed))
        while match.turn is not None:
            seat = match.turn
            view, legal = seat_view(match, seat), match.legal_plays()
            unknown = not hard.hidden_cards_known(view)
            if hard.in_endgame(view) and len(legal.plays) >= 2 and unknown and wanted(view, legal):
                return view, match
            action = choose_medium(view, legal, random.Random(0))
            match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)
    raise AssertionError(f"no endgame {what} in 200 deals")


def _endgame_without_a_forced_move() -> tuple[SeatView, Match]:
    """An endgame position where no move forces first place and several are searched."""

    def unforced(view: SeatView, legal: LegalPlays) -> bool:
        return hard.endgame_move(view, legal, _CostlyDeals(view, [], random.Random(0)), None)[0] is None

    return _endgame_where(unforced, "without a forced move")


def test_the_endgames_deals_count_against_the_searchs_step_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule (Hard's budget): the actions judged to draw the endgame search's deals are charged like its positions,
    so the comparison that follows gets only what is left of its step budget (MAX_STEPS times the build's scale)."""
    view, match = _endgame_without_a_forced_move()
    budgets: list[tuple[int, int]] = []

    def record(
        view: SeatView,
        cands: list[int],
        deals: hard.DealSource,
        playouts: int,
        step_budget: int,
        deadline: object,
        *starts: object,
    ) -> int:
        budgets.append((step_budget, deals.work))
        return 0

    monkeypatch.setattr(hard, "DEAL_SOURCE", _CostlyDeals)
    monkeypatch.setattr(hard, "compare_candidates", record)
    hard.choose_hard(view, match.legal_plays(), random.Random(1))
    [(budget, charged)] = budgets
    assert charged >= 1_000_000  # the endgame drew its deals
    assert budget <= hard.MAX_STEPS * hard.search_scale() - charged


class _SlowDeals(_CostlyDeals):
    """Uniform deals that take 20 ms each to draw (as a chain's burn-in may), counted."""

    def next_deal(self) -> list[int]:
        time.sleep(0.02)
        return super().next_deal()


def _endgame_forced_on_every_deal() -> tuple[SeatView, Match]:
    """An endgame position where a move forces first place on every one of the endgame's sampled deals (so it
    draws all of them)."""

    def forced(view: SeatView, legal: LegalPlays) -> bool:
        deals = _CostlyDeals(view, [], random.Random(0))
        return hard.endgame_move(view, legal, deals, None)[0] is not None and deals.drawn == hard.ENDGAME_SAMPLES

    return _endgame_where(forced, "with a move forced on every deal")


def test_the_endgame_draws_no_deal_past_its_deadline() -> None:
    """Rule (Hard's budget): the endgame search stops drawing deals at the deadline and then knows no forcing
    move; without a deadline it draws all of its samples."""
    view, match = _endgame_forced_on_every_deal()
    slow = _SlowDeals(view, [], random.Random(0))
    assert hard.endgame_move(view, match.legal_plays(), slow, time.perf_counter() + 0.03)[0] is None
    assert 1 <= slow.drawn <= 2
    slow = _SlowDeals(view, [], random.Random(0))
    assert hard.endgame_move(view, match.legal_plays(), slow, None)[0] is not None
    assert slow.drawn == hard.ENDGAME_SAMPLES
