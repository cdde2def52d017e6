"""How the schemas are written into the OpenAPI document beyond what apispec does on its own.

- A :class:`~.common.OneOfSchema` is a ``oneOf`` of its cases (with a
  ``discriminator`` when it has one), each case a component of its own. A
  union whose tag may be left out (``tag_optional``: bodies from before the
  tag existed) documents the tag as required all the same, with the
  discriminator, and says in its description that an untagged value is still
  accepted as a deprecated leniency.
- A :class:`~.common.Tag` is a ``const``.
- A boolean that takes one value is ``{"type": "boolean", "not": {"const":
  <the other>}}``: openapi-generator turns a boolean ``enum`` or ``const``
  into a string enum that no boolean passes.
- A request field's default is said in its description, not as ``default``:
  openapi-typescript (default options) makes a property with a ``default``
  required, which is right for an answer and wrong for a request.
- Every operation names its ``security``: one that does not name
  ``bearerAuth`` is public (``security: []``).
- An :func:`~.common.enum_field` refers to its named enum component.
- A field's ``metadata={"json_schema": {...}}`` and a schema's
  ``json_schema_extra`` add JSON Schema keywords that marshmallow has no
  field for (``contains``, ``if``/``then``).
- Every schema that refuses unknown fields says ``additionalProperties: false``.
- The document names its ``servers`` and holds no schema that nothing uses.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterable
from typing import Any, ClassVar, cast

import marshmallow as ma
from apispec import BasePlugin
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
        _defaults_in_descriptions(instance, found)
        if instance.unknown == ma.RAISE:
            found["additionalProperties"] = False
        extra = getattr(instance, "json_schema_extra", None)
        return found | extra if extra else found

    converter.schema2jsonschema = schema2jsonschema
    plain_field = converter.field2property

    def field2property(field: ma.fields.Field[Any]) -> dict[str, Any]:
        replaced = field.metadata.get("json_schema_replace")
        if replaced is not None:
            return dict(replaced)
        return _one_boolean(cast(dict[str, Any], plain_field(field)))

    converter.field2property = field2property
    for name, values in NAMED_ENUMS.items():
        api.spec.components.schema(name, {"type": "string", "enum": values})
    api.spec.options["servers"] = SERVERS
    api.spec.plugins.append(PublicUnlessAuthorized())
    for name in UNUSED_SCHEMAS:
        api.spec.components.schemas.pop(name, None)


class PublicUnlessAuthorized(BasePlugin):
    """An operation that names no ``security`` is public: it gets ``security: []``.

    Linters (and generators) read an operation without ``security`` as one
    whose security is not said; this says it.
    """

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any) -> None:
        """Give every operation of ``path`` without its own ``security`` an empty one."""
        for operation in (operations or {}).values():
            if isinstance(operation, dict):
                operation.setdefault("security", [])


class RefusedBeforeTheApp(BasePlugin):
    """Every operation may answer 414 ``uri_too_long`` and 431 ``headers_too_large``.

    The server (gunicorn) refuses a request line over 4094 bytes or headers
    over its limits before any view runs, in the same error shape.
    """

    ANSWERS: ClassVar[dict[str, str]] = {
        "414": "Reasons: `uri_too_long` (the request line is over 4094 bytes)",
        "431": "Reasons: `headers_too_large` (a header over 8190 bytes, or over 100 of them)",
    }

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any) -> None:
        """Document both answers on every operation of ``path``."""
        for operation in (operations or {}).values():
            if isinstance(operation, dict):
                responses = operation.setdefault("responses", {})
                for status, about in self.ANSWERS.items():
                    content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                    responses.setdefault(status, {"description": about, "content": content})


def _one_boolean(found: dict[str, Any]) -> dict[str, Any]:
    """A boolean property whose ``enum`` is one value, written as "not the other value" (see the module)."""
    if found.get("type") == "boolean" and isinstance(found.get("enum"), list) and len(found["enum"]) == 1:
        only = found.pop("enum")[0]
        found["not"] = {"const": not only}
    return found


def _defaults_in_descriptions(schema: ma.Schema, found: dict[str, Any]) -> None:
    """Say each field's load default in its property's description instead of a ``default`` keyword."""
    properties = found.get("properties", {})
    for name, field in schema.fields.items():
        default = field.load_default
        documented = properties.get(field.data_key or name)
        if documented is None or default is ma.missing or callable(default):
            continue
        documented.pop("default", None)
        shown = f"`{default if isinstance(default, str) else json.dumps(default)}`"
        about = documented.get("description")
        documented["description"] = f"{about} (default {shown})" if about else f"Default {shown}"


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
        found["description"] = " ".join(inspect.cleandoc(schema.__doc__).split("\n\n")[0].splitlines())
    if schema.discriminator is not None:
        mapping = {tag: converter.resolve_nested_schema(case)["$ref"] for tag, case in schema.tags().items()}
        found["discriminator"] = {"propertyName": schema.discriminator, "mapping": mapping}
        if schema.tag_optional:
            _document_tag_required(converter, schema.discriminator, mapping.values())
            found["description"] = f"{found.get('description', '')} {UNTAGGED_LENIENCY}".strip()
    return found


UNTAGGED_LENIENCY = (
    "Deprecated leniency: a value without its `type` is still accepted (its case is worked out from its other "
    "properties), as bodies from before `type` existed; send `type`."
)


def _document_tag_required(converter: Any, tag: str, refs: Iterable[str]) -> None:
    """Document the union's tag as required in each case's component (the ``discriminator`` keyword needs it in
    every value); the server still loads a value without it (:data:`UNTAGGED_LENIENCY`)."""
    schemas = converter.spec.components.schemas
    for ref in refs:
        component = schemas[ref.rsplit("/", 1)[1]]
        required = component.setdefault("required", [])
        if tag not in required:
            required.insert(0, tag)
