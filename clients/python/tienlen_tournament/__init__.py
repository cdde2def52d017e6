"""Tournaments for outside bots (``tienlen-tournament``): bot processes seated against our levels over HTTP.

A client of the server, not part of it: it starts the server (``python -m
tienlen serve``) as a process of its own and plays through the project's
Python client (``tienlen_client``); from the server package it takes only
the bot levels, their default budget and the deal seeds (``tienlen.bots``),
the rule presets and the private Redis.

- :mod:`.server`: the tournament's own ``tienlen serve`` on a private Redis, and
  the count of refused actions from its request log;
- :mod:`.seating`: one match: the bot's process in its seat and the steward that
  times its decisions and plays for it when it is too slow or gone;
- :mod:`.intervals`: Wilson score intervals for rates, bootstrap intervals for means;
- :mod:`.report`: rates and points with confidence intervals, and incidents;
- :mod:`.runner`: the plan of matches, the run and the command line.
"""

from __future__ import annotations

from .runner import TournamentConfig, main, run_tournament
from .seating import Stewarding

__all__ = ["Stewarding", "TournamentConfig", "main", "run_tournament"]
