"""An agent's info whose seat view is made only when it is read (the AEC environment's ``info["view"]``).

Most training loops never read the view; making it every step (the engine's
:func:`~tienlen.engine.views.seat_view` builds the whole public view) cost
about as much as the rest of a step. :class:`ViewInfo` is a ``dict`` that
holds ``"view"`` from the start as far as anyone reading it can tell: every
read (``info["view"]``, ``get``, ``in``, iteration, ``len``, ``==``, ``repr``,
copies, pickling) first makes the view, once, of the position the info was
made at (a :func:`~.game.frozen_copy` of the match, which the match's later
actions leave alone), and from then on it is an ordinary dict.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..engine.match import Match
from ..engine.views import seat_view

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

VIEW = "view"


class ViewInfo(dict[str, Any]):
    """``{"view": seat_view(position, seat)}``, the view made on first read."""

    __slots__ = ("_position", "_seat")

    def __init__(self, position: Match, seat: int) -> None:
        super().__init__()
        self._position: Match | None = position
        self._seat = seat

    def _fill(self) -> None:
        """Make the view now, if it is not made yet."""
        position = self._position
        if position is not None:
            self._position = None
            dict.__setitem__(self, VIEW, seat_view(position, self._seat))

    def __missing__(self, key: str) -> Any:
        if key == VIEW and self._position is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """As ``dict.get``."""
        self._fill()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, ViewInfo):
            other._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # a dict is not hashable

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def keys(self) -> dict_keys[str, Any]:
        """As ``dict.keys``."""
        self._fill()
        return dict.keys(self)

    def values(self) -> dict_values[str, Any]:
        """As ``dict.values``."""
        self._fill()
        return dict.values(self)

    def items(self) -> dict_items[str, Any]:
        """As ``dict.items``."""
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        """A plain dict with the view."""
        self._fill()
        return dict(dict.items(self))

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return (dict, (self.copy(),))

    def __setitem__(self, key: str, value: Any) -> None:
        self._fill()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._fill()
        dict.__delitem__(self, key)

    def pop(self, key: str, *default: Any) -> Any:
        """As ``dict.pop``."""
        self._fill()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        """As ``dict.popitem``."""
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """As ``dict.setdefault``."""
        self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """As ``dict.update``."""
        self._fill()
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        """As ``dict.clear``."""
        self._position = None
        dict.clear(self)

    def __or__(self, other: Any) -> dict[str, Any]:  # type: ignore[override]  # dict's overloads
        self._fill()
        return dict(dict.items(self)) | other  # type: ignore[no-any-return]

    def __ror__(self, other: Any) -> dict[str, Any]:  # type: ignore[override]  # dict's overloads
        self._fill()
        return other | dict(dict.items(self))  # type: ignore[no-any-return]

    def __ior__(self, other: Any) -> ViewInfo:  # type: ignore[override]  # dict's overloads
        self._fill()
        dict.update(self, other)
        return self
