"""The bot's policy: loaded from ``module:name``, checked, and the fallback when it fails (the lowest legal play).

A policy is either a function ``policy(view) -> action``, or a class with a
method ``act(view) -> action``, instantiated (without arguments) once per
match, so it may keep what it learns during the match. ``view`` is the seat's
view as the server answers it (``GET /v1/matches/{id}/view``: the public state
with ``seat`` and ``cards``); an action is ``{"type": "play", "cards": [...]}``
or ``{"type": "pass"}``.

A bot may also talk (:func:`chat_hook`): a policy class's ``chat(message)`` method, or a function policy's
module's ``on_chat(message)``, is given each ``chat_said`` event its seat reads (not its own) and, at the
match's end, the final event (``{"type": "match_ended", ...}``); what it answers is said in the seats' room: a
text, ``{"phrase": "good_game"}`` (a quick phrase), or None to say nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..seat import Seat

__all__ = [
    "Action",
    "ChatHook",
    "MatchPolicy",
    "PolicyError",
    "PolicyFactory",
    "chat_hook",
    "fallback_action",
    "is_action",
    "load_policy",
    "lowest",
]

Action = dict[str, Any]
"""``{"type": "play", "cards": ["3S", ...]}`` or ``{"type": "pass"}``."""

MatchPolicy = Callable[[dict[str, Any]], Any]
"""What plays one match: the view → the action."""

PolicyFactory = Callable[[], MatchPolicy]
"""Makes the policy of a new match (the function itself, or a new instance's ``act``)."""


ChatHook = Callable[[dict[str, Any]], Any]
"""What a bot says: a chat message (or the match's final event) → a text, ``{"phrase": id}`` or None."""


def chat_hook(policy: MatchPolicy) -> ChatHook | None:
    """The policy's chat hook: its instance's ``chat`` method (a class policy), or ``on_chat`` of the module
    that defines the function policy; None when it has none."""
    owner = getattr(policy, "__self__", None)
    if owner is not None:
        hook = getattr(owner, "chat", None)
    else:
        hook = getattr(sys.modules.get(getattr(policy, "__module__", "") or ""), "on_chat", None)
    return hook if callable(hook) else None


class PolicyError(ValueError):
    """A ``--policy`` that cannot be loaded: no such module, name, or not a function or a class with ``act``."""


def load_policy(spec: str) -> PolicyFactory:
    """The policy named ``module:name`` (a module on ``sys.path`` or in the working directory, dotted names
    allowed on both sides) or ``path/to/file.py:name`` (the file's directory is put on ``sys.path``).

    Raises:
        PolicyError: when it cannot be loaded or is neither a function nor a class with ``act``.
    """
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise PolicyError(f"a policy is MODULE:NAME or FILE.py:NAME, not {spec!r}")
    try:
        module = _load_file(Path(where)) if where.endswith(".py") else _load_module(where)
    except PolicyError:
        raise
    except Exception as error:  # the module's own code failed while it was imported
        raise PolicyError(f"cannot import {where!r}: {error!r}") from error
    found: Any = module
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise PolicyError(f"{where!r} has no {name!r}") from None
    if inspect.isclass(found):
        if not callable(getattr(found, "act", None)):
            raise PolicyError(f"the class {name!r} has no act(view) method")
        cls: Callable[[], Any] = found

        def instance() -> MatchPolicy:
            act: MatchPolicy = cls().act
            return act

        return instance
    if callable(found):
        function: MatchPolicy = found
        return lambda: function
    raise PolicyError(f"{spec!r} is neither a function nor a class with act(view)")


def _load_module(name: str) -> Any:
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))  # as `python -m` would: the working directory's modules
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            raise PolicyError(f"no module {name!r} (looked on sys.path and in {Path.cwd()})") from error
        raise


def _load_file(path: Path) -> Any:
    if not path.is_file():
        raise PolicyError(f"no file {str(path)!r}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # its own imports of modules beside it
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise PolicyError(f"cannot load {str(path)!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def is_action(value: Any) -> bool:
    """Whether ``value`` has the shape of an action (the server still judges whether it is legal)."""
    if not isinstance(value, dict):
        return False
    if value.get("type") == "pass":
        return True
    cards = value.get("cards")
    return value.get("type") == "play" and isinstance(cards, list) and all(isinstance(c, str) for c in cards)


def fallback_action(seat: Seat, view: dict[str, Any]) -> Action:
    """The lowest legal play of the seat on turn (pass when it has none).

    Worked out from the view with :mod:`tienlen_client.botkit` when the
    ``tienlen`` package is installed, else asked of ``GET …/legal``.
    """
    try:
        from ..botkit import lowest_play
    except ImportError:
        legal = seat.legal()
        plays = legal["plays"]
        return {"type": "play", "cards": list(plays[0]["cards"])} if plays else {"type": "pass"}
    cards = lowest_play(view)
    return {"type": "play", "cards": cards} if cards else {"type": "pass"}


def lowest(view: dict[str, Any]) -> Action:
    """A policy that plays the lowest legal play and passes when it has none (needs the ``tienlen`` package).

    ``tienlen-bot --policy tienlen_client.bot.policy:lowest``.
    """
    from ..botkit import lowest_play

    cards = lowest_play(view)
    return {"type": "play", "cards": cards} if cards else {"type": "pass"}
