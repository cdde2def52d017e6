"""An example for bot authors: train a small policy against Easy in ``tienlen.env``, then play it online.

The policy is linear and softmax over the allowed actions: ``logits = W·x + b``
for the encoded view ``x`` (:func:`tienlen.env.encode_view`, 220 numbers) and
the 518 indices of the action space (:mod:`tienlen.env.actions`), trained
with REINFORCE (numpy only) in the single-agent environment, the other seats
played by the house's Easy. It is saved as a small ``.npz`` file. Online the
same file plays a seat over HTTP through the example bot's runner
(``lowest_bot.play_match``): the seat's JSON view is encoded with
:func:`tienlen.env.encode_json` (the same numbers as in training), its legal
plays worked out from the view with ``tienlen_client.botkit`` (the engine's
own generator), and the chosen index turned back into cards with
:func:`tienlen.env.play_of`. Usage::

    python clients/python/train_easy.py train --seconds 30 --out policy.npz
    python clients/python/train_easy.py play http://127.0.0.1:8000 MATCH_ID TOKEN --policy policy.npz
    python clients/python/train_easy.py play http://127.0.0.1:8000 MATCH_ID --join Robo --policy policy.npz

Or let ``tienlen-bot`` play every match of a bot account with it (challenges, quick play)::

    TIENLEN_POLICY_FILE=policy.npz tienlen-bot --token T --policy clients/python/train_easy.py:policy

It needs the ``tienlen`` package with its ``env`` extra (numpy, gymnasium).
"""

from __future__ import annotations

import argparse
import functools
import http.client
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lowest_bot import Chooser, MatchCancelled, outcome, play_match
from tienlen_client import ApiError, Client, Seat
from tienlen_client.botkit import view_legal_masks

from tienlen.engine import cards_mask, format_mask
from tienlen.env import ACTION_COUNT, OBS_SIZE, action_mask, encode_json, play_of
from tienlen.env.single import TienLenSingleEnv

Vector = npt.NDArray[np.float32]


