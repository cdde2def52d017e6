"""The review of a finished match (:mod:`tienlen.bots.review`): each decision graded by what its seat could know.

Rules checked: the review is reproducible (the same match, the same review); a decision with one legal action is
``forced``; the taken action that is the search's best is graded ``good`` (the best action of an unforced position
is never graded below good); the grades follow the documented thresholds; and a set of blunders GENERATED here
from seeded games (a seat that can force going out first, by the exact endgame search on the true deal, plays a
move that no longer forces it) is graded mistake or worse in at least 95 % of the cases.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.bots import bot_rng, choose
from tienlen.bots.endgame import forced_moves
from tienlen.bots.hard import in_endgame
from tienlen.bots.review import (
    GRADES,
    THRESHOLDS,
    ReviewBudget,
    grade_of,
    options,
    review_decision,
    review_match,
    review_rng,
)
from tienlen.engine import LegalPlays, Match, RuleSet, SeatView, resolve_rules, seat_view

SMALL = ReviewBudget(deals=24, candidates=4)
LEVELS = ("medium", "easy", "medium", "easy")


@dataclass(frozen=True)
class Played:
    """A seeded match played out by house bots: its rules, seed and each hand's actions (seat, mask)."""

    rules: RuleSet
    seed: int
    hands: list[list[tuple[int, int]]]


def play(seed: int, hands: int = 1, players: int = 4) -> Played:
    """A match of ``hands`` hands played by Medium and Easy bots from ``seed``."""
    rules = resolve_rules({"hands": hands}, players=players)
    match, _ = Match.new(rules, random.Random(seed))
    out: list[list[tuple[int, int]]] = []
    number = 0
    while match.outcome is not None or match.turn is not None:
        if match.outcome is not None:
            break
        if number != match.hand_number:
            out.append([])
            number = match.hand_number
        seat = match.turn
        assert seat is not None
        action = choose(LEVELS[seat], seat_view(match, seat), match.legal_plays(), bot_rng(match, seat))
        mask = 0 if action.is_pass else action.mask
        out[-1].append((seat, mask))
        if mask:
            match.play(seat, mask)
        else:
            match.pass_turn(seat)
    return Played(rules, seed, out)


def test_review_is_reproducible_and_covers_every_action() -> None:
    """The same match and budget give the same review; every action is one decision, in order."""
    played = play(11)
    first = review_match(played.rules, played.seed, played.hands, budget=SMALL)
    again = review_match(played.rules, played.seed, played.hands, budget=SMALL)
    assert first == again
    assert len(first.decisions) == sum(len(h) for h in played.hands)
    assert [(d.seat, d.taken) for d in first.decisions] == [a for h in played.hands for a in h]
    assert {d.grade for d in first.decisions} <= set(GRADES)


def test_progress_counts_every_action() -> None:
    """The progress callback is told after each hand, ending at (total, total)."""
    played = play(12, hands=2)
    seen: list[tuple[int, int]] = []
    review_match(played.rules, played.seed, played.hands, budget=SMALL, progress=lambda d, t: seen.append((d, t)))
    total = sum(len(h) for h in played.hands)
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})
    assert len(seen) == len(played.hands)


def test_forced_decisions_are_not_graded() -> None:
    """A decision with one legal action is "forced": no estimate, no loss, no explanation; others are graded."""
    played = play(13)
    review = review_match(played.rules, played.seed, played.hands, budget=SMALL)
    forced = [d for d in review.decisions if d.grade == "forced"]
    graded = [d for d in review.decisions if d.grade != "forced"]
    assert forced and graded
    for d in forced:
        assert d.taken_estimate is None and d.loss == 0.0 and d.best_words is None and d.best == d.taken
    for d in graded:
        assert d.taken_estimate is not None and d.best_estimate is not None
        assert d.best_words and d.taken_words
        assert d.grade == grade_of(d.loss)
        assert d.best_estimate.value - d.taken_estimate.value == pytest.approx(d.loss)


@pytest.mark.parametrize(
    ("loss", "grade"),
    [
        (0.0, "good"),
        (0.059, "good"),
        (0.06, "inaccuracy"),
        (0.149, "inaccuracy"),
        (0.15, "mistake"),
        (0.299, "mistake"),
        (0.30, "blunder"),
        (1.05, "blunder"),
    ],
)
def test_grades_follow_the_thresholds(loss: float, grade: str) -> None:
    """Grades by the documented thresholds (worst first in THRESHOLDS)."""
    assert [t for _, t in THRESHOLDS] == sorted((t for _, t in THRESHOLDS), reverse=True)
    assert grade_of(loss) == grade


