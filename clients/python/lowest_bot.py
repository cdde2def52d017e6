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
    python clients/python/lowest_bot.py http://127.0.0.1:8000 --room K7QM2X --join "Robo"

Playing under an account (a bot account, say): make a personal token with
the ``play`` scope (``POST /v1/me/tokens``) and give it with ``--token`` or
in ``TIENLEN_TOKEN``. The bot then signs in with it (``GET /v1/me``) and
plays as the account, with that one token for every match: the account's
token acts for the seat its account holds, so no seat token is kept::

    export TIENLEN_TOKEN=...                                   # the personal token
    python clients/python/lowest_bot.py http://127.0.0.1:8000                      # a new match vs 3 Easy bots
    python clients/python/lowest_bot.py http://127.0.0.1:8000 --vs hard --players 2 --hands 1 --matches 3
    python clients/python/lowest_bot.py http://127.0.0.1:8000 --room K7QM2X        # join by room code
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID             # join (or resume) a match

Joining by room code when the account already sits there (a restarted bot)
plays the seat it holds; so does a MATCH_ID whose seat the account holds
(403 ``not_seated`` otherwise, and the bot joins). ``--matches N`` plays N
matches in a row, asking for the rematch after each (each seat of the
rematch must claim its place before it is dealt).

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
import os
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


TOKEN_VARIABLE = "TIENLEN_TOKEN"
"""Where the bot finds a token when none is given on its command line (e.g. an account's personal token)."""

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
    """Take a seat (see the module's usage) and play it to the end, then any rematches asked for; the exit status.

    0 when the match ended (or was cancelled before it was dealt); 1, with one
    line on standard error, when the server refused a call (its status, reason
    and message) or could not be reached after the retries; 2 for bad arguments.
    """
    parser = argparse.ArgumentParser(
        description="Play a seat with the lowest legal play.",
        epilog="With an account's token (--token, else TIENLEN_TOKEN) the bot plays as the account: it joins "
        "MATCH_ID or --room CODE, or without either makes a match against house bots.",
    )
    parser.add_argument("base_url")
    parser.add_argument("match_id", nargs="?", help="the match to play (none: --room, or a new match with bots)")
    parser.add_argument("token", nargs="?", help="a token that acts for the seat: the seat's or its account's")
    parser.add_argument("--join", metavar="NAME", help="join an open seat under this name, without an account")
    parser.add_argument(
        "--token",
        dest="account_token",
        metavar="TOKEN",
        help=f"an account's personal token with the 'play' scope (default: ${TOKEN_VARIABLE})",
    )
    parser.add_argument("--room", metavar="CODE", help="join the match this room code names")
    parser.add_argument("--vs", default="easy", metavar="LEVEL", help="the house bots' level in a new match")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="seats of a new match")
    parser.add_argument("--hands", type=int, metavar="N", help="hands of a new match (default: the preset's)")
    parser.add_argument("--matches", type=int, default=1, metavar="N", help="play N matches in a row (rematches)")
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
    if args.token and args.account_token:
        parser.error("give the token once: as TOKEN or with --token")
    token = args.token or args.account_token or os.environ.get(TOKEN_VARIABLE) or None
    if args.join:
        token = args.token  # --join sits without an account
    if args.match_id and args.room:
        parser.error("give a MATCH_ID or --room CODE, not both")
    if not token and not args.join:
        parser.error(f"give a token (TOKEN, --token or ${TOKEN_VARIABLE}) or --join NAME")
    if not args.match_id and not args.room and args.join:
        parser.error("--join NAME needs a MATCH_ID or --room CODE (a new match is made with an account's token)")
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    try:
        client = Client(args.base_url)
    except ValueError as error:
        parser.error(str(error))
    choose = lowest_from_view if args.from_view else lowest_from_legal
    try:
        with client:
            seat, as_account = take_seat(client, args, token)
            may_join = bool(args.match_id and not args.join)  # the token may be an account's with no seat yet
            for played in range(1, args.matches + 1):
                try:
                    final = play_match(seat, choose=choose, long_poll=args.long_poll)
                except ApiError as error:
                    if not may_join or error.reason != "not_seated":
                        raise
                    client.join(seat.match_id, token=seat.token)  # an account's token: its seat is taken now
                    as_account = True
                    final = play_match(seat, choose=choose, long_poll=args.long_poll)
                may_join = False
                print(f"{outcome(final)}, scores {[s['score'] for s in final['seats']]}", flush=True)
                if played < args.matches:
                    again = seat.rematch()  # the account's token acts in the rematch too; a seat's does not
                    seat = client.seat(again["match_id"], seat.token if as_account else again["token"])
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
    return 0


def take_seat(client: Client, args: argparse.Namespace, token: str | None) -> tuple[Seat, bool]:
    """The seat to play (see the module's usage), and whether its token is known to be an account's (one that
    acts in the rematches too). With a MATCH_ID the token is used as it is (a seat's or an account's).

    Raises:
        ApiError: when the server refuses a call.
    """
    if args.join:  # without an account, under a name
        if args.room:
            joined = client.join_room(args.room, args.join)
            return client.seat(joined["match_id"], joined["token"]), False
        return client.seat(args.match_id, client.join(args.match_id, args.join)["token"]), False
    assert token is not None
    if args.match_id:
        return client.seat(args.match_id, token), False
    account = client.me(token)
    print(f"signed in as {account['name']} ({account['kind']})", flush=True)
    if args.room:
        match_id = join_room_as_account(client, args.room, token)
        print(f"room {args.room.upper()}: match {match_id}", flush=True)
        return client.seat(match_id, token), True
    bots = [{"type": "bot", "name": f"{args.vs.title()} {n}", "bot": args.vs} for n in range(1, args.players)]
    rules = {} if args.hands is None else {"hands": args.hands}
    created = client.create_match([{"type": "remote", "name": account["name"]}, *bots], rules=rules, token=token)
    print(f"match {created['match_id']} against {args.players - 1} {args.vs} bots", flush=True)
    return client.seat(created["match_id"], token), True


def join_room_as_account(client: Client, code: str, token: str) -> str:
    """Join the match ``code`` names with an account's ``token`` (or find the seat it holds there); its id."""
    try:
        return client.join_room(code, token=token)["match_id"]
    except ApiError as error:
        if error.reason != "already_seated":
            raise
        return client.room(code)["match_id"]


def outcome(final: dict[str, Any]) -> str:
    """How a finished match ended, in words: its winner, the seats sharing the win, or no winner."""
    if final.get("winner") is not None:
        return f"match over: winner seat {final['winner']}"
    if final.get("winners"):
        return f"match over: winning seats {final['winners']}"
    return "match abandoned: no winner"


if __name__ == "__main__":
    raise SystemExit(main())
