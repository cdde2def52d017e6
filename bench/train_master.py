"""Train Master's network (`make train-master`): self-play, each action valued by playing it out on the true cards.

The method trains with perfect information and plays with imperfect information
(as PerfectDou did for Dou Dizhu), with Monte Carlo values: self-played hands
(Medium in every seat, a uniform legal action instead with chance
``--explore``) give the positions; at each decision every legal action (up to
``--actions``: Hard's candidates first, then a random sample) is played out on
the true cards with Medium in every seat until the first seat is out (Hard's
playouts, in the compiled core). Each (view, action) is one example: its inputs
are what the seat could see (:mod:`tienlen.bots.master_features`), its targets
whether that playout put the seat first and its estimated place points. The
network, reading only the seat's view, learns what each action is worth on
average over the hands the other seats may hold, given how they played:
what Hard's search estimates on sampled deals, without the sampling.

Everything lands under ``--work`` (default ``build/master``, gitignored): a
file of examples a shard (``shard-S.npz``), the network after each epoch
(``epoch-E.pt``); a run that stops goes on from what is there (done shards and
epochs are not done again). Each shard's hands are seeded by its number, the
network's first weights and the order of the examples by ``--seed``: the same
command gives the same examples and, on the same machine and thread count, the
same weights (the defaults are the run that made the shipped ones). The last epoch's network is
written to ``server/tienlen/bots/master_net.bin`` (``--export``), the file the
server reads in pure Python.

PyTorch (CPU) is for this script only: ``make train-master`` installs it into
the venv; the server never imports it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from tienlen.bots.base import Action
from tienlen.bots.master_features import INPUTS, action_inputs, read
from tienlen.bots.master_net import NET_PATH, OUTPUTS
from tienlen.bots.medium import choose_medium
from tienlen.bots.playouts import playouts_for
from tienlen.engine.combos import Combination
from tienlen.engine.match import LegalPlays, Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView, seat_view

HIDDEN = (256, 128)
PACKED = (INPUTS + 7) // 8


def _seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "little")


class NumpyNet:
    """The network in numpy: the reference the server's pure Python forward pass is tested against."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.layers = layers

    def outputs(self, view: SeatView, legal: LegalPlays, options: list[Combination | None]) -> np.ndarray:
        """The network's two outputs (logits) for each option."""
        reading = read(view, legal)
        x = np.zeros((len(options), INPUTS), dtype=np.float32)
        x[:, reading.inputs] = 1.0
        for row, play in enumerate(options):
            x[row, action_inputs(view, reading, play)] = 1.0
        for depth, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if depth < len(self.layers) - 1:
                x = np.maximum(x, 0.0)
        return x


def _options(view: SeatView, match: Match) -> list[Combination | None]:
    legal = match.legal_plays()
    options: list[Combination | None] = list(legal.plays)
    if legal.can_pass or not options:
        options.append(None)
    return options


def _examples(view: SeatView, match: Match, rng: random.Random, limit: int) -> list[tuple[list[int], float, float]]:
    """Each action of the seat on turn (up to ``limit``) played out on the true cards: (inputs, first, points)."""
    legal = match.legal_plays()
    reading = read(view, legal)
    options = _options(view, match)
    if len(options) > limit:
        by_mask = {0 if o is None else o.mask: o for o in options}
        chosen = [by_mask[m] for m in reading.candidates if m in by_mask]
        rest = [o for o in options if o not in chosen]
        options = chosen + rng.sample(rest, limit - len(chosen))
    runner = playouts_for(view, 0.0)
    values = runner.values(list(match.hands), [0 if o is None else o.mask for o in options])
    top = view.players - 1
    return [
        (reading.inputs + action_inputs(view, reading, play), 1.0 if value >= top else 0.0, value / top)
        for play, (value, _steps) in zip(options, values, strict=True)
    ]


def _play_shard(args: tuple[int, int, float, int, Path]) -> Path:
    """Self-play ``hands`` hands and write the examples of their decisions to ``path``."""
    shard, hands, explore, limit, path = args
    rng = random.Random(_seed("shard", shard))
    packed: list[np.ndarray] = []
    targets: list[tuple[float, float]] = []
    for _ in range(hands):
        roll = rng.random()
        players = 4 if roll < 0.8 else (3 if roll < 0.9 else 2)
        match, _ = Match.new(resolve_rules({"hands": 1}, players=players), random.Random(rng.getrandbits(64)))
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            view = seat_view(match, seat)
            for inputs, first, points in _examples(view, match, rng, limit):
                row = np.zeros(INPUTS, dtype=np.uint8)
                row[inputs] = 1
                packed.append(np.packbits(row))
                targets.append((first, points))
            options = _options(view, match)
            if rng.random() < explore:
                play = options[rng.randrange(len(options))]
            else:
                action: Action = choose_medium(view, match.legal_plays(), rng)
                play = None if action.is_pass else next(p for p in options if p is not None and p.mask == action.mask)
            if play is None:
                match.pass_turn(seat)
            else:
                match.play(seat, play.mask)
    partial = path.with_suffix(".part.npz")
    np.savez_compressed(partial, x=np.array(packed), y=np.array(targets, dtype=np.float32))
    partial.rename(path)
    return path