@dataclass
class LinearPolicy:
    """A linear softmax policy over the allowed actions: ``weights`` (OBS_SIZE × ACTION_COUNT) and ``bias``."""

    weights: Vector
    bias: Vector

    @classmethod
    def zeros(cls) -> LinearPolicy:
        """The untrained policy: uniform over the allowed actions."""
        return cls(np.zeros((OBS_SIZE, ACTION_COUNT), np.float32), np.zeros(ACTION_COUNT, np.float32))

    def probabilities(self, observation: Vector, mask: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        """The probability of each index (0 where the mask forbids it)."""
        logits = (observation @ self.weights + self.bias).astype(np.float64)
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()  # type: ignore[no-any-return]

    def best(self, observation: Vector, mask: npt.NDArray[Any]) -> int:
        """The most probable allowed index (how the policy plays online)."""
        return int(np.argmax(self.probabilities(observation, mask)))

    def save(self, path: Path) -> None:
        """Write the policy as ``.npz`` with the encoding's sizes, which :meth:`load` checks."""
        np.savez_compressed(path, weights=self.weights, bias=self.bias, sizes=np.array([OBS_SIZE, ACTION_COUNT]))

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        """Read a saved policy; ValueError when it was made for another encoding or action space."""
        with np.load(path) as data:
            if tuple(data["sizes"]) != (OBS_SIZE, ACTION_COUNT):
                raise ValueError(f"{path} was trained for {tuple(data['sizes'])}, not ({OBS_SIZE}, {ACTION_COUNT})")
            return cls(data["weights"].astype(np.float32), data["bias"].astype(np.float32))


def train(
    seconds: float, seed: int = 1, learning_rate: float = 0.05, rules: Mapping[str, Any] | None = None
) -> tuple[LinearPolicy, dict[str, float]]:
    """REINFORCE against three Easy bots for about ``seconds``; the policy and what training saw.

    One hand a match (``standard`` otherwise), the ``places`` reward (+1 first
    … -1 last), a running mean as the baseline.
    """
    env = TienLenSingleEnv(opponents="easy", seat=0, rules=dict(rules or {"hands": 1}), reward="places")
    policy = LinearPolicy.zeros()
    rng = np.random.default_rng(seed)
    baseline = 0.0
    episodes = 0
    total = 0.0
    started = time.perf_counter()
    observation, _info = env.reset(seed=seed)
    while time.perf_counter() - started < seconds:
        trajectory: list[tuple[Vector, npt.NDArray[np.float64], int]] = []
        earned = 0.0
        while True:
            x, mask = observation["observation"], observation["action_mask"]
            probabilities = policy.probabilities(x, mask)
            action = int(rng.choice(ACTION_COUNT, p=probabilities))
            trajectory.append((x, probabilities, action))
            observation, reward, terminated, _truncated, _info = env.step(action)
            earned += reward
            if terminated:
                break
        advantage = earned - baseline
        for x, probabilities, action in trajectory:
            gradient = -probabilities
            gradient[action] += 1.0
            step = (learning_rate * advantage * gradient).astype(np.float32)
            policy.weights += np.outer(x, step)
            policy.bias += step
        baseline += 0.05 * (earned - baseline)
        episodes += 1
        total += earned
        observation, _info = env.reset()
    return policy, {"episodes": episodes, "mean_reward": total / max(episodes, 1), "seconds": seconds}


def best_cards(policy: LinearPolicy, view: Mapping[str, Any]) -> list[str] | None:
    """The policy's best allowed play for the seat's JSON view (the same encoding as in training); None: pass."""
    allowed = action_mask(view_legal_masks(view), view["table"] is not None)
    play = play_of(policy.best(encode_json(view), allowed), cards_mask(view["cards"]))
    return format_mask(play) if play else None


def chooser(policy: LinearPolicy) -> Chooser:
    """The example runner's chooser for a policy: its best allowed action, from the seat's JSON view alone."""

    def choose(seat: Seat, view: dict[str, Any]) -> list[str] | None:
        return best_cards(policy, view)

    return choose


POLICY_VARIABLE = "TIENLEN_POLICY_FILE"
"""The saved policy :func:`policy` plays (default ``policy.npz`` in the working directory)."""


@functools.cache
def saved_policy(path: str) -> LinearPolicy:
    """The policy saved at ``path``, read once."""
    return LinearPolicy.load(Path(path))


def policy(view: dict[str, Any]) -> dict[str, Any]:
    """The saved policy as a ``tienlen-bot`` policy: the seat's view → its action.

    ``TIENLEN_POLICY_FILE=policy.npz tienlen-bot --policy clients/python/train_easy.py:policy`` plays every
    match of the bot's account with the file saved by ``train``, the same encoding used both ways.
    """
    cards = best_cards(saved_policy(os.environ.get(POLICY_VARIABLE, "policy.npz")), view)
    return {"type": "play", "cards": cards} if cards else {"type": "pass"}


def main(argv: list[str] | None = None) -> int:
    """``train`` a policy and save it, or ``play`` a seat with a saved one; the exit status."""
    parser = argparse.ArgumentParser(description="Train a linear policy against Easy, or play a seat with one.")
    commands = parser.add_subparsers(dest="command", required=True)
    trainer = commands.add_parser("train", help="train against three Easy bots and save the policy")
    trainer.add_argument("--seconds", type=float, default=30.0)
    trainer.add_argument("--seed", type=int, default=1)
    trainer.add_argument("--out", type=Path, default=Path("policy.npz"))
    player = commands.add_parser("play", help="play a seat over HTTP with a saved policy")
    player.add_argument("base_url")
    player.add_argument("match_id")
    player.add_argument("token", nargs="?")
    player.add_argument("--join", metavar="NAME", help="join an open seat under this name")
    player.add_argument("--policy", type=Path, default=Path("policy.npz"))
    args = parser.parse_args(argv)
    if args.command == "train":
        policy, seen = train(args.seconds, args.seed)
        policy.save(args.out)
        print(f"trained {seen['episodes']} hands, mean reward {seen['mean_reward']:+.3f}; saved {args.out}")
        return 0
    if not args.token and not args.join:
        parser.error("give a token or --join NAME")
    policy = LinearPolicy.load(args.policy)
    try:
        with Client(args.base_url) as client:
            token = client.join(args.match_id, args.join)["token"] if args.join else args.token
            final = play_match(client.seat(args.match_id, token), choose=chooser(policy))
    except MatchCancelled as cancelled:
        print(cancelled)
        return 0
    except ApiError as error:
        print(f"refused: {error.status} {error.reason}: {error.message}", file=sys.stderr)
        return 1
    except (OSError, http.client.HTTPException) as error:
        print(f"connection failed: {error}", file=sys.stderr)
        return 1
    print(f"{outcome(final)}, scores {[s['score'] for s in final['seats']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
