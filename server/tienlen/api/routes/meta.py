"""Rules presets and health."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from ...engine import PRESETS
from ..errors import fail
from ..schemas import HealthSchema, PresetsSchema
from .common import errors, service

blp = Blueprint("meta", __name__, url_prefix="", description="Rules presets and health")

PARAMETERS: dict[str, dict[str, Any]] = {
    "players": {"type": "integer", "minimum": 2, "maximum": 4, "about": "Seats; taken from the seats of a match"},
    "bombs": {"enum": ["exact", "classic", "ladder", "off"], "about": "Which plays bomb which (RULES.md §4)"},
    "pass_reentry_with_bomb": {"type": "boolean", "about": "A pass-locked seat may still bomb a 2 on its turn"},
    "start_card_rule": {"type": "boolean", "about": "The match's opening lead must include the lowest card dealt"},
    "end_on_first_out": {"type": "boolean", "about": "A hand ends when the first seat goes out"},
    "scoring": {"enum": ["places", "wins", "none"], "about": "Points per place; 'none' needs hands = 1"},
    "hands": {"type": "integer", "minimum": 1, "maximum": 50, "about": "Hands in a match"},
    "tiebreak": {"enum": ["best_finish", "until_clear"], "about": "How a tie for the top total is settled"},
}


@blp.route("/v1/rules")
class Rules(MethodView):
    """The rule presets."""

    @blp.response(200, PresetsSchema)
    @blp.doc(operationId="get_rules")
    def get(self) -> dict[str, Any]:
        """The presets with all their parameters, and what each parameter allows."""
        presets = {name: rules.to_dict() for name, rules in PRESETS.items()}
        return {"default_preset": "standard", "presets": presets, "parameters": PARAMETERS}


@blp.route("/healthz")
class Health(MethodView):
    """Liveness and store health."""

    @blp.response(200, HealthSchema)
    @blp.doc(operationId="get_health", responses=errors("store_unavailable"))
    def get(self) -> dict[str, Any]:
        """`ok` when Redis answers, else 503."""
        if not service().store.ping():
            fail("store_unavailable", "Redis does not answer")
        return {"status": "ok"}
