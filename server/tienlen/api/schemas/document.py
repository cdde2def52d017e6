"""How the schemas are written into the OpenAPI document beyond what apispec does on its own.

- A :class:`~.common.OneOfSchema` is a ``oneOf`` of its cases (with a
  ``discriminator`` when it has one), each case a component of its own.
- A :class:`~.common.Tag` is a ``const``.
- An :func:`~.common.enum_field` refers to its named enum component.
- A field's ``metadata={"json_schema": {...}}`` and a schema's
  ``json_schema_extra`` add JSON Schema keywords that marshmallow has no
  field for (``contains``, ``if``/``then``).
- Every schema that refuses unknown fields says ``additionalProperties: false``.
- The document names its ``servers`` and holds no schema that nothing uses.
"""

from __future__ import annotations

from typing import Any, cast

import marshmallow as ma
from apispec.ext.marshmallow.common import resolve_schema_instance

from .common import NAMED_ENUMS, OneOfSchema, Tag

SERVERS = [{"url": "/", "description": "The server that serves this document"}]
UNUSED_SCHEMAS = ("PaginationMetadata",)  # flask-smorest registers it for pagination, which API v1 does not use


def describe(api: Any) -> None:
    """Teach the flask-smorest ``api``'s schema converter the rules above (before any blueprint is registered)."""
    converter = api.ma_plugin.converter
    converter.add_attribute_function(_field_keywords)
    plain = converter.schema2jsonschema

    def schema2jsonschema(schema: Any) -> dict[str, Any]:
        instance = resolve_schema_instance(schema)
        if isinstance(instance, OneOfSchema):
            return _one_of(converter, type(instance))
        found: dict[str, Any] = plain(schema)
        if instance.unknown == ma.RAISE:
            found["additionalProperties"] = False
        extra = getattr(instance, "json_schema_extra", None)
        return found | extra if extra else found

    converter.schema2jsonschema = schema2jsonschema
    plain_field = converter.field2property

    def field2property(field: ma.fields.Field[Any]) -> dict[str, Any]:
        replaced = field.metadata.get("json_schema_replace")
        return dict(replaced) if replaced is not None else cast(dict[str, Any], plain_field(field))

    converter.field2property = field2property
    for name, values in NAMED_ENUMS.items():
        api.spec.components.schema(name, {"type": "string", "enum": values})
    api.spec.options["servers"] = SERVERS
    for name in UNUSED_SCHEMAS:
        api.spec.components.schemas.pop(name, None)


def _field_keywords(self: Any, field: ma.fields.Field[Any], **_: Any) -> dict[str, Any]:
    """Keywords of a field that apispec does not write: a tag's ``const``, ``metadata["json_schema"]``."""
    found: dict[str, Any] = {}
    if isinstance(field, Tag):
        found["const"] = field.tag
    found |= field.metadata.get("json_schema", {})
    return found


def _one_of(converter: Any, schema: type[OneOfSchema]) -> dict[str, Any]:
    """The ``oneOf`` of a :class:`OneOfSchema`'s cases, registering each case as a component."""
    refs = [converter.resolve_nested_schema(case) for case in schema.choices]
    found: dict[str, Any] = {"oneOf": refs}
    if schema.__doc__:
        found["description"] = schema.__doc__.strip().split("\n\n")[0]
    if schema.discriminator is not None:
        mapping = {tag: converter.resolve_nested_schema(case)["$ref"] for tag, case in schema.tags().items()}
        found["discriminator"] = {"propertyName": schema.discriminator, "mapping": mapping}
    return found
