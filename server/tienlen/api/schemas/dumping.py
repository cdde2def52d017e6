"""Answers written by their schemas, fast: each answer schema's dump is worked out once from its fields.

A view returns domain objects (records, views, combinations, hints) and its
``@blp.response`` schema writes them as JSON, as flask-smorest does. The
schema is the one owner of the answer's shape. marshmallow walks every field
through several layers on every dump, which cost an action's answer about
90 µs; :class:`AnswerSchema` plans the same dump once per schema class (a
function written for it from its fields, with nested schemas' functions
called by name) and runs that plan instead. Fields whose kind the
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


class _Names:
    """The names a generated dump refers to (functions, nested dumps), and fresh local names."""

    def __init__(self) -> None:
        self.globals: dict[str, Any] = {"M": _MISSING}
        self._count = 0

    def add(self, value: Any) -> str:
        """A global name for ``value``."""
        self._count += 1
        name = f"g{self._count}"
        self.globals[name] = value
        return name

    def local(self) -> str:
        """A fresh local name (a comprehension's item)."""
        self._count += 1
        return f"x{self._count}"


def _written(field: fields.Field[Any], value: str, names: _Names) -> str | None:
    """A Python expression writing the (not missing) value named ``value`` as ``field`` does, or None when only
    marshmallow knows how (the field then writes itself)."""
    kind = type(field)
    planned = getattr(field, "dump_value", None)
    if planned is not None:
        return f"{names.add(planned)}({value})"
    if kind is fields.String or kind.__name__ == "Tag":
        return f"str({value})"
    if kind is fields.Integer:
        return f"int({value})"
    if kind is fields.Float:
        return f"float({value})"
    if kind is fields.Boolean:
        return f"bool({value})"
    if kind is fields.Raw:
        return value
    if kind is fields.List:
        item = names.local()
        inner = _written(field.inner, item, names)  # type: ignore[attr-defined]
        return None if inner is None else f"[{_nullable(inner, item)} for {item} in {value}]"
    if kind is fields.Nested:
        schema = field.schema  # type: ignore[attr-defined]
        if not isinstance(schema, ma.Schema):
            return None
        nested = names.add(plan(schema))
        if field.many:  # type: ignore[attr-defined]
            item = names.local()
            return f"[{nested}({item}) for {item} in {value}]"
        return f"{nested}({value})"
    if kind is fields.Dict:
        key, entry = names.local(), names.local()
        keys, values = field.key_field, field.value_field  # type: ignore[attr-defined]
        key_text = key if keys is None else _written(keys, key, names)
        entry_text = entry if values is None else _written(values, entry, names)
        if key_text is None or entry_text is None:
            return None
        return f"{{{_nullable(key_text, key)}: {_nullable(entry_text, entry)} for {key}, {entry} in {value}.items()}}"
    return None


def _nullable(expression: str, value: str) -> str:
    return expression if expression == value else f"(None if {value} is None else {expression})"


def _plan_schema(schema: ma.Schema) -> Dump:
    """The dump of one schema instance: a function written for it, each field read, written and keyed in
    declaration order (a field only marshmallow can write, or a schema that reads its objects its own way, is
    left to marshmallow for that field)."""
    names = _Names()
    own_reads = type(schema).get_attribute is not ma.Schema.get_attribute
    body: dict[str, list[str]] = {"mapping": [], "object": []}
    for name, field in schema.dump_fields.items():
        key = repr(field.data_key or name)
        attribute = field.attribute or name
        computed = isinstance(field, (fields.Function, fields.Method))
        written = None if computed else _written(field, "v", names)
        if own_reads or written is None or "." in attribute or field.dump_default is not _MISSING:
            serialize, read = names.add(field.serialize), names.add(schema.get_attribute)
            for lines in body.values():
                lines += [f"    v = {serialize}({name!r}, obj, {read})", f"    if v is not M: out[{key}] = v"]
            continue
        body["mapping"].append(f"    v = obj.get({attribute!r}, M)")
        body["object"].append(f"    v = getattr(obj, {attribute!r}, M)")
        for lines in body.values():
            lines.append(f"    if v is not M: out[{key}] = {_nullable(written, 'v')}")
    source = "\n".join(
        [
            "def dump_mapping(obj):",
            "    out = {}",
            *body["mapping"],
            "    return out",
            "def dump(obj):",
            "    if type(obj) is dict or isinstance(obj, Mapping):",
            "        return dump_mapping(obj)",
            "    out = {}",
            *body["object"],
            "    return out",
        ]
    )
    scope = names.globals | {"Mapping": Mapping}
    exec(compile(source, f"<dump of {type(schema).__name__}>", "exec"), scope)
    dump: Dump = scope["dump"]
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
