"""Answers written by their schemas, fast: each answer schema's dump is worked out once from its fields.

A view returns domain objects (records, views, combinations, hints) and its
``@blp.response`` schema writes them as JSON, as flask-smorest does. The
schema is the one owner of the answer's shape. marshmallow walks every field
through several layers on every dump, which cost an action's answer about
90 µs; :class:`AnswerSchema` plans the same dump once per schema class (one
small function per field) and runs that plan instead. Fields whose kind the
planner does not know are dumped by marshmallow itself, so the plan never
differs from marshmallow's own dump (a property test compares them on random
matches: :meth:`AnswerSchema.reference_dump`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields

Dump = Callable[[Any], Any]
_MISSING = ma.missing
_reference = threading.local()  # set while a reference dump runs: every schema then dumps the marshmallow way


def _value(obj: Any, name: str) -> Any:
    """``obj[name]`` of a mapping, else the attribute (marshmallow's accessor, without dotted paths)."""
    if isinstance(obj, Mapping):
        return obj.get(name, _MISSING)
    return getattr(obj, name, _MISSING)


def _as_is(value: Any) -> Any:
    return value


def _nullable(dump: Dump) -> Dump:
    return lambda value: None if value is None else dump(value)


def _plan_field(field: fields.Field[Any]) -> Dump | None:
    """How one field writes a value, or None when only marshmallow knows (the field then dumps itself)."""
    kind = type(field)
    planned = getattr(field, "dump_value", None)
    if planned is not None:
        return _nullable(planned)
    if kind is fields.String or kind.__name__ == "Tag":
        return _nullable(str)
    if kind is fields.Integer:
        return _nullable(int)
    if kind is fields.Float:
        return _nullable(float)
    if kind is fields.Boolean:
        return _nullable(bool)
    if kind is fields.Raw:
        return _as_is
    if kind is fields.List:
        inner = _plan_field(field.inner)  # type: ignore[attr-defined]
        if inner is None:
            return None
        item = inner
        return _nullable(lambda value: [item(entry) for entry in value])
    if kind is fields.Nested:
        schema = field.schema  # type: ignore[attr-defined]
        if not isinstance(schema, ma.Schema):
            return None
        nested = plan(schema)
        if field.many:  # type: ignore[attr-defined]
            return _nullable(lambda value: [nested(entry) for entry in value])
        return _nullable(nested)
    if kind is fields.Dict:
        keys = field.key_field  # type: ignore[attr-defined]
        values = field.value_field  # type: ignore[attr-defined]
        key_dump = _as_is if keys is None else _plan_field(keys)
        value_dump = _as_is if values is None else _plan_field(values)
        if key_dump is None or value_dump is None:
            return None
        k, v = key_dump, value_dump
        return _nullable(lambda value: {k(key): v(entry) for key, entry in value.items()})
    return None


def _plan_schema(schema: ma.Schema) -> Dump:
    """The dump of one schema instance: each dumped field read, written and keyed in declaration order."""
    steps: list[tuple[str, str, Dump | None, fields.Field[Any]]] = []
    read: Callable[[Any, str], Any] = _value
    if type(schema).get_attribute is not ma.Schema.get_attribute:  # the schema reads its objects its own way
        read = lambda obj, name: schema.get_attribute(obj, name, _MISSING)  # noqa: E731
    for name, field in schema.dump_fields.items():
        attribute = field.attribute or name
        computed = isinstance(field, (fields.Function, fields.Method))
        if computed or "." in attribute or field.dump_default is not _MISSING:
            steps.append((field.data_key or name, name, None, field))  # marshmallow's own accessor and defaults
            continue
        steps.append((field.data_key or name, attribute, _plan_field(field), field))

    def dump(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, attribute, write, field in steps:
            if write is None:
                value = field.serialize(attribute, obj, schema.get_attribute)
            else:
                value = read(obj, attribute)
                if value is _MISSING:
                    continue
                value = write(value)
            if value is not _MISSING:
                out[key] = value
        return out

    return dump


def plan(schema: ma.Schema) -> Dump:
    """The planned dump of a schema instance (a case-picking one plans each case: see ``OneOfSchema.plan``)."""
    own = getattr(schema, "plan", None)
    if own is not None:
        planned: Dump = own()
        return planned
    return _plan_schema(schema)


class AnswerSchema(ma.Schema):
    """A schema of an answer: marshmallow's dump, planned once per class (see the module's doc).

    Function and Method fields still run their function; a field may give
    ``dump_value(value)`` to be planned (cards from a mask, a time from epoch
    seconds).
    """

    _plans: ClassVar[dict[type[ma.Schema], Dump]] = {}
    _lock: ClassVar[threading.RLock] = threading.RLock()

    def plan(self) -> Dump:
        """This schema's planned dump (made on first use; schemas of one class dump alike)."""
        cls = type(self)
        found = AnswerSchema._plans.get(cls)
        if found is None:
            with AnswerSchema._lock:
                found = AnswerSchema._plans.get(cls) or _plan_schema(self)
                AnswerSchema._plans[cls] = found
        return found

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """The answer as JSON-able data: the planned dump (marshmallow's own inside :meth:`reference_dump`)."""
        if getattr(_reference, "active", False):
            return super().dump(obj, many=many)
        dump = self.plan()
        if self.many if many is None else many:
            return [dump(entry) for entry in obj]
        return dump(obj)

    def reference_dump(self, obj: Any) -> Any:
        """marshmallow's own dump of ``obj``, nested schemas included (what the planned dump must equal)."""
        _reference.active = True
        try:
            return self.dump(obj)
        finally:
            _reference.active = False


def reference_active() -> bool:
    """Whether a reference dump is running (case-picking schemas then dump the marshmallow way too)."""
    return bool(getattr(_reference, "active", False))
