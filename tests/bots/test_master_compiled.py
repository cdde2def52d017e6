"""Master's network in the compiled core (native/src/net.rs) gives the pure Python forward pass's numbers.

The pure Python network (:class:`~tienlen.bots.master_net.MasterNet` without
its compiled copy) is the reference. Side by side on positions of seeded Medium
self-play under every preset and seat count, with the shipped weights and with
random ones: every action's estimates are the same (to the bit on Python 3.11,
whose ``sum`` adds as the core does; to 1e-12 where ``sum`` compensates), and
Master's choice for a seed is the same on either build (its network, its playouts led by it).

Without the compiled core these tests skip ("needs tienlen_native: ... run
`make native`"), and fail when ``TIENLEN_REQUIRE_TOOLS=1`` (CI builds the core first).
"""

from __future__ import annotations

import json
import random
from array import array
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.support.bots import PRESETS_AND_SEATS, medium_positions, required_core
from tienlen.bots import compiled, hard, master, sampling
from tienlen.bots.master_features import INPUTS, action_inputs, read
from tienlen.bots.master_net import NET_PATH, MasterNet
from tienlen.bots.medium import choose_medium
from tienlen.bots.net_playouts import NetLedPlayouts, led_playouts_for
from tienlen.bots.playouts import played_by_seat, playouts_for
from tienlen.engine import Match, SeatView, resolve_rules, seat_view
from tienlen.engine.combos import Combination
from tienlen.engine.match import LegalPlays

CORE = required_core()
CASES = PRESETS_AND_SEATS


@pytest.fixture(autouse=True)
def compiled_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bots' compiled loops in every test here, whatever ``TIENLEN_ENGINE`` chose (the Python paths where a
    test sets ``compiled.CORE`` to None itself)."""
    monkeypatch.setattr(compiled, "CORE", CORE)
    yield


def compiled_shipped() -> MasterNet:
    """The shipped network with its compiled copy (read again: the server's, ``shipped_net``, may have none)."""
    net = MasterNet.read(NET_PATH)
    assert net.compiled is not None
    return net


def positions(preset: str, players: int, seed: int) -> Iterator[tuple[SeatView, LegalPlays]]:
    """Every position of one hand of Medium self-play."""
    return medium_positions(preset, players, range(seed, seed + 1))


def options(legal: LegalPlays) -> list[Combination | None]:
    return [*legal.plays, *([None] if legal.can_pass or not legal.plays else [])]


def both(sizes: list[int], numbers: array[float]) -> tuple[MasterNet, MasterNet]:
    """The same network twice: with its compiled copy, and in pure Python alone."""
    ours = MasterNet(sizes, numbers, {}, compiled_net=True)
    reference = MasterNet(sizes, numbers, {}, compiled_net=False)
    assert ours.compiled is not None and reference.compiled is None
    return ours, reference


def shipped() -> tuple[list[int], array[float]]:
    with NET_PATH.open("rb") as stream:
        sizes = json.loads(stream.readline())["sizes"]
        numbers = array("f")
        numbers.frombytes(stream.read())
    return sizes, numbers


def random_weights(seed: int) -> tuple[list[int], array[float]]:
    """A network of the shipped sizes with random weights, half of them negative (ReLU clips many sums)."""
    sizes = shipped()[0]
    count = sum(a * b + b for a, b in pairwise(sizes))
    rng = random.Random(seed)
    return sizes, array("f", (rng.gauss(0.0, 0.2) for _ in range(count)))


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("weights", [shipped, lambda: random_weights(5)], ids=["shipped", "random"])
def test_the_compiled_forward_pass_gives_the_pure_python_estimates(
    preset: str, players: int, weights: Callable[[], tuple[list[int], array[float]]]
) -> None:
    ours, reference = both(*weights())
    checked = 0
    for index, (view, legal) in enumerate(positions(preset, players, seed=players)):
        if index % 3:
            continue
        plays = options(legal)
        got, expected = ours.estimates(view, legal, plays), reference.estimates(view, legal, plays)
        assert [(e.first, e.points) for e in got] == [
            pytest.approx((e.first, e.points), rel=1e-12, abs=1e-15) for e in expected
        ], (preset, players, index)
        checked += len(plays)
    assert checked >= 20


def test_the_shipped_network_is_read_into_the_compiled_core_when_the_bots_use_it() -> None:
    assert MasterNet.read(NET_PATH).compiled is not None


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: CORE.Net([INPUTS, 2], array("f", [0.0] * (INPUTS * 2 + 2))), "a hidden layer or more"),
        (lambda: CORE.Net([4, 0, 2], array("f")), "a hidden layer or more"),
        (lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 5)), "take 23 numbers, not 5"),
        (lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([4], [[]]), "input 4 of a network of 4 inputs"),
        (lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([], [[0], [9]]), "input 9 of a network of 4"),
        (
            lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([], [[0], [9]], blocked=True),
            "input 9 of a network of 4",
        ),
        (
            lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([4], [[0]], blocked=True),
            "input 4 of a network of 4 inputs",
        ),
        (lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([-1], [[]]), "input indices are numbers"),
        (lambda: CORE.Net([4, 3, 2], array("f", [0.0] * 23)).logits([], [[1 << 32]]), "input indices are numbers"),
    ],
)
def test_bad_input_to_the_compiled_network_is_a_value_error(call: Callable[[], object], message: str) -> None:
    """Every refusal of the compiled network is a ValueError with the core's message; nothing is computed."""
    with pytest.raises(ValueError, match=message):
        call()


