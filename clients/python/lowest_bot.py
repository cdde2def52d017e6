"""An example bot script: plays its lowest legal play, passes when it has none.

It learns that it is on turn by following the match's event stream
(``GET …/stream``, Server-Sent Events): whenever an event may have made it
the seat's turn (a ``hand_started`` or ``table_cleared`` that names it the
leader, any ``played`` or ``passed``) it reads its view and acts when it is
on turn. With ``--long-poll`` it long-polls ``GET …/events?wait=`` instead.
Either way it never polls hard. It asks ``GET …/legal`` for its plays and
needs nothing but the standard library and ``tienlen_client.py`` beside it.
Usage::

    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID --join "Robo"
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN --long-poll

With the server's ``tienlen`` package installed, ``--from-view`` works the
lowest play out from the seat's own view (``tienlen.botkit.lowest_play``),
exactly as the referee would, instead of asking ``…/legal``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tienlen_client import ApiError, Client, Seat

Chooser = Callable[[Seat, dict[str, Any]], "list[str] | None"]
"""How a bot picks its play from its view: the cards, or None to pass."""


def lowest_from_legal(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The first (lowest) play ``GET …/legal`` lists, or None when it lists none."""
    plays = seat.legal()["plays"]
    return list(plays[0]["cards"]) if plays else None


def lowest_from_view(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The lowest legal play worked out from the view alone (needs the ``tienlen`` package)."""
    from tienlen.botkit import lowest_play

    return lowest_play(view)


def from_view_available() -> bool:
    """True when the ``tienlen`` package (and so ``tienlen.botkit``) can be imported."""
    try:
        import tienlen.botkit  # noqa: F401
    except ImportError:
        return False
    return True


TURN_EVENTS = frozenset({"hand_started", "table_cleared", "played", "passed"})
"""The events after which the turn may have come to the seat."""

LEADER_EVENTS = frozenset({"hand_started", "table_cleared"})
"""Turn events that name the seat on turn (``leader``)."""


def play_match(
    seat: Seat, wait: float = 20, choose: Chooser = lowest_from_legal, *, long_poll: bool = False
) -> dict[str, Any]:
    """Play the seat until the match ends; answer the final view.

    It follows the event stream, or with ``long_poll`` long-polls the events
    (``wait`` seconds a call).
    """
    if long_poll:
        return play_match_long_polling(seat, wait, choose)
    return play_match_following(seat, choose)


def act_while_on_turn(seat: Seat, view: dict[str, Any], choose: Chooser) -> dict[str, Any]:
    """Act for as long as the latest view says the seat is on turn; answer the latest view."""
    while view["status"] == "playing" and view["turn"] == view["seat"]:
        cards = choose(seat, view)
        version = view["version"]
        try:
            view = seat.play(cards, version=version) if cards else seat.pass_turn(version=version)
        except ApiError as error:
            if error.reason not in ("stale_version", "not_your_turn"):
                raise
            view = seat.view()
    return view


def play_match_following(seat: Seat, choose: Chooser = lowest_from_legal) -> dict[str, Any]:
    """Play the seat until the match ends, learning from the event stream when it may be on turn.

    A view (or the answer to the seat's own action, which is its view after
    the bots replied) covers every event up to its ``last_seq``; only a later
    event that may have passed the turn on makes the seat read its view again.
    """
    view = act_while_on_turn(seat, seat.view(), choose)
    known = int(view["last_seq"])
    if view["status"] == "finished":
        return view
    me = view["seat"]
    with seat.client.follow(seat.match_id, after=known) as events:
        for event in events:
            if event["seq"] <= known or event["type"] not in TURN_EVENTS:
                continue
            if event["type"] in LEADER_EVENTS and event["leader"] != me:
                continue
            view = act_while_on_turn(seat, seat.view(), choose)
            known = max(known, int(view["last_seq"]))
            if view["status"] == "finished":
                return view
    return seat.view()


def play_match_long_polling(seat: Seat, wait: float = 20, choose: Chooser = lowest_from_legal) -> dict[str, Any]:
    """Play the seat until the match ends, long-polling the events between its turns."""
    after = 0
    while True:
        view = seat.view()
        if view["status"] == "finished":
            return view
        if view["status"] == "playing" and view["turn"] == view["seat"]:
            cards = choose(seat, view)
            try:
                if cards:
                    seat.play(cards, version=view["version"])
                else:
                    seat.pass_turn(version=view["version"])
            except ApiError as error:
                if error.reason not in ("stale_version", "not_your_turn"):
                    raise
            continue
        after = max(after, int(view["last_seq"]))
        after = int(seat.client.events(seat.match_id, after=after, wait=wait)["last_seq"])


def main() -> int:
    """Join or take a seat and play it to the end."""
    parser = argparse.ArgumentParser(description="Play a seat with the lowest legal play.")
    parser.add_argument("base_url")
    parser.add_argument("match_id")
    parser.add_argument("token", nargs="?")
    parser.add_argument("--join", metavar="NAME", help="join an open seat under this name")
    parser.add_argument(
        "--from-view",
        action="store_true",
        help="work the play out from the seat's view with tienlen.botkit (needs the tienlen package) "
        "instead of asking GET .../legal",
    )
    parser.add_argument(
        "--long-poll",
        action="store_true",
        help="learn that the seat is on turn by long-polling GET .../events instead of following GET .../stream",
    )
    args = parser.parse_args()
    if args.from_view and not from_view_available():
        parser.error("--from-view needs the tienlen package (pip install -e . in the server's repository)")
    client = Client(args.base_url)
    token = args.token
    if args.join:
        token = client.join(args.match_id, args.join)["token"]
    if not token:
        parser.error("give a token or --join NAME")
    final = play_match(
        client.seat(args.match_id, token),
        choose=lowest_from_view if args.from_view else lowest_from_legal,
        long_poll=args.long_poll,
    )
    print(f"match over: winner seat {final['winner']}, scores {[s['score'] for s in final['seats']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
