"""What the server offers, as API v1 answers it: the rule presets and parameters, the bot levels, health."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from ...bots import LEVELS
from ...engine import PRESET_NAMES, Parameter
from .answers import RulesSchema
from .chat import ChatPhraseSchema
from .common import enum_field
from .dumping import AnswerSchema


def allowed(parameter: Parameter) -> dict[str, Any]:
    """What one rule parameter allows and means, keyword by keyword (only the keywords that apply to it)."""
    if parameter.choices is not None:
        found: dict[str, Any] = {"enum": list(parameter.values)}
        if parameter.values_about:
            found["values"] = dict(parameter.values_about)
    elif parameter.is_flag:
        found = {"type": "boolean"}
    else:
        found = {"type": "integer", "minimum": parameter.minimum, "maximum": parameter.maximum}
    return found | {"about": parameter.about}


class RuleParameterSchema(AnswerSchema):
    """What one rule parameter allows and means."""

    about = fields.String(required=True)
    type = fields.String(validate=validate.OneOf(["boolean", "integer"]), metadata={"description": "Unless `enum`"})
    enum = fields.List(fields.String(), metadata={"description": "The values it may take"})
    values = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"description": "What each value means"}
    )
    minimum = fields.Integer()
    maximum = fields.Integer()

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        """A keyword of what the parameter (a :class:`~tienlen.engine.Parameter`) allows; left out where none."""
        return allowed(obj).get(attr, default)


class BotLevelInfoSchema(AnswerSchema):
    """One level of the server's bots: what it does and how long it may think."""

    name = enum_field("BotLevel", LEVELS, metadata={"description": "The level, as a seat's `bot` names it"})
    about = fields.String(required=True)
    effort = fields.Integer(
        required=True,
        metadata={"description": "Bot budgets (and Hard's search counts) a decision may spend; 0: it does not search"},
    )
    budget_s = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "Seconds a decision may take on this server (`effort` bot budgets); null: no search"},
    )


class RuleCatalogSchema(AnswerSchema):
    """The presets with all their parameters, the bot levels a seat may take, and the chat's quick phrases."""

    default_preset = enum_field("Preset", PRESET_NAMES)
    presets = fields.Dict(keys=fields.String(), values=fields.Nested(RulesSchema), required=True)
    parameters = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RuleParameterSchema),
        required=True,
        metadata={"description": "What each parameter means and allows"},
    )
    bot_levels = fields.List(
        fields.Nested(BotLevelInfoSchema),
        required=True,
        metadata={"description": "The levels of the server's bots, weakest first; each is a rated house account"},
    )
    chat_phrases = fields.List(
        fields.Nested(ChatPhraseSchema),
        required=True,
        metadata={"description": "The chat's quick phrases (`POST /v1/matches/{match_id}/chat` `phrase`)"},
    )


class HealthSchema(AnswerSchema):
    """Health of the server and its store."""

    status = fields.String(required=True)
