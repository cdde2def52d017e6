"""Rules presets and health."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine import DEFAULT_PRESET, PARAMETERS, PRESETS, Parameter
from ...store import StoreUnavailableError
from ..schemas import HealthSchema, RuleCatalogSchema
from .common import Blueprint, errors, service

blp = Blueprint("meta", __name__, url_prefix="", description="Rules presets and health")


def parameter_answer(parameter: Parameter) -> dict[str, Any]:
    """What one rule parameter allows and means, as ``/v1/rules`` answers it."""
    if parameter.choices is not None:
        allowed: dict[str, Any] = {"enum": list(parameter.values)}
        if parameter.values_about:
            allowed["values"] = dict(parameter.values_about)
    elif parameter.is_flag:
        allowed = {"type": "boolean"}
    else:
        allowed = {"type": "integer", "minimum": parameter.minimum, "maximum": parameter.maximum}
    return allowed | {"about": parameter.about}


@blp.route("/v1/rules")
class Rules(MethodView):
    """The rule presets."""

    @blp.response(200, RuleCatalogSchema)
    @blp.doc(operationId="get_rules")
    def get(self) -> dict[str, Any]:
        """The presets with all their parameters, and what each parameter allows."""
        presets = {name: rules.to_dict() for name, rules in PRESETS.items()}
        parameters = {p.name: parameter_answer(p) for p in PARAMETERS}
        return {"default_preset": DEFAULT_PRESET, "presets": presets, "parameters": parameters}


@blp.route("/healthz")
class Health(MethodView):
    """Liveness and store health."""

    @blp.response(200, HealthSchema)
    @blp.doc(operationId="get_health", responses=errors("store_unavailable"))
    def get(self) -> dict[str, Any]:
        """`ok` when Redis answers, else 503."""
        if not service().store.ping():
            raise StoreUnavailableError("Redis does not answer")
        return {"status": "ok"}
