"""Tool parameters from one typed definition: a handler's signature becomes a JSON Schema.

Each parameter is ``Annotated[type, Param(...)]``; its default makes it optional. A
handler with many parameters takes an options dataclass instead, whose fields are written
the same way and stand in its place among the schema's properties (:func:`run` calls it
with one). Types: ``str``, ``int``, ``float``, ``bool``, ``list[str]``, ``dict`` (any
object), a ``TypedDict`` (an object with exactly those keys), ``Literal[...]`` (an enum),
and ``X | None`` for "may be left out". :func:`validate` checks a request against the schema
with messages a weak model can act on.
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import json
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import count

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object"}


class JsonValue:
    """A parameter type: an object, array, number or boolean given as JSON itself."""


_JSON_VALUE_TYPES = ["object", "array", "number", "boolean"]


@dataclass(frozen=True)
class Param:
    """What a parameter means and its bounds, as JSON Schema keywords."""

    description: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    min_length: int | None = None
    format: str | None = None
    min_items: int | None = None

    def keywords(self) -> dict[str, Any]:
        out: dict[str, Any] = {"description": self.description}
        for key, value in (("minimum", self.minimum), ("maximum", self.maximum),
                           ("minLength", self.min_length), ("format", self.format),
                           ("minItems", self.min_items)):
            if value is not None:
                out[key] = value
        return out


def parameters(func: Callable[..., Any]) -> dict[str, Any]:
    """The JSON Schema (``type: object``) of ``func``'s keyword parameters, or of its
    options dataclass's fields."""
    properties: dict[str, Any] = {}
    required = []
    for name, hint, default in _fields(func):
        base, meta = _split(hint)
        prop = {**type_schema(base), **meta.keywords()}
        if default is _REQUIRED:
            required.append(name)
        elif default is not None:
            prop["default"] = default
        properties[name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def run(func: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """``func`` called with a request's validated ``arguments``: each as its keyword, and
    an options dataclass's fields gathered into one instance of it."""
    keywords = {}
    for name, options in _options(func).items():
        if options is None:
            if name in arguments:
                keywords[name] = arguments[name]
        else:
            keywords[name] = options(**{field.name: arguments[field.name]
                                        for field in dataclasses.fields(options)
                                        if field.name in arguments})
    return func(**keywords)


def _options(func: Callable[..., Any]) -> dict[str, type | None]:
    """Each parameter of ``func``: the options dataclass it is, or None (a parameter of
    its own)."""
    hints = typing.get_type_hints(func)
    return {name: hints[name] if dataclasses.is_dataclass(hints[name]) else None
            for name in inspect.signature(func).parameters}


_REQUIRED = object()


def _fields(func: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    """``(name, annotated type, default or _REQUIRED)`` of each parameter of ``func``, an
    options dataclass's fields in its place."""
    hints = typing.get_type_hints(func, include_extras=True)
    kinds = _options(func)
    out = []
    for name, param in inspect.signature(func).parameters.items():
        options = kinds[name]
        if options is None:
            out.append((name, hints[name], _REQUIRED if param.default is inspect.Parameter.empty
                        else param.default))
            continue
        fields = typing.get_type_hints(options, include_extras=True)
        out += [(f.name, fields[f.name],
                 _REQUIRED if f.default is dataclasses.MISSING else f.default)
                for f in dataclasses.fields(options)]
    return out


def _split(hint: Any) -> tuple[Any, Param]:
    if typing.get_origin(hint) is not typing.Annotated:
        raise TypeError(f"tool parameter {hint!r} needs Annotated[..., Param(...)]")
    base, *extras = typing.get_args(hint)
    meta = next(e for e in extras if isinstance(e, Param))
    return _optional_base(base), meta


def _optional_base(hint: Any) -> Any:
    """``X`` for ``X | None``; ``hint`` otherwise."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return hint


def type_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of one Python type."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        values = list(typing.get_args(hint))
        return {"type": _JSON_TYPES[type(values[0])], "enum": values}
    if hint is JsonValue:
        return {"type": _JSON_VALUE_TYPES}
    if origin in (typing.Union, types.UnionType):  # one of several simple types
        kinds: list[str] = []
        for arg in typing.get_args(hint):
            if arg is type(None):  # optional: the default says so
                continue
            kind = type_schema(arg)["type"]
            kinds += kind if isinstance(kind, list) else [kind]
        return {"type": kinds}
    if origin is list:
        (item,) = typing.get_args(hint)
        return {"type": "array", "items": type_schema(item)}
    if origin is dict:  # names to JSON values, as jq's --argjson binds them
        return {"type": "object", "additionalProperties": True}
    if typing.is_typeddict(hint):
        fields = typing.get_type_hints(hint, include_extras=True)
        props = {}
        for key, field_hint in fields.items():
            base, meta = _split(field_hint)
            props[key] = {**type_schema(base), **meta.keywords()}
        return {"type": "object", "properties": props, "required": sorted(hint.__required_keys__),
                "additionalProperties": False}
    return {"type": _JSON_TYPES[hint]}


# ---------------------------------------------------------------- strict mode

_MOVED = {"default": "Default: {}.", "minimum": "At least {}.", "maximum": "At most {}.",
          "minLength": "At least {} character(s).", "format": "A {}.",
          "minItems": "At least {} item(s)."}


def strict(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a tool's parameters) in the form OpenAI's strict mode takes: every object
    closed (``additionalProperties: false``) with every property required, an optional one
    nullable (``null`` means left out); keywords strict mode refuses (defaults, bounds,
    formats) said in the description instead; a free-form object (``args``, ``where``, a
    JSON value) given as JSON text, which :func:`validate` reads back.

    >>> strict({"type": "object", "properties": {"n": {"type": "integer", "default": 2,
    ...         "description": "How many."}}})["properties"]["n"]
    {'type': ['integer', 'null'], 'description': 'How many. Default: 2.'}
    """
    required = set(schema.get("required", ()))
    props = {name: _strict_value(prop, name in required)
             for name, prop in schema["properties"].items()}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}


def _strict_value(prop: dict[str, Any], required: bool) -> dict[str, Any]:
    kinds = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
    words = [prop.get("description", "")] + [
        text.format(json.dumps(prop[key]) if key == "default" else prop[key])
        for key, text in _MOVED.items() if key in prop]
    out: dict[str, Any] = {}
    if "object" in kinds and "properties" not in prop:  # free-form: JSON text
        out["type"] = "string"
        words.append("Give it as JSON text.")
    elif kinds == ["object"]:
        out = strict(prop)
    else:
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
        if "items" in prop:
            out["items"] = _strict_value(prop["items"], True)
        if "enum" in prop:
            out["enum"] = list(prop["enum"])
    if not required:
        kind = out["type"]
        out["type"] = [*(kind if isinstance(kind, list) else [kind]), "null"]
        if "enum" in out:
            out["enum"].append(None)
    description = " ".join(w for w in words if w)
    if description:
        out["description"] = description
    return out


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` in the form Anthropic's strict mode takes: every object closed, optional
    properties left optional (no ``null`` unions, which that mode counts and caps), the
    keywords it refuses (defaults, bounds, lengths) said in the description, a free-form
    object given as JSON text.

    >>> closed({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1,
    ...         "description": "How many."}}})["properties"]["n"]
    {'type': 'integer', 'description': 'How many. At least 1.'}
    """
    props = {}
    for name, prop in schema["properties"].items():
        one = _strict_value(prop, True)
        if one["type"] == "object":
            one = closed({**prop, **one})
        props[name] = one
    out = {"type": "object", "properties": props, "additionalProperties": False}
    if schema.get("required"):
        out["required"] = list(schema["required"])
    return out


# ---------------------------------------------------------------- validation


def validate(schema: dict[str, Any], request: Any,
             shown: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request's arguments, checked against ``schema``; INVALID_ARGUMENT says what is
    wrong, naming the fields of ``shown`` (the schema as advertised; default ``schema``).

    A ``null`` for an optional parameter counts as left out; a whole number written as
    ``10.0`` is accepted where an integer is expected.
    """
    shown = shown or schema
    if not isinstance(request, dict):
        raise _invalid(f"The request must be a JSON object, not {_kind(request)}.",
                       f"Send {example(shown)}.")
    return _check_object(schema, request, "", list(shown["properties"]))


def example(schema: dict[str, Any]) -> str:
    """The shape of a request for ``schema`` in words: its required fields, then all."""
    required = schema.get("required") or list(schema["properties"])[:1]
    shown = ", ".join(f'"{name}": ...' for name in required)
    return f"one JSON object such as {{{shown}}} (fields: {', '.join(schema['properties'])})"


def _check_object(schema: dict[str, Any], data: dict, where: str,
                  fields: list[str] | None = None) -> dict[str, Any]:
    props = schema["properties"]
    unknown = [key for key in data if key not in props]
    if unknown:
        key, fields = unknown[0], fields or list(props)
        close = _meant(key, fields) or difflib.get_close_matches(key, fields, n=1)
        hint = f"Did you mean {close[0]!r}? " if close else ""
        raise _invalid(f"Unknown field {where + key!r}.",
                       f"{hint}Fields: {', '.join(fields)}.")
    out = {}
    for key, value in data.items():
        if value is None and key not in schema.get("required", ()):
            continue
        out[key] = _check(props[key], value, where + key)
    missing = [key for key in schema.get("required", ()) if out.get(key) is None]
    if missing:
        raise _invalid(f"Missing required field {where + missing[0]!r}.",
                       f"{where + missing[0]}: {props[missing[0]]['description']}")
    return out


SAME_MEANING = (  # names the tools' specs give one thing, each tool its own
    {"query", "jq_expression", "yq_expression", "program", "filter", "expression", "jq"},
    {"file", "file_path", "filepath", "filename"},
)


def _meant(key: str, fields: list[str]) -> list[str]:
    """The field ``key`` means under another spelling (``dry_run``: ``dryRun``) or another
    tool's name for it (``query``: ``yq_expression``), if this tool has one."""
    plain = key.replace("_", "").replace("-", "").lower()
    same = [f for f in fields if f.replace("_", "").lower() == plain]
    group = next((g for g in SAME_MEANING if plain in g or key in g), set())
    return same or [f for f in fields if f in group or f.replace("_", "").lower() in group]


def _check(schema: dict[str, Any], value: Any, name: str) -> Any:
    kind = schema["type"]
    if isinstance(value, float) and not math.isfinite(value):  # NaN passes every bound
        raise _invalid(f"Field {name!r} must be a finite number; got {json.dumps(value)}.",
                       f"{name}: {schema.get('description', '')}".rstrip(": "))
    if isinstance(kind, list):  # one of several types: the value is taken as it is
        if not any(_is(k, value) for k in kind):
            raise _invalid(f"Field {name!r} must be {' or '.join(map(_a, kind))}, not "
                           f"{_kind(value)}.", schema.get("description", ""))
        return value
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    if kind == "object" and isinstance(value, str):  # JSON text (strict mode's objects)
        value = _json_object(value)
    if not _is(kind, value):
        raise _invalid(f"Field {name!r} must be {_a(kind)}, not {_kind(value)}.",
                       f"{name}: {schema.get('description', '')}".rstrip(": "))
    if "enum" in schema and value not in schema["enum"]:
        raise _invalid(f"Field {name!r} must be one of {', '.join(map(repr, schema['enum']))}; "
                       f"got {value!r}.", schema.get("description", ""))
    if "minimum" in schema and value < schema["minimum"]:
        raise _invalid(f"Field {name!r} must be at least {schema['minimum']}; got {value}.",
                       schema.get("description", ""))
    if "maximum" in schema and value > schema["maximum"]:
        raise _invalid(f"Field {name!r} must be at most {schema['maximum']}; got {value}.",
                       schema.get("description", ""))
    if "minLength" in schema and len(value) < schema["minLength"]:
        raise _invalid(f"Field {name!r} needs at least {count(schema['minLength'], 'character')}.",
                       schema.get("description", ""))
    if "minItems" in schema and len(value) < schema["minItems"]:
        raise _invalid(f"Field {name!r} needs at least {count(schema['minItems'], 'item')}.",
                       f"{name}: {schema.get('description', '')}".rstrip(": "))
    if kind == "array":
        return [_check(schema["items"], item, f"{name}[{i}]") for i, item in enumerate(value)]
    if kind == "object" and "properties" in schema:
        return _check_object(schema, value, f"{name}.")
    return value


def _json_object(text: str) -> Any:
    """The object ``text`` spells as JSON; the text itself when it is no JSON object."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, dict) else text


def _is(kind: str, value: Any) -> bool:
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "boolean": bool, "array": list,
                              "object": dict}[kind])


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    for kind in ("boolean", "integer", "number", "string", "array", "object"):
        if _is(kind, value):
            return _a(kind)
    return type(value).__name__


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _invalid(message: str, hint: str) -> JqMagicError:
    return JqMagicError("INVALID_ARGUMENT", message, hint)
