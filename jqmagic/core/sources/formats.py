"""JSON text in and out: parse JSON, JSON Lines and JSONC with a caret at errors; dump values."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from jqmagic.core import jsonc
from jqmagic.core.errors import JqMagicError, caret_excerpt, too_deep
from jqmagic.core.words import term

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# a first line that is a YAML document marker, mapping key or sequence item, not JSON
_LOOKS_LIKE_YAML = re.compile(r"\A(?:\s*#[^\n]*\n)*\s*(?:---|[\w.-]+:(?:\s|$)|- )")


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, (dt.date, dt.datetime, dt.time)):
        return obj.isoformat()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    if isinstance(obj, bytes):
        return obj.decode("utf-8", "replace")
    for method in ("tolist", "to_dict", "item"):  # NumPy, pandas
        if hasattr(obj, method):
            return getattr(obj, method)()
    raise TypeError(type(obj).__name__)


def dumps(value: Any) -> str:
    """JSON text of a Python value (dates as ISO text; a lone surrogate, which is not
    UTF-8, as U+FFFD, as jq reads one); INVALID_ARGUMENT otherwise."""
    try:
        text = json.dumps(value, default=_jsonable, ensure_ascii=False)
        return _LONE_SURROGATE.sub("\ufffd", text) if _LONE_SURROGATE.search(text) else text
    except RecursionError:
        raise too_deep("The value", "Pass a part of it, or its JSON text with text=...") from None
    except (TypeError, ValueError) as exc:
        raise JqMagicError("INVALID_ARGUMENT",
                           f"A value of type {exc} cannot be turned into JSON.",
                           "Pass dicts, lists, strings, numbers, booleans or None.") from None



def parse_json(text: str, label: str = "<input>", fmt: str = "json") -> list[Any]:
    """All top-level JSON values of ``text`` (one for JSON, one a line for JSON Lines)."""
    if fmt == "jsonc":
        text = jsonc.to_json(text)
    decoder = json.JSONDecoder()
    values, pos, end = [], 0, len(text)
    space = re.compile(r"\s*")
    try:
        pos = space.match(text, pos).end()
        while pos < end:
            value, pos = decoder.raw_decode(text, pos)
            values.append(value)
            pos = space.match(text, pos).end()
    except json.JSONDecodeError as exc:
        raise invalid_json(label, exc.msg, text, exc.lineno, exc.colno, fmt) from None
    except RecursionError:
        raise too_deep(label, f"Query it with {term('query')}, which reads up to 10,000 "
                       "levels.") from None
    return values


def invalid_json(label: str, why: str, text: str, line: int, column: int,
                 fmt: str = "json") -> JqMagicError:
    """INVALID_JSON at a place, with a caret excerpt and a hint fitting the likely cause."""
    excerpt = caret_excerpt(text, line, column)
    hint = "Check the JSON syntax at that place."
    lines = text.splitlines()
    offending = lines[line - 1] if 0 < line <= len(lines) else ""  # past a final newline: ""
    if fmt == "json" and ("//" in offending or "/*" in offending
                          or re.search(r",\s*[\]}]", offending)):
        hint += (" If the file has comments or trailing commas (JSONC, as in tsconfig.json), "
                 f"read it with {term('jsonc')}.")
    if fmt == "yaml":
        hint = f"Read it as YAML with {term('yaml')}."
    elif fmt == "json" and _LOOKS_LIKE_YAML.match(text):
        hint += f" It reads as YAML: read it with {term('yaml')}."
    return JqMagicError("INVALID_JSON", f"{label}, line {line}, column {column}: {why}",
                        hint, excerpt)

