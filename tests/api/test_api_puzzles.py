"""Puzzles: `GET /v1/puzzles/next`, `POST /v1/puzzles/{id}/moves`, `GET /v1/me/puzzles`.

Rules checked: a puzzle shows both hands (perfect information); answering the stored line move by move gets
`correct` with the opponent's replies, then `solved`; a wrong move ends the attempt and shows the right move;
an account's puzzle rating moves once a puzzle (solved up, wrong down; answering again changes nothing), and
its counts follow; `next` gives an account an unattempted puzzle; every refusal is a 4xx with its reason and
changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth, fresh_name, sign_up
from tests.support.api import json_object
from tienlen.bots.endgame import forced_moves
from tienlen.bots.puzzles import Puzzle, load_bank
from tienlen.engine import format_mask
from tienlen.service.puzzles import puzzle_match

BANK = {p.id: p for p in load_bank()}


def member(client: FlaskClient) -> str:
    """A new account's session token."""
    return str(sign_up(client, fresh_name("pz"))["token"])


def body(step: int, mask: int) -> dict[str, Any]:
    """The move's body: a play of ``mask`` or, for 0, a pass."""
    if mask:
        return {"step": step, "type": "play", "cards": format_mask(mask)}
    return {"step": step, "type": "pass"}


def move(client: FlaskClient, puzzle_id: str, sent: dict[str, Any], token: str | None = None) -> Any:
    """POST a move; the answer."""
    return client.post(f"/v1/puzzles/{puzzle_id}/moves", json=sent, headers=auth(token) if token else {})


def stats(client: FlaskClient, token: str) -> dict[str, Any]:
    """GET /v1/me/puzzles; assert 200."""
    answer = client.get("/v1/me/puzzles", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def solve(client: FlaskClient, p: Puzzle, token: str | None) -> dict[str, Any]:
    """Answer the stored line move by move; the last answer (each before it `correct`, replies as stored)."""
    mine = [i for i, (seat, _) in enumerate(p.line) if seat == p.turn]
    for step, index in enumerate(mine):
        answer = move(client, p.id, body(step, p.line[index][1]), token)
        assert answer.status_code == 200, answer.json
        got = json_object(answer)
        if step == len(mine) - 1:
            return got
        assert got["result"] == "correct" and got["next_step"] == step + 1
        replies = [m for _seat, m in p.line[index + 1 : mine[step + 1]]]
        assert got["replies"] == [{"type": "play" if m else "pass", "cards": format_mask(m)} for m in replies]
    raise AssertionError("no move")


def test_next_shows_the_whole_position_and_solving_by_the_line_moves_the_rating_once(client: FlaskClient) -> None:
    """Rule: next shows both hands; the stored line solves it; the account's rating rises once, counts follow."""
    token = member(client)
    answer = client.get("/v1/puzzles/next", headers=auth(token))
    assert answer.status_code == 200, answer.json
    shown = json_object(answer)
    p = BANK[shown["id"]]
    assert shown["hand"] == format_mask(p.hands[p.turn]) and shown["seat"] == p.turn
    assert shown["opponent"] == format_mask(p.hands[p.opponent])
    assert shown["opponent_count"] == p.hands[p.opponent].bit_count()
    assert (shown["table"] is None) == (p.table == 0)
    start = stats(client, token)["rating"]
    last = solve(client, p, token)
    assert last["result"] == "solved" and last["rating"] > start
    after = stats(client, token)
    assert after["rating"] == last["rating"]
    assert (after["attempts"], after["solved"], after["failed"], after["open"]) == (1, 1, 0, 0)
    again = solve(client, p, token)  # practice: the rating does not move again
    assert again["result"] == "solved" and again["rating"] == last["rating"]
    assert stats(client, token) == after
    assert json_object(client.get("/v1/puzzles/next", headers=auth(token)))["id"] != p.id


def test_a_wrong_move_ends_the_attempt_shows_the_answer_and_lowers_the_rating(client: FlaskClient) -> None:
    """Rule: a legal move other than the one winning first move is wrong: the answer is shown, the rating drops."""
    token = member(client)
    p = next(iter(BANK.values()))
    m = puzzle_match(p)
    legal = [*m.legal_masks(), *([0] if m.table is not None else [])]
    wrong = next(a for a in legal if a != p.line[0][1])
    start = stats(client, token)["rating"]
    answer = move(client, p.id, body(0, wrong), token)
    assert answer.status_code == 200, answer.json
    got = json_object(answer)
    expected = p.line[0][1]
    assert got["result"] == "wrong" and got["next_step"] is None and got["replies"] == []
    assert got["answer"] == {"type": "play" if expected else "pass", "cards": format_mask(expected)}
    assert got["rating"] < start
    assert (stats(client, token)["failed"], stats(client, token)["rating"]) == (1, got["rating"])
    solved_later = solve(client, p, token)  # the attempt was decided: solving it now moves nothing
    assert solved_later["rating"] == got["rating"]
    anonymous = json_object(move(client, p.id, body(0, wrong)))
    assert anonymous["result"] == "wrong" and anonymous["rating"] is None


def test_every_refusal_is_a_4xx_with_its_reason(client: FlaskClient) -> None:
    """Rule: an unknown puzzle 404 puzzle_not_found; a bad step or body 422 invalid_request; an illegal move the
    engine's reason; a bad token 401; no play scope 403; none of them changes the account's counts."""
    token = member(client)
    made = client.post("/v1/me/tokens", json={"label": "acct", "scopes": ["account"]}, headers=auth(token))
    account_only = json_object(made)["token"]
    p = next(iter(BANK.values()))
    first = p.line[0][1]
    not_held = next(1 << c for c in range(52) if not any(h >> c & 1 for h in p.hands))
    steps = sum(1 for seat, _ in p.line if seat == p.turn)
    cases: list[tuple[str, str, dict[str, Any], str | None, tuple[int, str]]] = [
        ("unknown puzzle", "0" * 16, body(0, first), token, (404, "puzzle_not_found")),
        ("step past the line", p.id, body(steps, first), token, (422, "invalid_request")),
        ("negative step", p.id, body(-1, first), token, (422, "invalid_request")),
        ("a play without cards", p.id, {"step": 0, "type": "play"}, token, (422, "invalid_request")),
        ("a pass with cards", p.id, {"step": 0, "type": "pass", "cards": ["3S"]}, token, (422, "invalid_request")),
        ("not a card", p.id, {"step": 0, "type": "play", "cards": ["ZZ"]}, token, (422, "unknown_card")),
        ("a card not held", p.id, body(0, not_held), token, (422, "cards_not_in_hand")),
        ("bad token", p.id, body(0, first), "nope", (401, "invalid_token")),
        ("no play scope", p.id, body(0, first), account_only, (403, "scope_missing")),
    ]
    for about, puzzle_id, sent, used, expected in cases:
        answer = move(client, puzzle_id, sent, used)
        assert (answer.status_code, json_object(answer)["reason"]) == expected, about
    assert client.get("/v1/me/puzzles").status_code == 401
    assert client.get("/v1/puzzles/next", headers=auth("nope")).status_code == 401
    assert stats(client, token)["attempts"] == 0


def test_deleting_an_account_forgets_its_puzzle_attempts_and_rating(client: FlaskClient, db: Any) -> None:
    """Rule: an erased account's puzzle keys (its attempts, its puzzle rating) go with it."""

    def puzzle_keys() -> set[bytes]:
        return set(db.keys("tl:{acct:*}:puzzle*"))

    token = member(client)
    before = puzzle_keys()
    assert solve(client, next(iter(BANK.values())), token)["result"] == "solved"
    mine = puzzle_keys() - before
    assert len(mine) == 2
    deleted = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(token))
    assert deleted.status_code == 204, deleted.json
    assert not mine & puzzle_keys()


