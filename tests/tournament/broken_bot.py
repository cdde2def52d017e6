"""A deliberately broken bot for the tournament tests: ``broken_bot.py MODE URL MATCH_ID TOKEN``.

- ``crash``: exits with status 3 at once, before it acts;
- ``illegal``: on each of its turns first sends a play of a card it does not hold
  (refused 422), then its lowest legal play;
- ``slow``: sleeps 30 s, i.e. far past any timeout the tests give it, then exits.

Standard library only, like a bot an author would write.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
ALL_CARDS = [rank + suit for rank in RANKS for suit in "SCDH"]


def call(url: str, method: str, token: str, body: Any = None) -> tuple[int, Any]:
    """One API call; the status and decoded body."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def play_illegally_first(base: str, match_id: str, token: str) -> None:
    """Each turn: one play of a card not held, then the lowest legal play (or a pass)."""
    root = f"{base}/v1/matches/{match_id}"
    while True:
        _, view = call(f"{root}/view", "GET", token)
        if view["status"] == "finished":
            return
        if view["status"] != "playing" or view["turn"] != view["seat"]:
            time.sleep(0.02)
            continue
        missing = next(card for card in ALL_CARDS if card not in view["cards"])
        call(f"{root}/actions", "POST", token, {"type": "play", "cards": [missing], "version": view["version"]})
        _, legal = call(f"{root}/legal", "GET", token)
        if legal["plays"] and not legal["can_pass"]:
            action = {"type": "play", "cards": legal["plays"][0]["cards"], "version": view["version"]}
        else:
            action = {"type": "pass", "version": view["version"]}
        call(f"{root}/actions", "POST", token, action)


def main() -> int:
    """Misbehave as the mode says."""
    mode, base, match_id, token = sys.argv[1:5]
    if mode == "crash":
        print("broken bot: crashing on purpose", file=sys.stderr)
        return 3
    if mode == "slow":
        time.sleep(30)
        return 0
    play_illegally_first(base, match_id, token)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
