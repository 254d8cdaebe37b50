"""JSON text in and out: parse JSON, JSON Lines and JSONC with a caret at errors; dump values."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import re
from dataclasses import dataclass
from typing import Any

import orjson

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
    return value_json(value).decode()


def value_json(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes, 10x faster for big values (see :func:`value_text`)."""
    return value_text(value).data


@dataclass(frozen=True)
class ValueText:
    """A Python value's JSON text, as it crosses to the worker.

    ``plain``: orjson wrote it (integers within 64 bits, finite floats, no lone
    surrogate), so orjson reads it back exactly (0.5 s for 50 MB, where ``json`` takes
    2.5 s); else ``json`` wrote it and must read it (orjson would turn 2^64 into a float).
    """

    data: bytes
    plain: bool

    @property
    def digest(self) -> str:
        return text_digest(self.data)

    def value(self) -> Any:
        """The value as the worker reads it (lists for tuples, text for dates...)."""
        if self.plain:
            return orjson.loads(self.data)
        return json.loads(self.data.decode("utf-8", "surrogatepass"))


def value_text(value: Any) -> ValueText:
    """The JSON text of ``value``. orjson writes it when its text means exactly what
    ``json.dumps``'s means to jq (integers within 64 bits; floats as their shortest
    round-trip digits, ``0.00001`` for ``1e-05``: the same decimal, which jq 1.8.2
    prints alike); else ``json`` writes it, as before (a longer integer, a key that is
    not text, a lone surrogate, NaN or an infinity, which orjson would write as null,
    more than 254 levels).

    Nothing is cached here: a mutable value's version cannot be proven (``id()`` and a
    cheap fingerprint are not proof). Whoever keeps a parsed copy keys it by the text
    (:attr:`ValueText.digest`): about 0.15 s to write 50 MB, 0.3 s more to look for NaN
    when the text has a null, 0.06 s to digest it.
    """
    try:
        data = orjson.dumps(value, default=_jsonable, option=_ORJSON_OPTIONS)
    except TypeError:  # an integer past 64 bits, a surrogate, a key that is not text...
        data = None
    if data is not None and b"null" in data and _survey(value)[0] is not False:
        data = None  # NaN or an infinity may be there, which orjson writes as null
    if data is None:
        return ValueText(_json_text(value).encode(), False)
    return ValueText(data, True)


def value_facts(value: Any) -> frozenset[str] | None:
    """The literal facts (:class:`jqmagic.core.jqlang.literals.Literals`) of the JSON text
    of ``value``, learnt from the value rather than from the text: exact where the text
    scan must be cautious (a float's 17 digits are not ``long``), about 0.3 s for 50 MB.
    None for a value of other types than dict, list, tuple, str, int, float, bool, None
    (learn those from the text)."""
    return _survey(value)[1]


def text_digest(data: bytes) -> str:
    """A digest of a JSON text: two equal digests mean the same document (a cache key
    that proves the version of a Python value, where its ``id()`` cannot)."""
    return hashlib.blake2b(data, digest_size=20).hexdigest()


_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_LONG_INT = 10**15  # 16 digits: compared as a double, two may tie where jq tells them apart


def _survey(value: Any) -> tuple[bool | None, frozenset[str] | None]:
    """Whether the value holds NaN or an infinity (None: it holds other types, which may),
    and the literal facts of its JSON text (None: other types).

    A float is written as its shortest round-trip digits, which jq reads back to the same
    double and prints as written: only exponents (``odd``: ``1e+16``, ``1e-05``) and whole
    floats (``whole``: ``12.0``, ``-0.0``) print otherwise; two such texts compare as their
    doubles do, so no float is ``long``; an integer of 16 digits or more is.
    """
    found: set[str] = set()
    nonfinite = False
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        here = pop()
        kind = type(here)
        items = here.values() if kind is dict else here if kind is list or kind is tuple \
            else (here,)
        for item in items:
            t = type(item)
            if t is str or t is bool or item is None:
                continue
            if t is float:
                if item.is_integer():
                    found.add("whole" if abs(item) < 1e16 else "odd")
                elif not 1e-4 <= abs(item) < 1e16:  # written with an exponent, or not finite
                    if math.isfinite(item):
                        found.add("odd")
                    else:
                        nonfinite = True
            elif t is int:
                if not -_LONG_INT < item < _LONG_INT:
                    found.add("long")
            elif t is dict or t is list or t is tuple:
                push(item)
            else:
                return (True if nonfinite else None), None
    return nonfinite, frozenset(found)


def _json_text(value: Any) -> str:
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
    written = text  # what the user wrote: errors show it (to_json keeps lines and columns)
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
        exc = _said_at_the_bracket(exc, text)
        raise invalid_json(label, _why(exc), written, exc.lineno, exc.colno, fmt) from None
    except RecursionError:
        raise too_deep(label, f"Query it with {term('query')}, which reads up to 10,000 "
                       "levels.") from None
    return values


def _why(exc: json.JSONDecodeError) -> str:
    """Python's words for a parse error, a raw control character in a string named (they
    stop at "Invalid control character at")."""
    if not exc.msg.startswith("Invalid control character"):
        return exc.msg
    code = ord(exc.doc[exc.pos])
    return f"A string holds the control character U+{code:04X}: JSON writes it \\u{code:04x}"


def _said_at_the_bracket(exc: json.JSONDecodeError, text: str) -> json.JSONDecodeError:
    """Python 3.13's "Illegal trailing comma" said as earlier Pythons say it, at the closing
    bracket: the same words on every Python, and none that blames a comma JSONC allows (the
    comma left there is the one before a doubled comma that JSONC's reading blanked)."""
    if not exc.msg.startswith("Illegal trailing comma"):
        return exc
    bracket = re.compile(r"\s*").match(text, exc.pos + 1).end()
    said = "Expecting property name enclosed in double quotes" if text[bracket:bracket + 1] \
        == "}" else "Expecting value"
    return json.JSONDecodeError(said, text, bracket)


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
    at = offending[column - 1:]
    if fmt == "jsonc" and at.startswith("/"):
        hint = ("A /* comment is not closed: end it with */." if at.startswith("/*") else
                "A lone / starts no comment: comments are // (to the line's end) or /* */.")
    if fmt == "yaml":
        hint = f"Read it as YAML with {term('yaml')}."
    elif fmt == "json" and _LOOKS_LIKE_YAML.match(text):
        hint += f" It reads as YAML: read it with {term('yaml')}."
    return JqMagicError("INVALID_JSON", f"{label}, line {line}, column {column}: {why}",
                        hint, excerpt)

