"""What the request and answer schemas share: card text, names, the error shape."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

import marshmallow as ma
from marshmallow import fields, validate

from ...engine import Kind, format_mask
from ...wire import rfc3339
from ..errors import REASONS
from .dumping import Dump, plan, reference_active

KINDS = [k.value for k in Kind]


def _unicode_text(value: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate such as ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ma.ValidationError("must be valid Unicode text (no lone surrogates)") from error


# Characters a name cannot show: controls (Cc), format characters (Cf: the zero-width ones, the bidi marks,
# embeddings, overrides and isolates U+200E/F, U+202A-E, U+2066-9), line and paragraph separators (Zl, Zp) and the
# letters drawn as nothing (the Hangul fillers, the combining grapheme joiner, the Khmer inherent vowels); of the
# Basic Multilingual Plane, so that the documented pattern is the same in Python and in ECMAScript.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
HIDDEN_CHARACTERS_RULE = "no control, zero-width, bidi or line-separator characters"


def _hidden_class() -> str:
    """The regular expression class (``\\uXXXX`` ranges) of the characters a name cannot show."""
    hidden = [c for c in range(0x10000) if chr(c) in BLANK_LETTERS or unicodedata.category(chr(c)) in HIDDEN_CATEGORIES]
    ranges: list[list[int]] = []
    for code in hidden:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


class VisibleText:
    """Refuses a name holding a character it cannot show (see HIDDEN_CATEGORIES); its ``regex`` is documented as the
    field's ``pattern`` (matched whole here: ``re.match`` with ``$`` would let a trailing newline through)."""

    regex = re.compile(f"^[^{_hidden_class()}]*$")

    def __call__(self, value: str) -> str:
        """``value``, or :class:`marshmallow.ValidationError` naming its first hidden character."""
        if self.regex.fullmatch(value) is None:
            hidden = next((c for c in value if not self.regex.fullmatch(c)), "")
            raise ma.ValidationError(f"{HIDDEN_CHARACTERS_RULE}: U+{ord(hidden or '?'):04X} is one")
        return value


NAME_RULES: list[Callable[[Any], Any]] = [validate.Length(min=1, max=40), _unicode_text, VisibleText()]
CARD = fields.String(metadata={"description": "A card in wire notation, e.g. 3S, 10D, QH, 2C", "example": "3S"})


class Cards(fields.List):  # type: ignore[type-arg]
    """Cards held as a mask, written as their wire text low to high (``["3S", "3D"]``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(CARD, **kwargs)

    @staticmethod
    def dump_value(mask: int) -> list[str]:
        """The wire text of a card mask, low to high."""
        return format_mask(mask)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[str] | None:
        return None if value is None else self.dump_value(value)


class CardNumber(fields.String):
    """One card held as its number (0 = 3S ... 51 = 2H), written as its wire text."""

    @staticmethod
    def dump_value(index: int) -> str:
        """The wire text of a card number."""
        return format_mask(1 << index)[0]

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else self.dump_value(value)


class Time(fields.String):
    """A moment held as epoch seconds, written in RFC 3339 UTC with milliseconds."""

    dump_value = staticmethod(rfc3339)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else rfc3339(value)


class ErrorSchema(ma.Schema):
    """Every non-2xx answer."""

    code = fields.Integer(required=True, metadata={"description": "HTTP status code"})
    status = fields.String(required=True, metadata={"description": "HTTP status name"})
    message = fields.String(required=True, metadata={"description": "What went wrong, for people"})
    reason = fields.String(
        required=True, validate=validate.OneOf(REASONS), metadata={"description": "What went wrong, for programs"}
    )
    errors = fields.Dict(metadata={"description": "Field details on validation failures"})


class Flag(fields.Boolean):
    """A JSON ``true`` or ``false``, nothing else (``1``, ``"yes"`` and ``null`` are refused).

    marshmallow's ``Boolean`` accepts ``1`` even with ``truthy={True}``, since ``1 == True``.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


MAX_SEQ = 2**63 - 1  # a stream entry id's sequence part is a 64-bit number in Redis
TIME = {"format": "date-time", "description": "RFC 3339, UTC"}


class Tag(fields.String):
    """The one value a discriminating property has in one case of a :class:`OneOfSchema` (documented as ``const``).

    Required unless ``required=False`` (a tag added to a contract that had none: see ``OneOfSchema.tag_optional``).
    """

    def __init__(self, value: str, *, required: bool = True, **kwargs: Any) -> None:
        super().__init__(required=required, validate=validate.Equal(value), **kwargs)
        self.tag = value