def off_line_win() -> tuple[Puzzle, int, int]:
    """A puzzle, a later step of its solver, and a move there that is not the line's but still forces the win."""
    for p in BANK.values():
        m = puzzle_match(p)
        step = 0
        for seat, mask in p.line:
            if seat == p.turn and step > 0:
                rules = m.rules
                found, _ = forced_moves(
                    m.hands, seat, m.table, m.table_seat, m.locked, rules.bombs, rules.pass_reentry_with_bomb
                )
                others = [a for a, won in found.items() if won and a != mask and a != m.hands[seat]]
                if others:
                    return p, step, others[0]
            if seat == p.turn:
                step += 1
            if mask:
                m.play(seat, mask)
            else:
                m.pass_turn(seat)
    raise AssertionError("no puzzle has a second winning move after its first")


def test_after_the_first_move_another_winning_move_solves_it(client: FlaskClient) -> None:
    """Rule: past step 0, a move off the line that still forces the win (the exact search) solves the puzzle."""
    token = member(client)
    p, step, other = off_line_win()
    mine = [i for i, (seat, _) in enumerate(p.line) if seat == p.turn]
    for earlier in range(step):
        answer = json_object(move(client, p.id, body(earlier, p.line[mine[earlier]][1]), token))
        assert answer["result"] == "correct"
    last = json_object(move(client, p.id, body(step, other), token))
    assert last["result"] == "solved" and last["rating"] > 1500  # a new account shows 1500: a win raises it
    assert (stats(client, token)["solved"], stats(client, token)["rating"]) == (1, last["rating"])
