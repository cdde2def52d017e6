"""An example bot script: plays its lowest legal play, passes when it has none.

It learns that it is on turn by following the match's event stream
(``GET …/stream``, Server-Sent Events): whenever an event may have made it
the seat's turn (a ``hand_started`` or ``table_cleared`` that names it the
leader, any ``played`` or ``passed``) it reads its view and acts when it is
on turn. With ``--long-poll`` it long-polls ``GET …/events?wait=`` instead.
Either way it never polls hard. It asks ``GET …/legal`` for its plays and
needs nothing but the standard library and the ``tienlen_client`` package
beside it. Usage::

    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN
    python clients/python/lowest_bot.py https://cards.example/tienlen MATCH_ID --join "Robo"
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN --long-poll

The server's URL may be ``https://`` (the certificate is checked against the
system's authorities; ``SSL_CERT_FILE`` names another bundle) and may have a
path prefix. Every write is retried with its ``Idempotency-Key`` (see
``tienlen_client``). A refusal ends the script with one line on standard
error, e.g. ``refused: 409 match_full: …``, and exit status 1; so does a
server that cannot be reached. A match cancelled before it was dealt ends it
with ``match cancelled: …`` and status 0.

With the server's ``tienlen`` package installed, ``--from-view`` works the
lowest play out from the seat's own view (``tienlen_client.botkit.lowest_play``),
exactly as the referee would, instead of asking ``…/legal``.
"""

from __future__ import annotations

import argparse
import http.client
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tienlen_client import FINAL_EVENTS, ApiError, Client, Seat

Chooser = Callable[[Seat, dict[str, Any]], "list[str] | None"]
"""How a bot picks its play from its view: the cards, or None to pass."""


def lowest_from_legal(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The first (lowest) play ``GET …/legal`` lists, or None when it lists none."""
    plays = seat.legal()["plays"]
    return list(plays[0]["cards"]) if plays else None


def lowest_from_view(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The lowest legal play worked out from the view alone (needs the ``tienlen`` package)."""
    from tienlen_client.botkit import lowest_play

    return lowest_play(view)


def from_view_available() -> bool:
    """True when the ``tienlen`` package (and so ``tienlen_client.botkit``) can be imported."""
    try:
        import tienlen_client.botkit  # noqa: F401
    except ImportError:
        return False
    return True


TURN_EVENTS = frozenset({"hand_started", "table_cleared", "played", "passed"})
"""The events after which the turn may have come to the seat."""

LEADER_EVENTS = frozenset({"hand_started", "table_cleared"})
"""Turn events that name the seat on turn (``leader``)."""

RACED = frozenset({"stale_version", "not_your_turn", "match_not_playing"})
"""Refusals of an action that only mean the match moved on meanwhile: read the view again."""


class MatchCancelled(Exception):
    """The match was cancelled before it was dealt (``match_cancelled``): there is nothing to play."""


def play_match(
    seat: Seat, wait: float = 20, choose: Chooser = lowest_from_legal, *, long_poll: bool = False
) -> dict[str, Any]:
    """Play the seat until the match ends (``match_ended`` or ``match_abandoned``); answer the final view.

    It follows the event stream, or with ``long_poll`` long-polls the events
    (``wait`` seconds a call).

    Raises:
        MatchCancelled: when the match is cancelled before it is dealt.
        ApiError: when the server refuses a call for another reason than a race (see :data:`RACED`).
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
            if error.reason not in RACED:
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
        if events.last_type == "match_cancelled":
            raise MatchCancelled(f"match cancelled before it was dealt: {seat.match_id}")
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
                if error.reason not in RACED:
                    raise
            continue
        after = max(after, int(view["last_seq"]))
        page = seat.client.events(seat.match_id, after=after, wait=wait)
        if any(event["type"] == "match_cancelled" for event in page["events"]):
            raise MatchCancelled(f"match cancelled before it was dealt: {seat.match_id}")
        if any(event["type"] in FINAL_EVENTS for event in page["events"]):
            continue  # the view says how it ended
        after = int(page["last_seq"])


def main(argv: list[str] | None = None) -> int:
    """Join or take a seat and play it to the end; the exit status.

    0 when the match ended (or was cancelled before it was dealt); 1, with one
    line on standard error, when the server refused a call (its status, reason
    and message) or could not be reached after the retries; 2 for bad arguments.
    """
    parser = argparse.ArgumentParser(description="Play a seat with the lowest legal play.")
    parser.add_argument("base_url")
    parser.add_argument("match_id")
    parser.add_argument("token", nargs="?")
    parser.add_argument("--join", metavar="NAME", help="join an open seat under this name")
    parser.add_argument(
        "--from-view",
        action="store_true",
        help="work the play out from the seat's view with tienlen_client.botkit (needs the tienlen package) "
        "instead of asking GET .../legal",
    )
    parser.add_argument(
        "--long-poll",
        action="store_true",
        help="learn that the seat is on turn by long-polling GET .../events instead of following GET .../stream",
    )
    args = parser.parse_args(argv)
    if args.from_view and not from_view_available():
        parser.error("--from-view needs the tienlen package (pip install -e . in the server's repository)")
    if not args.token and not args.join:
        parser.error("give a token or --join NAME")
    try:
        client = Client(args.base_url)
    except ValueError as error:
        parser.error(str(error))
    try:
        with client:
            token = client.join(args.match_id, args.join)["token"] if args.join else args.token
            final = play_match(
                client.seat(args.match_id, token),
                choose=lowest_from_view if args.from_view else lowest_from_legal,
                long_poll=args.long_poll,
            )
    except MatchCancelled as cancelled:
        print(cancelled)
        return 0
    except ApiError as error:
        print(f"refused: {error.status} {error.reason}: {error.message}", file=sys.stderr)
        return 1
    except (OSError, http.client.HTTPException) as error:  # ConnectionFailed after the retries, among others
        print(f"connection failed: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"{outcome(final)}, scores {[s['score'] for s in final['seats']]}")
    return 0


def outcome(final: dict[str, Any]) -> str:
    """How a finished match ended, in words: its winner, the seats sharing the win, or no winner."""
    if final.get("winner") is not None:
        return f"match over: winner seat {final['winner']}"
    if final.get("winners"):
        return f"match over: winning seats {final['winners']}"
    return "match abandoned: no winner"


if __name__ == "__main__":
    raise SystemExit(main())
