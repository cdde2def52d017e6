"""``tienlen-bot``: run a bot for an account, unattended (see :mod:`.runner`).

    tienlen-bot --url http://127.0.0.1:8000 --token T --policy mybot:policy
    tienlen-bot --url http://127.0.0.1:8000 --token T --policy mybot:policy --tournament 3f9c…   # one tournament

Modules: :mod:`.config` (the command line), :mod:`.policy` (loading the
policy, the lowest-legal-play fallback), :mod:`.backoff`, :mod:`.reader`
(the account's inbox), :mod:`.worker` (one match), :mod:`.tournament` (the
entry of ``--tournament ID``), :mod:`.runner` (the loop and :func:`main`).
Standard library only, like the rest of the client; the fallback works the
lowest play out with :mod:`tienlen_client.botkit` when the ``tienlen`` package is installed, else asks ``GET …/legal``.
"""

from __future__ import annotations

from .backoff import Backoff
from .config import Config, parse_config
from .policy import PolicyError, load_policy
from .runner import Runner, main

__all__ = ["Backoff", "Config", "PolicyError", "Runner", "load_policy", "main", "parse_config"]
