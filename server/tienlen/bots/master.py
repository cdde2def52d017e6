"""Master: Hard's search led by a network that learned from self-play which moves win.

The network (:mod:`.master_net`) values every legal action of the seat from its
view alone: the chance of finishing first and the place points, learned from
self-played hands whose every action was played out on the true cards
(``make train-master``). Master searches as Hard does, with three changes: the
network's best actions join the candidates (its best first, where Medium's
choice stands for Hard); each candidate's head start a deal is the network's
value of it (:data:`NET_WEIGHT` of it, in the playouts' units) instead of
Medium's small one; and in every playout the seat's own later moves are the
network's pick among Hard's candidates, not Medium's (:mod:`.net_playouts`), so
a candidate is judged by how Master would go on, not Medium. Those playouts
cost more, so Master plays :data:`SEARCH_EFFORT` times Hard's counts, within
ten bot budgets of clock (its level's effort). In the endgame the exact search
decides as for Hard. The network alone (no search) is the arena's ``policy``
level.
"""

from __future__ import annotations

import random
import time

from ..engine.combos import Combination
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from .base import PASS_ACTION, Action, play_action
from .hard import FIRST_BONUS, choose_hard
from .master_net import Estimate, MasterNet, shipped_net
from .net_playouts import led_playouts_for
from .playouts import Playouts

NET_CANDIDATES = 2  # the network's best actions put before Hard's own candidates
# The search's counts (playouts, step budget) times Hard's: each playout dearer than Hard's, its seat's moves the
# network's (NET_MOVES of them: every one a playout makes); its clock is still the level's effort (ten bot budgets).
# Twice Hard's counts so led took +2.0 points of first places over Master's ten times led by Medium (docs/bots.md).
SEARCH_EFFORT = 2
NET_MOVES = 99
# The network's value of a candidate (in the playouts' units: place points plus Hard's first-place bonus) counts
# this much a deal of the search: 0.25 against 0.5, 1 and 2 over 400 tuning deals at effort 5, and against 0.125
# and 0.5 over 1,000 at effort 10 (docs/bots.md, Master).
NET_WEIGHT = 0.25


def worth(estimate: Estimate, players: int) -> float:
    """What an action is worth to Master, in the units of Hard's playouts: place points (players − 1 for first)
    plus the first-place bonus times the chance of first place."""
    return (players - 1) * estimate.points + FIRST_BONUS * estimate.first


def appraise(view: SeatView, legal: LegalPlays, net: MasterNet) -> dict[int, float]:
    """Each legal action (a mask; 0 = a pass) and its :func:`worth`, best first (ties in the order of the plays)."""
    options: list[Combination | None] = list(legal.plays)
    if legal.can_pass or not options:
        options.append(None)
    estimates = net.estimates(view, legal, options)
    worths = {(0 if o is None else o.mask): worth(e, view.players) for o, e in zip(options, estimates, strict=True)}
    return dict(sorted(worths.items(), key=lambda item: -item[1]))


def ranked(view: SeatView, legal: LegalPlays, net: MasterNet) -> list[int]:
    """The legal actions (masks; 0 = a pass) best first by the network's worth."""
    return list(appraise(view, legal, net))


def choose_policy(view: SeatView, legal: LegalPlays, net: MasterNet | None = None) -> Action:
    """The network's best action alone (no search)."""
    if not legal.plays:
        return PASS_ACTION
    best = ranked(view, legal, net or shipped_net())[0]
    return PASS_ACTION if best == 0 else play_action(best)


def choose_master(
    view: SeatView,
    legal: LegalPlays,
    rng: random.Random,
    *,
    budget_s: float | None = None,
    iterations: int | None = None,
    effort: int = 10,
) -> Action:
    """Master's choice: Expert's search with the network's best actions among its candidates and the network's
    value of each candidate as its head start a deal.

    The network's time comes out of ``budget_s``: the search gets what is left.
    """
    if not legal.plays:
        return choose_hard(view, legal, rng, budget_s=budget_s, iterations=iterations, effort=effort)
    started = time.perf_counter()
    net = shipped_net()
    worths = appraise(view, legal, net)
    order = list(worths)

    def head_start(cands: list[int]) -> list[float]:
        return [NET_WEIGHT * worths.get(m, 0.0) for m in cands]

    def led(view: SeatView, first_bonus: float) -> Playouts:
        return led_playouts_for(view, first_bonus, net, NET_MOVES)

    left = None if budget_s is None else max(0.0, budget_s - (time.perf_counter() - started))
    return choose_hard(
        view,
        legal,
        rng,
        budget_s=left,
        iterations=None if iterations is None else max(1, iterations * SEARCH_EFFORT // effort),
        effort=SEARCH_EFFORT,
        first=order[:NET_CANDIDATES],
        head_start=head_start,
        playouts=led,
    )
