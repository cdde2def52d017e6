"""For authors of Python bots that play over HTTP: legal plays from a seat's own view.

A remote bot holds only the JSON of its seat's view (``GET …/view``, or the
answer to its own action). :func:`view_legal_masks` works out from that alone
exactly the plays the referee would accept, with the engine's own generator,
so a bot need not ask ``GET …/legal`` before every action::

    from tienlen_client.botkit import lowest_play, view_legal_masks

    masks = view_legal_masks(view)        # card masks, [] when not on turn
    cards = lowest_play(view)             # e.g. ["3S"], or None: pass

Unlike the rest of ``tienlen_client`` (standard library only), this module
needs the server's ``tienlen`` package installed: it uses its rules engine
(``tienlen.engine``), so its answers are the referee's by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tienlen.engine.cards import cards_mask, format_mask, parse_index
from tienlen.engine.combos import classify
from tienlen.engine.legal import play_order, seat_legal_masks
from tienlen.engine.rules import Bombs

__all__ = ["lowest_play", "view_legal_masks"]


def view_legal_masks(view: Mapping[str, Any]) -> list[int]:
    """The legal plays (card masks) of the seat on turn, worked out from that seat's JSON view alone.

    ``view`` is the seat's view as the API answers it: its ``seat``, ``cards``,
    ``start_card``, ``status``, ``turn``, ``table``, ``seats[*].passed`` and
    ``rules.bombs`` are read. The answer equals the referee's own list. Empty
    when the seat is not on turn.
    """
    seat = view["seat"]
    if view.get("status") != "playing" or view["turn"] != seat:
        return []
    table = None if view["table"] is None else classify(cards_mask(view["table"]["cards"]))
    start = view.get("start_card")
    return seat_legal_masks(
        cards_mask(view["cards"]),
        table,
        Bombs(view["rules"]["bombs"]),
        locked=table is not None and bool(view["seats"][seat]["passed"]),
        start_card=None if start is None else parse_index(start),
    )


def lowest_play(view: Mapping[str, Any]) -> list[str] | None:
    """The cards of the seat's lowest legal play (fewest cards, then lowest), or None when it has none."""
    plays = [c for c in map(classify, view_legal_masks(view)) if c is not None]
    if not plays:
        return None
    return format_mask(min(plays, key=play_order).mask)
