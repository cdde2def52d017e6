"""Plays a match's seats through the Python client that openapi-generator makes (its ``python`` generator).

Every answer below is a real one, parsed by the generated client: the seat view of a waiting match (a remote, a
bot and an open seat), the answers of a join and a leave, the view with a seat left and taken over, the answers of
a play and a pass with their events. The create body holds each kind of seat, built from the generated models and
read back from its JSON.

Usage: python play_with_openapi_generator.py BASE_URL  (the generated ``tienlen_gen`` package on the path)
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def kinds(values: list[Any]) -> list[str]:
    """The class of each oneOf value's case, e.g. ``["RemoteSeatRequest", "BotSeatRequest"]``."""
    return [type(value.actual_instance).__name__ for value in values]


def seat_kind(seat: Any) -> str:
    """What a seat of a view is: ``remote``, ``bot``, ``open`` or ``taken_over``."""
    if seat.open:
        return "open"
    if seat.taken_over:
        return "taken_over" if seat.left else "timed_out"
    return "bot" if seat.bot is not None else "remote"


def main(base_url: str) -> int:
    """Create, join, leave, play and pass; fail on the first answer the generated client cannot parse."""
    gen: Any = importlib.import_module("tienlen_gen")

    def seats_api(token: str) -> Any:
        return gen.SeatsApi(gen.ApiClient(gen.Configuration(host=base_url, access_token=token)))

    matches = gen.MatchesApi(gen.ApiClient(gen.Configuration(host=base_url)))
    seats = [
        gen.RemoteSeatRequest(type="remote", name="Ann"),
        gen.BotSeatRequest(type="bot", name="Bo", bot=gen.BotLevel.EASY),
        gen.OpenSeatRequest(type="open", open=True),
        gen.RemoteSeatRequest(type="remote", name="Cy", open=False),
    ]
    body = gen.CreateMatch(seats=[gen.SeatRequest(seat) for seat in seats])  # others join: a fair deal, none fixed
    expected = ["RemoteSeatRequest", "BotSeatRequest", "OpenSeatRequest", "RemoteSeatRequest"]
    assert kinds(gen.CreateMatch.from_json(body.to_json()).seats) == expected, body.to_json()

    created = matches.create_match(body)
    tokens = {token.seat: token.token for token in created.tokens}
    assert sorted(tokens) == [0, 3], tokens
    ann, cy = seats_api(tokens[0]), seats_api(tokens[3])
    waiting = ann.get_seat_view(created.match_id)
    assert [seat_kind(seat) for seat in waiting.seats] == ["remote", "bot", "open", "remote"], waiting

    joined = matches.join_match(created.match_id, gen.Join(name="Di"))
    assert joined.seat == 2, joined
    di = seats_api(joined.token)
    left = cy.leave_match(created.match_id)
    assert "SeatTakenOverEvent" in kinds(left.events), kinds(left.events)
    playing = ann.get_seat_view(created.match_id)
    assert [seat_kind(seat) for seat in playing.seats] == ["remote", "bot", "remote", "taken_over"], playing
    assert playing.turn in (0, 2) and len(playing.cards) == 13, playing  # the bots replied: a remote seat is on turn

    # The remote seat on turn plays its first legal play (or passes when it has none) until a play and a pass
    # have both been answered (nobody goes out in so few actions).
    answered: set[str] = set()
    for _ in range(12):
        turn = ann.get_seat_view(created.match_id).turn
        seat = {0: ann, 2: di}[turn]
        legal = seat.get_legal_plays(created.match_id)
        if legal.plays and ("PlayedEvent" not in answered or not legal.can_pass):
            action = gen.Action(gen.PlayAction(type="play", cards=legal.plays[0].cards))
        else:
            action = gen.Action(gen.PassAction(type="pass"))
        done = seat.post_action(created.match_id, action)
        answered.add(kinds(done.events)[0])
        if {"PlayedEvent", "PassedEvent"} <= answered:
            break
    assert {"PlayedEvent", "PassedEvent"} <= answered, answered
    events = gen.EventsApi(matches.api_client).get_events(created.match_id, after=0)  # every event of the match
    print(f"parsed {len(events.events)} events: {' '.join(sorted(set(kinds(events.events))))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
