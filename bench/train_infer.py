"""Train the card model (`make train-infer`): who holds each unseen card, from Medium self-play.

Plays ``--deals`` deals (standard preset, four seats, Medium in every seat;
seed ``--seed``, not the benchmark's held-out seed) and records, at every
decision, the features of :mod:`tienlen.bots.cardmodel` for each (unseen card,
other seat) and the card's true holder. Fits a multinomial logit over the
holders of each card (full-batch Newton steps with a small L2 penalty, numpy;
deterministic) and writes the weights to ``server/tienlen/bots/cardmodel.json``.
Prints the training log-loss against uniform (stderr) and the weights (stdout).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from typing import Any

import numpy as np

from inference import decisions  # bench/ is the script's own folder, first on sys.path
from tienlen.bots.cardmodel import FEATURES, MODEL_PATH, feature_table

TRAIN_SEED = 101
L2 = 1e-3
NEWTON_STEPS = 12


def _deal_arrays(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features ``[card, holder (3, padded), feature]``, a mask of real holders and the true holder index."""
    deal, seed = args
    xs, masks, ys = [], [], []
    for view, hands in decisions(deal, seed):
        unseen, seats, table = feature_table(view)
        for i, card in enumerate(unseen):
            x = np.zeros((3, len(FEATURES)))
            m = np.zeros(3, dtype=bool)
            owner = -1
            for h, seat in enumerate(seats):
                x[h] = table[h][i]
                m[h] = True
                if hands[seat] >> card & 1:
                    owner = h
            if owner >= 0 and m.sum() > 1:
                xs.append(x)
                masks.append(m)
                ys.append(owner)
    if not xs:
        return np.zeros((0, 3, len(FEATURES))), np.zeros((0, 3), dtype=bool), np.zeros(0, dtype=int)
    return np.array(xs), np.array(masks), np.array(ys)


def _probabilities(w: np.ndarray, x: np.ndarray, m: np.ndarray) -> np.ndarray:
    z = x @ w
    z = np.where(m, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def fit(x: np.ndarray, m: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Newton's method on the mean log-loss plus L2 (log_count's weight is pulled towards 1, the others to 0)."""
    n, _, f = x.shape
    prior = np.zeros(f)
    prior[0] = 1.0
    w = prior.copy()
    rows = np.arange(n)
    for _ in range(NEWTON_STEPS):
        p = _probabilities(w, x, m)
        mean_x = np.einsum("nh,nhf->nf", p, x)
        grad = -(x[rows, y] - mean_x).mean(axis=0) + L2 * (w - prior)
        centered = x - mean_x[:, None, :]
        hess = np.einsum("nh,nhf,nhg->fg", p, centered, centered) / n + L2 * np.eye(f)
        w -= np.linalg.solve(hess, grad)
    p = _probabilities(w, x, m)
    loss = float(-np.log(p[rows, y]).mean())
    base = _probabilities(prior, x, m)
    return w, loss, float(-np.log(base[rows, y]).mean())


def main(argv: list[str]) -> int:
    """Collect the training set, fit, write the model file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=TRAIN_SEED)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default=str(MODEL_PATH))
    args = parser.parse_args(argv)
    multiprocessing.set_start_method("fork", force=True)
    jobs = [(deal, args.seed) for deal in range(args.deals)]
    with multiprocessing.Pool(args.processes) as pool:
        parts = pool.map(_deal_arrays, jobs, chunksize=8)
    x = np.concatenate([p[0] for p in parts])
    m = np.concatenate([p[1] for p in parts])
    y = np.concatenate([p[2] for p in parts])
    w, loss, base = fit(x, m, y)
    print(f"{len(y)} cards: log-loss {loss:.4f}, uniform {base:.4f}, gain {1 - loss / base:+.3f}", file=sys.stderr)
    model: dict[str, Any] = {
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in w],
        "trained": {"deals": args.deals, "seed": args.seed, "players": "medium x4", "l2": L2},
    }
    with open(args.out, "w") as out:
        json.dump(model, out, indent=1)
        out.write("\n")
    print(json.dumps(dict(zip(FEATURES, model["weights"], strict=True)), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