def test_a_network_with_no_actions_answers_nothing_and_one_with_zero_weights_its_biases() -> None:
    sizes = [4, 3, 2]
    numbers = array("f", [0.0] * 12 + [1.0, -1.0, 2.0] + [0.5] * 6 + [0.25, -0.75])  # rows, biases, dense, biases
    net = CORE.Net(sizes, numbers)
    assert net.logits([0, 1], []) == []
    # the first layer's rows are 0: its sums are its biases, ReLU keeps 1 and 2; then 0.5 * 3 plus each bias
    assert net.logits([0, 1], [[2], [3]]) == [1.75, 0.75, 1.75, 0.75]


def test_the_pure_python_reference_is_used_without_the_core(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compiled, "CORE", None)
    assert MasterNet.read(NET_PATH).compiled is None


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_the_cores_reading_of_the_networks_inputs_is_the_pure_python_one(preset: str, players: int) -> None:
    """Rule: the network's inputs read in the core (for its own playouts) are ``master_features``': Hard's
    candidates in their order, the situation's inputs and every action's, on every position of a hand but the
    first lead with the start card (never a playout's later move: there the reference ranks the plays holding the
    start card in the iteration order of a set, which the core does not copy)."""
    checked = 0
    for view, legal in positions(preset, players, seed=10 + players):
        if view.start_card is not None:
            continue
        reading = read(view, legal)
        medium = choose_medium(view, legal, random.Random(0))
        plays = options(legal)
        masks = [0 if p is None else p.mask for p in plays]
        sight = (
            view.seat,
            view.players,
            view.hand,
            played_by_seat(view),
            view.cards_left,
            view.locked,
            None if view.table is None else view.table.mask,
            view.table_seat,
            view.start_card,
        )
        legal_masks = [p.mask for p in legal.plays]
        candidates, situation, own = CORE.net_features(sight, legal_masks, 0 if medium.is_pass else medium.mask, masks)
        if legal.plays:
            assert candidates == list(reading.candidates), (preset, players, checked)
        assert situation == reading.inputs
        assert own == [action_inputs(view, reading, play) for play in plays]
        checked += 1
    assert checked >= 20


def _playouts(view: SeatView) -> Any:
    return playouts_for(view, hard.FIRST_BONUS)


def test_playouts_led_by_the_network_are_the_python_ones_and_for_no_moves_are_mediums() -> None:
    """Rule: the core's playouts whose seat's moves are the network's give the Python reference's values and steps
    (:mod:`tienlen.bots.net_playouts`); asked for none of its moves they are Hard's own (Medium for every seat);
    and the network changes some playouts' values."""
    net = compiled_shipped()
    rules = resolve_rules({"preset": "standard", "hands": 1}, players=4)
    changed = checked = 0
    for seed in range(3):
        match, _ = Match.new(rules, random.Random(seed))
        for step in range(24):
            if match.turn is None:
                break
            seat = match.turn
            view, legal = seat_view(match, seat), match.legal_plays()
            if step % 3 == 0 and len(legal.plays) >= 2:
                moves = [p.mask for p in legal.plays[:4]]
                hands = list(match.hands)
                led = led_playouts_for(view, hard.FIRST_BONUS, net, master.NET_MOVES)
                assert isinstance(led, compiled.CompiledPlayouts)
                values = led.values(hands, moves)
                assert values == NetLedPlayouts(view, hard.FIRST_BONUS, net, master.NET_MOVES).values(hands, moves)
                none = led_playouts_for(view, hard.FIRST_BONUS, net, 0)
                assert none.values(hands, moves) == _playouts(view).values(hands, moves)
                changed += values != _playouts(view).values(hands, moves)
                checked += 1
            action = choose_medium(view, legal, random.Random(0))
            match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)
    assert checked >= 6 and changed >= 1


