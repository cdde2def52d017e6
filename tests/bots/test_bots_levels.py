"""The bot levels as data: Expert is Hard's search at five times its effort, budgets follow the levels' efforts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.support.bots import Advance, MatchFactory
from tienlen.bots import BOT_LEVELS, LEVELS, bot_rng, choose, decision_budget_s, driver, hard, play_bot_turns
from tienlen.engine import SeatView, seat_view
from tienlen.engine.match import LegalPlays


def test_the_levels_are_declared_once_weakest_first() -> None:
    """Rule: the server's levels are easy, medium, hard, expert and master, in that order; only hard, expert and
    master search, expert with five times hard's effort, master with ten."""
    assert LEVELS == tuple(level.name for level in BOT_LEVELS) == ("easy", "medium", "hard", "expert", "master")
    assert [level.effort for level in BOT_LEVELS] == [0, 0, 1, 5, 10]


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ((), 0.2),  # a hint: one Hard decision
        (("easy", "medium"), 0.2),
        (("hard", "easy"), 0.2),
        (("medium", "expert", "hard"), 1.0),
        (LEVELS, 2.0),  # Master: ten budgets
    ],
)
def test_a_decision_may_take_the_slowest_levels_effort_in_budgets(levels: tuple[str, ...], expected: float) -> None:
    """Rule: one decision of a table's bots may take its slowest level's effort times the bot budget, at least one
    budget."""
    assert decision_budget_s(levels, 0.2) == pytest.approx(expected)


def test_expert_searches_with_five_times_hards_budget_playouts_and_steps(
    make_match: MatchFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: Expert is Hard's search at effort 5: five bot budgets of wall clock, five times Hard's playouts (its
    fixed count or the one given) and five times its step budget."""
    match = make_match("standard", 4, 3)
    assert match.turn is not None
    view, legal = seat_view(match, match.turn), match.legal_plays()
    searched: list[tuple[str, int, int]] = []

    def record(
        view: SeatView,
        cands: list[int],
        deals: hard.DealSource,
        playouts: int,
        step_budget: int,
        deadline: object,
        head_starts: object = None,
        playouts_of: object = None,
    ) -> int:
        searched.append((current, playouts, step_budget))
        return 0

    monkeypatch.setattr(hard, "compare_candidates", record)
    monkeypatch.setattr(hard, "candidates", lambda view, legal, medium: [legal.plays[0].mask, legal.plays[1].mask])
    for current in ("hard", "expert"):
        choose(current, view, legal, random.Random(1))
        choose(current, view, legal, random.Random(1), iterations=40)
    scale = hard.search_scale()  # the build's: more with the compiled loops (tests/bots/test_bots_compiled.py)
    assert searched == [
        ("hard", scale * hard.DEFAULT_ITERATIONS, scale * hard.MAX_STEPS),
        ("hard", 40, scale * hard.MAX_STEPS),
        ("expert", 5 * scale * hard.DEFAULT_ITERATIONS, 5 * scale * hard.MAX_STEPS),
        ("expert", 200, 5 * scale * hard.MAX_STEPS),
    ]

    budgets: list[float | None] = []

    def timed(view: SeatView, legal: LegalPlays, rng: random.Random, **options: Any) -> Any:
        budgets.append(options["budget_s"])
        return hard.choose_hard(view, legal, rng, **options)

    monkeypatch.setattr(driver, "choose_hard", timed)
    choose("hard", view, legal, random.Random(1), budget_s=0.2)
    choose("expert", view, legal, random.Random(1), budget_s=0.2)
    choose("expert", view, legal, random.Random(1))
    assert budgets == [pytest.approx(0.2), pytest.approx(1.0), None]


def test_expert_same_seed_same_legal_choice(make_match: MatchFactory, advance_bots: Advance) -> None:
    """Rule: Expert without a wall-clock budget repeats its (legal) choice for the same seed: its counts are fixed."""
    match = make_match("standard", 4, 2)
    advance_bots(match, 7, "medium")
    assert match.turn is not None
    seat = match.turn
    view, legal = seat_view(match, seat), match.legal_plays()
    first = choose("expert", view, legal, bot_rng(match, seat))
    assert first == choose("expert", view, legal, bot_rng(match, seat))
    assert first.is_pass or first.mask in match.legal_masks()


def test_the_bot_loop_gives_each_level_its_own_budget(
    make_match: MatchFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: in one table's bot turns each searching level gets its effort times the bot budget a decision."""
    match = make_match("standard", 4, 4)
    seen: list[tuple[str, float | None]] = []
    real = hard.choose_hard

    def timed(view: SeatView, legal: LegalPlays, rng: random.Random, **options: Any) -> Any:
        seen.append(("expert" if options["effort"] == 5 else "hard", options["budget_s"]))
        return real(view, legal, rng, **options)

    monkeypatch.setattr(driver, "choose_hard", timed)
    play_bot_turns(match, {0: "hard", 1: "expert", 2: "easy", 3: "medium"}, budget_s=0.002)
    assert {level for level, _ in seen} == {"hard", "expert"}
    for level, budget in seen:
        assert budget == pytest.approx(0.002 if level == "hard" else 0.01)
