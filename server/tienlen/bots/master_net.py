"""Master's network, evaluated in pure Python: no numpy, no training framework at play time.

A small multilayer perceptron (:data:`~.master_features.INPUTS` inputs that are
0 or 1, two hidden layers with ReLU, two outputs): for a seat's view and one of
its actions, the chance that the seat finishes first this hand and its expected
place points (0 last .. 1 first), both as learned from self-play
(``bench/train_master.py``, ``make train-master``). The weights ship in
``master_net.bin``: one line of JSON (the layers' sizes and how they were
trained), then the float32 numbers, little-endian, layer by layer (each
weight matrix by input row, then its biases). Inputs are 0 or 1, so the first
layer adds the rows of the inputs that are 1; the part of a decision that does
not depend on the action is added once. With the compiled core
(:data:`.compiled.CORE`) the forward pass runs there (native/src/net.rs), the
same sums in the same order; this module's is the reference
(``tests/bots/test_master.py`` checks both side by side).
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise, repeat
from operator import add, mul
from pathlib import Path
from typing import Any

from ..engine.combos import Combination
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from . import compiled
from .compiled import CompiledNet
from .master_features import INPUTS, Reading, action_inputs, read

NET_PATH = Path(__file__).with_name("master_net.bin")
OUTPUTS = 2  # first place (a logit) and place points (a logit of the 0..1 points)


class NetFileError(ValueError):
    """The weights file does not hold the network this code reads."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the network expects of one action: the chance of first place and the place points (0..1)."""

    first: float
    points: float


def _f32(values: Iterable[float]) -> list[float]:
    """The values rounded to ``float32`` (as Python floats)."""
    return array("f", values).tolist()


def sigmoid(x: float) -> float:
    """The logistic function (its two forms, as the core computes it)."""
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