@pytest.mark.parametrize("weights", [shipped, lambda: random_weights(9)], ids=["shipped", "random"])
def test_the_playouts_float32_pass_is_the_python_ones_to_the_bit(
    weights: Callable[[], tuple[list[int], array[float]]],
) -> None:
    """Rule: the core's playouts' pass (float32, eight lanes) gives exactly the numbers of its Python reference
    (``MasterNet.blocked_logits``), and stays near the exact pass."""
    ours, reference = both(*weights())
    assert ours.compiled is not None
    checked = 0
    for preset, players in CASES[::3]:
        for index, (view, legal) in enumerate(positions(preset, players, seed=20 + players)):
            if index % 4:
                continue
            reading = read(view, legal)
            own = [action_inputs(view, reading, play) for play in options(legal)]
            got = ours.compiled.logits(reading.inputs, own, blocked=True)
            situation = reference.first_layer32(reading.inputs)
            expected = [x for indices in own for x in reference.blocked_logits(situation, indices)]
            assert got == expected, (preset, players, index)
            exact = ours.compiled.logits(reading.inputs, own)
            assert got == pytest.approx(exact, rel=1e-3, abs=1e-3)
            checked += len(own)
    assert checked >= 40


@pytest.mark.parametrize("seed", [41, 42])
def test_masters_choice_for_a_seed_is_the_same_on_both_builds(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same seed, same counts, same choice: Master's whole decision (its network, its chains, its led playouts)
    is the same with the compiled core as in pure Python (at the same search counts and chain pace)."""
    monkeypatch.setattr(hard, "COMPILED_SEARCH_SCALE", 1)
    monkeypatch.setattr(sampling, "PYTHON_PACE", sampling.COMPILED_PACE)
    python_net, ours_net = MasterNet.read(NET_PATH, compiled_net=False), compiled_shipped()
    monkeypatch.setattr(master, "shipped_net", lambda: ours_net)
    checked = 0
    for index, (view, legal) in enumerate(positions("standard", 4, seed)):
        if index % 7 or len(legal.plays) < 2:
            continue
        ours = master.choose_master(view, legal, random.Random(index), iterations=100)
        with monkeypatch.context() as m:
            m.setattr(compiled, "CORE", None)
            m.setattr(master, "shipped_net", lambda: python_net)
            python = master.choose_master(view, legal, random.Random(index), iterations=100)
        assert ours == python, (seed, index)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: _playouts_of_a_lead().use_net(CORE.Net([4, 3, 2], array("f", [0.0] * 23)), [], 20.0, 1), "reads"),
        (lambda: _playouts_of_a_lead().use_net(_shipped_core_net(), [1 << 52], 20.0, 1), "not a hand mask"),
        (lambda: CORE.net_features((0, 5, 1, [], [1] * 5, 0, None, None, None), [1], 1, [1]), "players must be 2"),
        (lambda: CORE.net_features((2, 2, 1, [], [1, 1], 0, None, None, None), [1], 1, [1]), "seat 2 is not one"),
        (lambda: CORE.net_features((0, 2, 1, [], [1, 1], 0, 0b1_0000_0001, 1, None), [1], 1, [1]), "not a combination"),
    ],
)
def test_bad_input_to_the_networks_playouts_and_features_is_a_value_error(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def _shipped_core_net() -> Any:
    net = compiled_shipped().compiled
    assert net is not None
    return net


def _playouts_of_a_lead() -> Any:
    return CORE.Playouts(0, 2, None, None, 0, 0, None, "exact", True, False, 1.0)
