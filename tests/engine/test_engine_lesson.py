"""The first lesson's steps (engine/lesson.py) are sound positions, and its verdicts are the engine's.

Rules checked: each step's position is playable (its cards read, no card both in the hand and on the table, the
table a combination, the start card in the hand, a preset that exists) and some legal action passes it; for any
cards drawn from the hand (hypothesis), the verdict's `legal` is exactly membership in the one legal-play
generator's list, an illegal action names one of the engine's refusal reasons, and `passed` implies `legal`.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.engine import PRESETS, REFUSAL_REASONS, cards_mask, format_mask, seat_legal_masks
from tienlen.engine.lesson import FIRST_LESSON, Step, check

STEPS = {step.id: step for step in FIRST_LESSON}


def legal_masks(step: Step) -> list[int]:
    """The step's legal plays by the one generator."""
    position = step.position
    rules = PRESETS[position.preset]
    table = position.table_combination
    return seat_legal_masks(
        position.hand_mask, table, rules.bombs, locked=position.locked, start_card=position.start_index
    )


def test_the_steps_have_distinct_ids_and_the_lessons_order() -> None:
    """The lesson teaches, in order: a single, beating it, a pair, a straight, the pass lock, a bomb, the start card."""
    assert [s.id for s in FIRST_LESSON] == [
        "lead_single",
        "beat_single",
        "pair",
        "straight",
        "pass_lock",
        "bomb",
        "start_card",
    ]


@pytest.mark.parametrize("step", FIRST_LESSON, ids=lambda s: s.id)
def test_each_position_is_playable_and_some_action_passes_it(step: Step) -> None:
    """Cards read, hand and table apart, the table a combination, the start card held, a real preset; a way through."""
    position = step.position
    assert position.preset in PRESETS
    assert not position.hand_mask & cards_mask(position.table)
    if position.table:
        assert position.table_combination is not None
    if position.start_card is not None:
        start = position.start_index
        assert start is not None and position.hand_mask >> start & 1
        assert not position.table
    ways = [check(step, format_mask(mask)) for mask in legal_masks(step)]
    if position.table:
        ways.append(check(step, None))
    assert any(v.passed for v in ways), step.id


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIRST_LESSON), st.data())
def test_the_verdict_is_the_generators(step: Step, data: st.DataObject) -> None:
    """Any non-empty set of the hand's cards (or one not held): legal exactly when the generator lists it."""
    hand = format_mask(step.position.hand_mask)
    cards = data.draw(st.lists(st.sampled_from([*hand, "2H", "AS"]), min_size=1, max_size=6, unique=True))
    verdict = check(step, cards)
    assert verdict.legal == (cards_mask(cards) in legal_masks(step))
    assert verdict.legal or verdict.reason in REFUSAL_REASONS
    assert not verdict.passed or verdict.legal