class MasterNet:
    """The trained network: rows of the first layer by input, then dense layers (each a list of output rows); and
    the same network in the compiled core when there is one (``compiled``)."""

    def __init__(
        self, sizes: Sequence[int], numbers: Sequence[float], about: dict[str, Any], *, compiled_net: bool = True
    ) -> None:
        if len(sizes) != 4 or sizes[0] != INPUTS or sizes[-1] != OUTPUTS:
            raise NetFileError(f"expected {INPUTS} inputs and {OUTPUTS} outputs, the file has sizes {list(sizes)}")
        expected = sum(a * b + b for a, b in pairwise(sizes))
        if len(numbers) != expected:
            raise NetFileError(f"expected {expected} numbers, the file has {len(numbers)}")
        self.sizes = tuple(sizes)
        self.about = about
        at = 0
        first, hidden = sizes[0], sizes[1]
        self._rows = [list(numbers[at + i * hidden : at + (i + 1) * hidden]) for i in range(first)]
        at += first * hidden
        self._bias = list(numbers[at : at + hidden])
        at += hidden
        self._dense: list[tuple[list[list[float]], list[float]]] = []
        self._dense32: list[tuple[list[list[float]], list[float]]] = []  # by input (column), for the playouts' pass
        for n_in, n_out in pairwise(sizes[1:]):
            by_input = numbers[at : at + n_in * n_out]
            at += n_in * n_out
            rows = [list(by_input[j::n_out]) for j in range(n_out)]  # stored by input row; kept by output
            self._dense.append((rows, list(numbers[at : at + n_out])))
            columns = [list(by_input[i * n_out : (i + 1) * n_out]) for i in range(n_in)]
            self._dense32.append((columns, list(numbers[at : at + n_out])))
            at += n_out
        core = compiled.CORE if compiled_net else None
        self.compiled: CompiledNet | None = None if core is None else core.Net(sizes, array("f", numbers))

    @classmethod
    def read(cls, path: Path, *, compiled_net: bool = True) -> MasterNet:
        """The network in a weights file (see the module's docstring); in the compiled core too when there is one
        and ``compiled_net``."""
        with path.open("rb") as stream:
            header = json.loads(stream.readline())
            numbers = array("f")
            numbers.frombytes(stream.read())
        if sys.byteorder != "little":
            numbers.byteswap()
        return cls(header["sizes"], numbers, header.get("about", {}), compiled_net=compiled_net)

    def situation(self, reading: Reading) -> list[float]:
        """The first layer's sums over the inputs that do not depend on the action."""
        total = self._bias
        for index in reading.inputs:
            total = list(map(add, total, self._rows[index]))
        return total

    def estimate(self, situation: list[float], view: SeatView, reading: Reading, play: Combination | None) -> Estimate:
        """What the network expects of ``play`` (None: a pass) in the view read as ``reading``, whose
        :meth:`situation` is given."""
        total = situation
        for index in action_inputs(view, reading, play):
            total = list(map(add, total, self._rows[index]))
        layer = [x if x > 0.0 else 0.0 for x in total]
        last = len(self._dense) - 1
        for depth, (rows, bias) in enumerate(self._dense):
            out = [sum(map(mul, layer, row), b) for row, b in zip(rows, bias, strict=True)]
            layer = out if depth == last else [x if x > 0.0 else 0.0 for x in out]
        return Estimate(sigmoid(layer[0]), sigmoid(layer[1]))

    def first_layer32(self, inputs: Sequence[int]) -> list[float]:
        """The first layer's sums over these inputs in ``float32`` (its biases, then each input's row in order, every
        sum rounded to ``float32``): the playouts' pass, as the core's ``situation32``."""
        total = self._bias
        for index in inputs:
            total = _f32(map(add, total, self._rows[index]))
        return total

    def blocked_logits(self, situation: list[float], own: Sequence[int]) -> list[float]:
        """The outputs (logits) for one action's own inputs, given the decision's :meth:`first_layer32` sums, as the
        core's playouts compute them (native/src/net.rs ``blocked_logits``): in ``float32``, every product and sum
        rounded to it (a ``float32`` operation done in ``float64`` and rounded gives the same number), each dense
        layer's sums taken in eight lanes (input ``i`` in lane ``i % 8``, the lanes then added in order, then the
        inputs past the last eight, then the bias added to that). The outputs are summed side by side here, the
        same operations in the same order for each."""
        total = situation
        for index in own:
            total = _f32(map(add, total, self._rows[index]))
        layer = [x if x > 0.0 else 0.0 for x in total]
        last = len(self._dense) - 1
        for depth, (columns, bias) in enumerate(self._dense32):
            width = len(bias)
            whole = len(layer) // 8 * 8
            lanes = [[0.0] * width for _ in range(8)]
            rest = [0.0] * width
            for i, x in enumerate(layer):
                if x == 0.0:  # adds +0.0 or -0.0 to every sum: none changes (a sum is never -0.0)
                    continue
                products = _f32(map(mul, repeat(x, width), columns[i]))
                if i < whole:
                    lanes[i % 8] = _f32(map(add, lanes[i % 8], products))
                else:
                    rest = _f32(map(add, rest, products))
            summed = [0.0] * width
            for lane in lanes:
                summed = _f32(map(add, summed, lane))
            out = _f32(map(add, bias, _f32(map(add, summed, rest))))
            layer = out if depth == last else [x if x > 0.0 else 0.0 for x in out]
        return layer

    def estimates(self, view: SeatView, legal: LegalPlays, plays: Sequence[Combination | None]) -> list[Estimate]:
        """What the network expects of each of these actions of the seat on turn (None: a pass): in the compiled
        core when the network has it, else in Python."""
        reading = read(view, legal)
        if self.compiled is None:
            situation = self.situation(reading)
            return [self.estimate(situation, view, reading, play) for play in plays]
        logits = self.compiled.logits(reading.inputs, [action_inputs(view, reading, play) for play in plays])
        return [Estimate(sigmoid(logits[k]), sigmoid(logits[k + 1])) for k in range(0, len(logits), OUTPUTS)]


@cache
def shipped_net() -> MasterNet:
    """The network that ships with the server (``master_net.bin``), read once a process."""
    return MasterNet.read(NET_PATH)
