"""Small words about JSON values that every message uses: type names, articles, previews,
JSON equality, and the one cut of long text."""

from __future__ import annotations

import json
import re
from typing import Any

_TYPE_NAMES = {type(None): "null", bool: "boolean", int: "number", float: "number",
               str: "string", list: "array", dict: "object"}
PREVIEW_CHARS = 40


def type_name(value: Any) -> str:
    """jq's name of the type of a parsed JSON value (``number`` for any other number type)."""
    return _TYPE_NAMES.get(type(value), "number")


def a(noun: str) -> str:
    """``noun`` with its indefinite article: ``an array``, ``a string``.

    >>> a("object"), a("number")
    ('an object', 'a number')
    """
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def preview(value: Any, width: int = PREVIEW_CHARS) -> str:
    """A value's JSON text cut to ``width`` characters (``...`` marks the cut), as gojq and
    jq preview values in errors; never a whole document."""
    if isinstance(value, str) and len(value) > 4 * width:
        value = value[: 4 * width]  # never serialise a huge string to show 40 characters
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 3] + "..."


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` that any UTF-8 stream can take:
    a lone surrogate (Python's json reads ``"\\ud800"``) stays a ``\\uXXXX`` escape.

    >>> json_text(["\\ud800é"])
    '["\\\\ud800é"]'
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    if _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def without_lone_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate in its strings and keys replaced by U+FFFD (as jq
    reads them), for encoders that refuse them (pydantic's, in the MCP SDK)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {without_lone_surrogates(k): without_lone_surrogates(v)
                for k, v in value.items()}
    return value


def cut(text: str, limit: int, what: str = "characters") -> str:
    """``text`` kept within ``limit`` characters, saying how much was cut.

    >>> cut("abcdef", 3)
    'abc… (3 more characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more {what})"


def json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``1 == 1.0``, but ``True != 1`` and ``"1" != 1``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        return len(left) == len(right) and all(map(json_equal, left, right))
    return type(left) is type(right) and left == right