def _positions(seeds: range) -> list[tuple[SeatView, LegalPlays, int]]:
    """Unforced positions from seeded games, with the decision's number (for its generator)."""
    out = []
    for seed in seeds:
        played = play(seed)
        match, _ = Match.new(played.rules, random.Random(seed))
        for number, (seat, mask) in enumerate(played.hands[0]):
            legal = match.legal_plays()
            if options(legal) > 1:
                out.append((seat_view(match, seat), legal, number))
            if mask:
                match.play(seat, mask)
            else:
                match.pass_turn(seat)
    return out


def test_the_best_action_is_graded_good() -> None:
    """The action the search finds best, when it is the one taken, is graded good with no loss."""
    checked = 0
    for view, legal, number in _positions(range(20, 23))[::3]:
        legal_moves = [p.mask for p in legal.plays] + ([0] if legal.can_pass else [])
        taken = legal_moves[number % len(legal_moves)]
        best, *_ = review_decision(view, legal, taken, review_rng(5, number), SMALL)
        again, loss, grade, mine, top, _deals = review_decision(view, legal, best, review_rng(5, number), SMALL)
        assert (again, loss, grade) == (best, 0.0, "good")
        assert mine == top
        checked += 1
    assert checked >= 20


def blunders(seeds: range) -> list[tuple[SeatView, LegalPlays, int, int]]:
    """Generated blunders: nobody is out, the seat forces going out first on the true deal, and plays a move that
    does not (proved by the endgame search); one a position (the first such move), with the decision's number."""
    out = []
    for seed in seeds:
        played = play(seed)
        match, _ = Match.new(played.rules, random.Random(seed))
        for number, (seat, mask) in enumerate(played.hands[0]):
            view, legal = seat_view(match, seat), match.legal_plays()
            if options(legal) > 1 and in_endgame(view) and not any(view.public.places):
                found, _ = forced_moves(
                    match.hands,
                    seat,
                    match.table,
                    match.table_seat,
                    match.locked,
                    played.rules.bombs,
                    played.rules.pass_reentry_with_bomb,
                    node_limit=20000,
                )
                losing = [m for m, wins in found.items() if wins is False]
                if any(wins is True for wins in found.values()) and losing:
                    out.append((view, legal, losing[0], number))
            if mask:
                match.play(seat, mask)
            else:
                match.pass_turn(seat)
    return out


def test_generated_blunders_are_graded_mistake_or_worse() -> None:
    """At least 95 % of the generated blunders (a forced first place thrown away) are graded mistake or worse."""
    found = blunders(range(100, 160))
    assert len(found) >= 40
    bad = {"mistake", "blunder"}
    graded = [review_decision(v, legal, m, review_rng(7, n))[2] for v, legal, m, n in found]
    share = sum(g in bad for g in graded) / len(graded)
    print(f"generated blunders: {len(graded)}, graded mistake or worse: {share:.3f}")
    assert share >= 0.95


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), players=st.sampled_from([2, 3, 4]))
def test_every_decision_is_graded_by_its_loss(seed: int, players: int) -> None:
    """Invariant over seeded matches of 2 to 4 seats: forced exactly when one action is legal; else the loss is
    the best's value minus the taken's, never negative, and the grade is the one its loss reaches."""
    played = play(seed, players=players)
    review = review_match(played.rules, played.seed, played.hands, budget=ReviewBudget(deals=6, candidates=3))
    match, _ = Match.new(played.rules, random.Random(seed))
    for d, (seat, mask) in zip(review.decisions, played.hands[0], strict=True):
        assert (d.grade == "forced") == (options(match.legal_plays()) <= 1)
        assert d.loss >= 0.0
        if d.grade != "forced":
            assert d.grade == grade_of(d.loss)
        if mask:
            match.play(seat, mask)
        else:
            match.pass_turn(seat)


def test_an_abandoned_match_is_reviewed_up_to_its_last_action() -> None:
    """A match whose actions stop mid-hand (abandoned) is reviewed action by action up to there."""
    played = play(14)
    cut = [played.hands[0][:9]]
    review = review_match(played.rules, played.seed, cut, budget=SMALL)
    assert [(d.seat, d.taken) for d in review.decisions] == cut[0]
