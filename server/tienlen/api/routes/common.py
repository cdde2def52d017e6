"""What the route modules share: the service of the current app and error docs."""

from __future__ import annotations

from typing import cast

from flask import current_app

from ..service import MatchService

MATCH_ID = "<string:match_id>"
AUTH: list[dict[str, list[str]]] = [{"bearerAuth": []}]


def service() -> MatchService:
    """The match service of the running app."""
    return cast(MatchService, current_app.extensions["tienlen"])


def describe(*reasons: str) -> str:
    """Document which reasons an error status can carry."""
    return "Reasons: " + ", ".join(f"`{r}`" for r in reasons)
