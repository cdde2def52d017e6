"""Replays dealt by the fair-deal protocol (the Python client's ``tienlen-deal/1``), for the tests of its checkers."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client.fair_deal import commitment, hand_deal


def fair_replay(secret: bytes, match_id: str, entropy: Sequence[str], hands: int) -> dict[str, Any]:
    """A ``tienlen-replay/1`` document of ``hands`` hands dealt by the protocol (no move played) with its
    ``fair_deal``; a test adds the rules, seats and result it needs."""
    return {
        "format": "tienlen-replay/1",
        "hands": [
            {"hand_number": n, "deal": hand_deal(secret, match_id, n, entropy), "actions": []}
            for n in range(1, hands + 1)
        ],
        "fair_deal": {
            "protocol": "tienlen-deal/1",
            "match_id": match_id,
            "commitment": commitment(secret),
            "secret": secret.hex(),
            "entropy": list(entropy),
        },
    }
