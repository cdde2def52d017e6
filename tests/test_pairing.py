"""Quick-play pairing (``tienlen.service.pairing``), pure.

Rules checked: players of close ratings share a table at once; far ratings wait until their windows have
widened enough; the oldest ticket chooses the nearest ratings; after the fill time the oldest is seated with
whoever fits and house bots for the rest; no ticket is at two tables; every table's tickets fit each other.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.service.pairing import BASE_WINDOW, WIDEN_PER_S, fits, pair
from tienlen.store.queue import Waiting

NOW = 1000.0


def waiting(name: str, rating: int, waited_s: float) -> Waiting:
    """A ticket that has waited ``waited_s`` by NOW."""
    return Waiting(name, rating, NOW - waited_s)


CASES = [
    # (rule, tickets as (name, rating, waited), players, fill_s, tables as (names, bots))
    ("close ratings sit together at once", [("a", 1500, 0), ("b", 1520, 0)], 2, 15, [(("a", "b"), 0)]),
    ("far ratings do not, at first", [("a", 1500, 0), ("b", 1700, 0)], 2, 15, []),
    (
        "far ratings do once the window widened",
        [("a", 1500, (200 - BASE_WINDOW) / WIDEN_PER_S), ("b", 1700, 0)],
        2,
        15,
        [(("a", "b"), 0)],
    ),
    (
        "the oldest chooses the nearest",
        [("a", 1500, 5), ("b", 1600, 1), ("c", 1510, 0)],
        2,
        15,
        [(("a", "c"), 0)],
    ),
    ("not enough players: wait", [("a", 1500, 3), ("b", 1500, 2), ("c", 1500, 1)], 4, 15, []),
    (
        "after the fill time, bots take the seats left",
        [("a", 1500, 16), ("b", 1510, 2)],
        4,
        15,
        [(("a", "b"), 2)],
    ),
    ("a fill time of 0 seats a lone player at once", [("a", 1500, 0)], 3, 0, [(("a",), 2)]),
    (
        "a full table leaves the rest waiting",
        [("a", 1500, 3), ("b", 1500, 2), ("c", 1500, 1)],
        2,
        15,
        [(("a", "b"), 0)],
    ),
]


@pytest.mark.parametrize(("rule", "tickets", "players", "fill_s", "tables"), CASES, ids=[c[0] for c in CASES])
def test_pairing(
    rule: str,
    tickets: list[tuple[str, int, float]],
    players: int,
    fill_s: float,
    tables: list[tuple[tuple[str, ...], int]],
) -> None:
    made = pair([waiting(*t) for t in tickets], players, NOW, fill_s)
    assert [(tuple(w.ticket for w in table.tickets), table.bots) for table in made] == tables, rule


TICKETS = st.lists(st.tuples(st.integers(800, 2400), st.floats(0, 40)), min_size=0, max_size=40).map(
    lambda found: [waiting(f"t{i}", rating, waited) for i, (rating, waited) in enumerate(found)]
)


@settings(max_examples=200, deadline=None)
@given(TICKETS, st.integers(2, 4), st.sampled_from([0.0, 15.0]))
def test_no_ticket_is_at_two_tables_and_every_table_fits(tickets: list[Waiting], players: int, fill_s: float) -> None:
    """Invariants over random queues: each ticket at one table at most; a table has 1 to `players` tickets and
    bots for the rest; its tickets fit each other; a table short of players only for one who waited fill_s."""
    made = pair(tickets, players, NOW, fill_s)
    seated = [w.ticket for table in made for w in table.tickets]
    assert len(seated) == len(set(seated))
    for table in made:
        assert 1 <= len(table.tickets) <= players and len(table.tickets) + table.bots == players
        assert all(fits(a, b, NOW) for a in table.tickets for b in table.tickets)
        if table.bots:
            assert NOW - table.tickets[0].queued_at >= fill_s
