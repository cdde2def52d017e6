"""An example bot script: plays its lowest legal play, passes when it has none.

It learns that it is on turn by long-polling the public events, so it never
polls hard, and asks ``GET …/legal`` for its plays. It needs nothing but the
standard library and ``tienlen_client.py`` beside it. Usage::

    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID --join "Robo"

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


def play_match(seat: Seat, wait: float = 20, choose: Chooser = lowest_from_legal) -> dict[str, Any]:
    """Play the seat until the match ends; answer the final view."""
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
        client.seat(args.match_id, token), choose=lowest_from_view if args.from_view else lowest_from_legal
    )
    print(f"match over: winner seat {final['winner']}, scores {[s['score'] for s in final['seats']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
