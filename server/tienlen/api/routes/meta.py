"""Rules presets and health."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask.views import MethodView

from ...bots import BOT_LEVELS
from ...engine import DEFAULT_PRESET, PARAMETERS, PRESETS
from ...service.phrases import CHAT_PHRASES
from ...store.errors import StoreUnavailableError
from ..schemas import HealthSchema, RuleCatalogSchema
from .common import Blueprint, errors, game

blp = Blueprint("meta", __name__, url_prefix="", description="Rules presets and health")


@blp.route("/v1/rules")
class Rules(MethodView):
    """The rule presets and the bot levels."""

    @blp.response(200, RuleCatalogSchema)
    @blp.doc(operationId="get_rules")
    def get(self) -> dict[str, Any]:
        """The presets with all their parameters, what each parameter allows, the bot levels, and the chat's quick
        phrases in every language of the table."""
        budget = game().core.bot_budget_s
        levels = [asdict(level) | {"budget_s": level.effort * budget or None} for level in BOT_LEVELS]
        return {
            "default_preset": DEFAULT_PRESET,
            "presets": PRESETS,
            "parameters": {p.name: p for p in PARAMETERS},
            "bot_levels": levels,
            "chat_phrases": [{"id": p.id, "text": dict(p.text)} for p in CHAT_PHRASES],
        }


@blp.route("/healthz")
class Health(MethodView):
    """Liveness and store health."""

    @blp.response(200, HealthSchema)
    @blp.doc(operationId="get_health", responses=errors("store_unavailable"))
    def get(self) -> dict[str, Any]:
        """`ok` when Redis answers, else 503."""
        if not game().core.store.ping():
            raise StoreUnavailableError("Redis does not answer")
        return {"status": "ok"}