class OneOfSchema(ma.Schema):
    """A value that is exactly one of several schemas (``oneOf`` in the OpenAPI document).

    With a ``discriminator`` the case is the schema whose :class:`Tag` field of
    that name holds the value's; subclasses without one override :meth:`pick`.
    With ``tag_optional`` the tag may be left out (bodies from before it
    existed): :meth:`pick_untagged` then chooses, and the document writes no
    ``discriminator`` keyword, which needs the property in every value (each
    case still documents its tag as an optional ``const``, which tells the
    cases apart when given). Loading, validating and dumping go to the case's
    own schema.
    """

    choices: ClassVar[tuple[type[ma.Schema], ...]] = ()
    discriminator: ClassVar[str | None] = None
    tag_optional: ClassVar[bool] = False
    _tags: ClassVar[dict[str, type[ma.Schema]] | None] = None  # each subclass's own, set by tags()
    _plan: ClassVar[Dump | None] = None  # each subclass's own, set by plan()

    @classmethod
    def tags(cls) -> dict[str, type[ma.Schema]]:
        """Each case by its tag (with a discriminator), worked out once per class."""
        found: dict[str, type[ma.Schema]] | None = cls.__dict__.get("_tags")
        if found is None:
            assert cls.discriminator is not None
            found = {cast(Tag, case._declared_fields[cls.discriminator]).tag: case for case in cls.choices}
            cls._tags = found
        return found

    def pick(self, data: Mapping[str, Any]) -> type[ma.Schema]:
        """The case of ``data``; a :class:`~marshmallow.ValidationError` when it is none."""
        assert self.discriminator is not None
        if self.tag_optional and self.discriminator not in data:
            return self.pick_untagged(data)
        tags = self.tags()
        tag = data.get(self.discriminator)
        case = tags.get(tag) if isinstance(tag, str) else None
        if case is None:
            raise ma.ValidationError({self.discriminator: [f"Must be one of: {', '.join(tags)}."]})
        return case

    def pick_untagged(self, data: Mapping[str, Any]) -> type[ma.Schema]:
        """The case of ``data`` without its tag (only with ``tag_optional``): subclasses say how."""
        raise NotImplementedError

    def _case(self, data: Any) -> ma.Schema:
        if not isinstance(data, Mapping):
            raise ma.ValidationError({"_schema": ["Invalid input type."]})
        return _instance(self.pick(data))

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        """Load ``data`` with the schema of its case."""
        if self.many if many is None else many:
            return [self.load(item, many=False, partial=partial, unknown=unknown) for item in data]
        return self._case(data).load(data, partial=partial, unknown=unknown)

    def validate(self, data: Any, *, many: bool | None = None, partial: Any = None) -> dict[str, Any]:
        """The errors of ``data`` in its case (empty when valid)."""
        try:
            self.load(data, many=many, partial=partial)
        except ma.ValidationError as error:
            return cast(dict[str, Any], error.normalized_messages())  # type: ignore[no-untyped-call]
        return {}

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """Dump ``obj`` with the schema of its case."""
        if self.many if many is None else many:
            return [self.dump(item, many=False) for item in obj]
        if self.discriminator is not None and not reference_active():
            return self.plan()(obj)
        return self._case(obj).dump(obj)

    def plan(self) -> Dump:
        """The planned dump (see :mod:`.dumping`): each case's own, chosen by the discriminator's value."""
        if self.discriminator is None:
            return self.dump
        found: Dump | None = type(self).__dict__.get("_plan")
        if found is None:
            cases = {tag: plan(_instance(case)) for tag, case in self.tags().items()}
            tag_of = self.discriminator

            def found(obj: Any) -> Any:
                case = cases.get(str(obj.get(tag_of))) if isinstance(obj, Mapping) else None
                return self._case(obj).dump(obj) if case is None else case(obj)

            type(self)._plan = found
        return found


_INSTANCES: dict[type[ma.Schema], ma.Schema] = {}


def _instance(schema: type[ma.Schema]) -> ma.Schema:
    """One shared instance of a case schema (schemas hold no state between loads)."""
    found = _INSTANCES.get(schema)
    if found is None:
        found = _INSTANCES[schema] = schema()
    return found


# Enums with a name of their own in the OpenAPI document (one generated type each, however many fields use them).
NAMED_ENUMS: dict[str, list[str]] = {}


def rule_enum_name(parameter: str) -> str:
    """The enum component of a rule parameter with choices: ``bombs`` → ``Bombs``."""
    return parameter.title().replace("_", "")


def enum_field(name: str, values: Sequence[str], *, nullable: bool = False, **kwargs: Any) -> fields.String:
    """A string field that takes one of ``values``, documented as a reference to the enum component ``name``.

    ``nullable`` adds ``null`` (required unless ``required=False`` is passed).
    """
    NAMED_ENUMS[name] = list(values)
    ref: dict[str, Any] = {"$ref": f"#/components/schemas/{name}"}
    documented = {"anyOf": [ref, {"type": "null"}]} if nullable else dict(ref)
    metadata = dict(kwargs.pop("metadata", {}))
    if "description" in metadata:
        documented["description"] = metadata["description"]
    metadata["json_schema_replace"] = documented
    kwargs.setdefault("required", True)
    return fields.String(validate=validate.OneOf(values), allow_none=nullable, metadata=metadata, **kwargs)


class WholeNumber(fields.Integer):
    """A JSON integer as JSON Schema means it: ``3`` or ``3.0``, never ``3.5``, ``"3"`` or ``true``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and value.is_integer() and abs(value) <= 2**63:
            value = int(value)
        return super()._validated(value)
