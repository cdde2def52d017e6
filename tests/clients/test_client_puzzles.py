"""The Python client's puzzle calls against a real server process: the next puzzle (typed), solving it by its
line, the account's puzzle rating, and a refusal raised as an ApiError with its reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client

from tests.clients.people import new_member
from tienlen.bots.puzzles import load_bank
from tienlen.engine import format_mask

pytestmark = pytest.mark.xdist_group("live_server")


def test_a_puzzle_solved_through_the_client_moves_the_account_s_rating(live_server: str) -> None:
    """Rule: next_puzzle shows both hands; the stored line answered by puzzle_move is solved; my_puzzles counts it."""
    client = Client(live_server)
    me = new_member(client)
    shown = client.next_puzzle(me.token)
    p = {z.id: z for z in load_bank()}[shown["id"]]
    assert shown["opponent"] == format_mask(p.hands[p.opponent])
    mine = [mask for seat, mask in p.line if seat == p.turn]
    for step, mask in enumerate(mine):
        answer = client.puzzle_move(p.id, step, format_mask(mask) if mask else None, me.token)
        assert answer["result"] == ("solved" if step == len(mine) - 1 else "correct")
    stats = client.my_puzzles(me.token)
    assert (stats["attempts"], stats["solved"], stats["rating"]) == (1, 1, answer["rating"])
    with pytest.raises(ApiError) as refused:
        client.puzzle_move("0" * 16, 0, None, me.token)
    assert (refused.value.status, refused.value.reason) == (404, "puzzle_not_found")
