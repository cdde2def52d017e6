"""A training environment for bot authors, on the server's own engine (docs/env.md).

- :mod:`.actions`: the fixed action space (518 indices: pass and every class of
  combination) and its mapping to and from the engine's plays;
- :mod:`.encoding`: a seat's view as a fixed-size vector, from the engine's
  view or from the server's JSON view alike;
- :mod:`.observe`: the same encoding read straight from the match (the
  environments' fast path; :mod:`.encoding` stays the reference);
- :mod:`.game`: one match stepped by action index, rewards per seat;
- :mod:`.info`: the AEC info whose seat view is made when first read;
- :mod:`.aec`: the PettingZoo AEC environment (needs ``pettingzoo``); :func:`env`
  and :func:`raw_env` here are its own, imported when first used (PettingZoo's
  convention: ``env()`` wrapped, ``raw_env()`` not);
- :mod:`.single`: the Gymnasium single-agent wrapper, the other seats played by
  a house level or a callable (needs ``gymnasium``).

Everything here needs numpy; install the ``env`` extra (``pip install -e '.[env]'``).
This package imports neither PettingZoo nor Gymnasium itself, so a bot that
only encodes views and decodes actions needs numpy alone.
"""

from typing import Any

from .actions import ACTION_COUNT, ACTIONS, PASS, ActionSpec, action_mask, describe, index_of, play_of
from .encoding import FIELDS, OBS_SIZE, ViewFacts, encode, encode_json, encode_view, facts_of_json, facts_of_view


def __getattr__(name: str) -> Any:
    """``env`` and ``raw_env`` of :mod:`.aec`, imported on first use (so that this package needs numpy alone)."""
    if name in ("env", "raw_env"):
        from . import aec

        return getattr(aec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACTIONS",
    "ACTION_COUNT",
    "FIELDS",
    "OBS_SIZE",
    "PASS",
    "ActionSpec",
    "ViewFacts",
    "action_mask",
    "describe",
    "encode",
    "encode_json",
    "encode_view",
    "facts_of_json",
    "facts_of_view",
    "index_of",
    "play_of",
]
