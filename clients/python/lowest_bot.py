"""An example bot script: plays its lowest legal play, passes when it has none.

It learns that it is on turn by long-polling the public events, so it never
polls hard. Usage::

    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID TOKEN
    python clients/python/lowest_bot.py http://127.0.0.1:8000 MATCH_ID --join "Robo"
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tienlen_client import ApiError, Client, Seat


def play_match(seat: Seat, wait: float = 20) -> dict[str, object]:
    """Play the seat until the match ends; answer the final view."""
    after = 0
    while True:
        view = seat.view()
        if view["status"] == "finished":
            return view
        if view["status"] == "playing" and view["turn"] == view["seat"]:
            legal = seat.legal()
            try:
                if legal["plays"]:
                    seat.play(legal["plays"][0]["cards"], version=view["version"])
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
    args = parser.parse_args()
    client = Client(args.base_url)
    token = args.token
    if args.join:
        token = client.join(args.match_id, args.join)["token"]
    if not token:
        parser.error("give a token or --join NAME")
    final = play_match(client.seat(args.match_id, token))
    print(f"match over: winner seat {final['winner']}, scores {[s['score'] for s in final['seats']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