def numpy_net(state: dict[str, np.ndarray]) -> NumpyNet:
    """The network of ``state`` (PyTorch's names and shapes) for self-play."""
    layers = []
    for n in range(len(HIDDEN) + 1):
        layers.append((state[f"{2 * n}.weight"].T.astype(np.float32), state[f"{2 * n}.bias"].astype(np.float32)))
    return NumpyNet(layers)


def _model() -> Any:
    import torch

    sizes = (INPUTS, *HIDDEN, OUTPUTS)
    parts: list[Any] = []
    for n_in, n_out in pairwise(sizes):
        parts += [torch.nn.Linear(n_in, n_out), torch.nn.ReLU()]
    return torch.nn.Sequential(*parts[:-1])


def _train(shards: list[Path], args: argparse.Namespace) -> Path:
    """Train on every shard, an epoch at a time (each epoch's network kept: a stopped run goes on from the last)."""
    import torch

    torch.manual_seed(_seed("train", args.seed) % 2**31)
    torch.set_num_threads(args.processes)
    xs, ys = [], []
    for shard in shards:
        with np.load(shard) as data:
            xs.append(data["x"])
            ys.append(data["y"])
    x_all = np.concatenate(xs)
    y_all = torch.from_numpy(np.concatenate(ys))
    model = _model()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_of = torch.nn.BCEWithLogitsLoss()
    count = len(x_all)
    done = [e for e in range(args.epochs) if (args.work / f"epoch-{e + 1}.pt").exists()]
    if done:
        saved = torch.load(args.work / f"epoch-{done[-1] + 1}.pt", map_location="cpu", weights_only=False)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
    for epoch in range(len(done), args.epochs):
        for group in optimizer.param_groups:  # halved each epoch after the first half of them
            group["lr"] = args.lr * 0.5 ** max(0, epoch - args.epochs // 2)
        generator = torch.Generator().manual_seed(_seed("order", args.seed, epoch) % 2**31)
        order = torch.randperm(count, generator=generator).numpy()
        total, seen = 0.0, 0
        desc = f"epoch {epoch + 1}/{args.epochs}"
        for start in tqdm(range(0, count, args.batch), desc=desc, leave=False):
            pick = np.sort(order[start : start + args.batch])
            x = torch.from_numpy(np.unpackbits(x_all[pick], axis=1, count=INPUTS).astype(np.float32))
            y = y_all[pick]
            out = model(x)
            loss = loss_of(out[:, 0], y[:, 0]) + loss_of(out[:, 1], y[:, 1])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(pick)
            seen += len(pick)
        print(f"epoch {epoch + 1}: loss {total / seen:.4f} over {seen} examples", file=sys.stderr)
        saved_path = args.work / f"epoch-{epoch + 1}.pt"
        partial = saved_path.with_suffix(".part")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, partial)
        partial.rename(saved_path)
    return Path(args.work) / f"epoch-{args.epochs}.pt"


def _arrays(net_file: Path) -> dict[str, np.ndarray]:
    """An epoch's saved network as numpy arrays, by PyTorch's names (``0.weight``: the first layer, out x in)."""
    import torch

    state = torch.load(net_file, map_location="cpu", weights_only=False)["model"]
    return {name: tensor.numpy() for name, tensor in state.items()}


def export(state: dict[str, np.ndarray], path: Path, about: dict[str, Any]) -> None:
    """Write a network (PyTorch's names and shapes) as the server reads it (:mod:`tienlen.bots.master_net`):
    a line of JSON, then float32 little-endian numbers, each layer's weights by input row, then its biases."""
    sizes = [INPUTS, *HIDDEN, OUTPUTS]
    numbers: list[np.ndarray] = []
    for n in range(len(sizes) - 1):
        numbers.append(state[f"{2 * n}.weight"].T.astype("<f4").ravel())
        numbers.append(state[f"{2 * n}.bias"].astype("<f4"))
    header = json.dumps({"sizes": sizes, "about": about}, sort_keys=True)
    path.write_bytes(header.encode() + b"\n" + np.concatenate(numbers).astype("<f4").tobytes())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--hands", type=int, default=200_000, help="self-played hands")
    parser.add_argument("--shard-hands", type=int, default=2_500)
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--actions", type=int, default=24, help="actions played out a decision, at most")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("build/master"))
    parser.add_argument("--export", type=Path, default=NET_PATH)
    args = parser.parse_args(argv)
    started = time.monotonic()
    args.work.mkdir(parents=True, exist_ok=True)
    shards = [args.work / f"shard-{s}.npz" for s in range(args.hands // args.shard_hands)]
    todo = [
        (s, args.shard_hands, args.explore, args.actions, path) for s, path in enumerate(shards) if not path.exists()
    ]
    if todo:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            for _ in tqdm(
                pool.imap_unordered(_play_shard, todo),
                total=len(shards),
                initial=len(shards) - len(todo),
                desc="self-play",
            ):
                pass
    print(f"self-play done at {time.monotonic() - started:.0f} s", file=sys.stderr)
    last = _train(shards, args)
    print(f"training done at {time.monotonic() - started:.0f} s", file=sys.stderr)
    about = {
        "method": "deep Monte Carlo: self-play, each action played out on the true cards (bench/train_master.py)",
        "seed": args.seed,
        "hands": args.hands,
        "explore": args.explore,
        "actions": args.actions,
        "epochs": args.epochs,
    }
    export(_arrays(last), args.export, about)
    print(f"wrote {args.export} ({args.export.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
