"""The texts jq makes of values: ``tostring``, ``tojson``, the ``@formats`` and ``join``."""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.builtins import over_arg
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import type_error, type_error2
from jqmagic.core.jqlang.numbers import MAX_EXACT
from jqmagic.core.jqlang.printer import tojson
from jqmagic.core.jqlang.table import Table

BUILTINS = Table()


def tostring(v: Any) -> str:
    return v if type(v) is str else tojson(v)


def _scalar_text(v: Any, where: str) -> str:
    """A row item's text in @csv, @tsv and @sh (strings are quoted by the caller)."""
    if v is None:
        return ""
    if type(v) is bool or type(v) is int or type(v) is float:
        return tojson(v)
    if where == "a shell string":
        raise type_error(v, "can not be escaped for shell")
    raise type_error(v, "is not valid in a csv row")  # jq says csv for tsv rows too


def _row(v: Any, where: str) -> list:
    if type(v) is list:
        return v
    raise type_error(v, f"cannot be {where}-formatted, only array")


def _csv(v: Any) -> str:
    return ",".join('"' + x.replace('"', '""') + '"' if type(x) is str
                    else _scalar_text(x, "a csv row") for x in _row(v, "csv"))


_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _tsv(v: Any) -> str:
    return "\t".join(x.translate(_TSV_ESCAPES) if type(x) is str
                     else _scalar_text(x, "a tsv row") for x in _row(v, "tsv"))


_HTML_ESCAPES = str.maketrans({"<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;",
                               '"': "&quot;"})


def _html(v: Any) -> str:
    return tostring(v).translate(_HTML_ESCAPES)


def _urid(v: Any) -> str:
    """jq's ``@urid``: %XX escapes decoded, the bytes read as UTF-8."""
    text = tostring(v)
    data, i = bytearray(), 0
    raw = text.encode()
    while i < len(raw):
        if raw[i] != 0x25:  # %
            data.append(raw[i])
            i += 1
            continue
        pair = raw[i + 1:i + 3]
        if len(pair) < 2 or any(chr(c) not in "0123456789abcdefABCDEF" for c in pair):
            raise type_error(text, "is not a valid uri encoding")
        data.append(int(pair, 16))
        i += 3
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise type_error(text, "is not a valid uri encoding") from None


_NUMBER_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NOT_NUMERIC = re.compile(r"[^0-9+\-.eEnNaAiIfFtTyYsS]")


def _tonumber(v: Any) -> Any:
    """jq 1.8.2's ``tonumber`` (decNumber keeps the literal): texts whose literal we
    print alike; an error where no number can be read; NotMine for the rest."""
    t = type(v)
    if t is int or t is float:
        return v
    if t is not str:
        raise type_error(v, "cannot be parsed as a number")
    if _NUMBER_TEXT.fullmatch(v) and not (v.startswith("-") and not v.strip("-0.eE+")):
        if v.lstrip("-").isdigit():
            number = int(v)
            if abs(number) <= MAX_EXACT:
                return number
        else:
            number = float(v)
            if math.isfinite(number) and repr(number) == v:
                return number
        raise NotMine("a number text jq keeps as written")
    if not v or _NOT_NUMERIC.search(v):
        raise type_error(v, "cannot be parsed as a number")
    raise NotMine("a number text decNumber may read")


def _toboolean(v: Any) -> bool:
    if type(v) is bool:
        return v
    if v == "true" or v == "false":
        return v == "true"
    raise type_error(v, "cannot be parsed as a boolean")


BUILTINS.unary("tonumber")(_tonumber)
BUILTINS.unary("toboolean")(_toboolean)


def _uri(v: Any) -> str:
    return quote(tostring(v), safe="-_.~")


def _sh_word(x: Any) -> str:
    if type(x) is str:
        return "'" + x.replace("'", "'\\''") + "'"
    return _scalar_text(x, "a shell string") if x is not None else "null"


def _sh(v: Any) -> str:
    if type(v) is list:
        return " ".join(_sh_word(x) for x in v)
    return _sh_word(v)


def _base64(v: Any) -> str:
    return base64.b64encode(tostring(v).encode()).decode()


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SEXTETS = {c: i for i, c in enumerate(_BASE64)}


def _base64d(v: Any) -> str:
    """jq 1.8.2's ``@base64d``: characters up to the first ``=``, padding optional."""
    text = tostring(v)
    body = text.split("=", 1)[0]
    if any(c not in _SEXTETS for c in body):
        raise type_error(text, "is not valid base64 data")
    if len(body) % 4 == 1:
        raise type_error(text, "trailing base64 byte found")
    data = base64.b64decode(body + "=" * (-len(body) % 4))
    try:
        return data.decode()
    except UnicodeDecodeError as exc:  # jq replaces bad bytes its own way
        raise NotMine("@base64d of bytes that are not UTF-8") from exc


FORMATS: dict[str, Callable[[Any], str]] = {
    "text": tostring, "json": tojson, "csv": _csv, "tsv": _tsv, "html": _html, "uri": _uri,
    "urid": _urid, "sh": _sh, "base64": _base64, "base64d": _base64d}


def format_of(name: str) -> Callable[[Any], str]:
    if name not in FORMATS:
        raise NotMine(f"@{name}")
    convert = FORMATS[name]
    if name in ("text", "json"):
        return convert

    def checked(v: Any) -> str:
        if _has_nul(v):  # jq writes a NUL as a backslash and 0 in these formats
            raise NotMine(f"@{name} of a NUL")
        return convert(v)

    return checked


def _has_nul(v: Any) -> bool:
    t = type(v)
    if t is str:
        return "\0" in v
    if t is list:
        return any(map(_has_nul, v))
    if t is dict:
        return any(map(_has_nul, v)) or any(map(_has_nul, v.values()))
    return False


BUILTINS.unary("tostring")(tostring)
BUILTINS.unary("tojson")(tojson)


def _join(v: Any, sep: Any) -> str:
    """jq 1.8.2's ``join``: null as "", strings as they are, numbers and booleans as JSON;
    built in one pass (jq's own definition adds strings one by one)."""
    if type(sep) is not str:
        raise NotMine("join by a non-string")
    pieces = []
    for x in jv.iterate(v):
        if type(x) is str:
            pieces.append(x)
        elif x is None:
            pieces.append("")
        elif type(x) in (bool, int, float):
            pieces.append(tojson(x))
        else:  # jq adds the item to the text so far (and the separator)
            raise type_error2(sep.join(pieces) + sep if pieces else "", x, "cannot be added")
    return sep.join(pieces)


BUILTINS[("join", 1)] = lambda f: over_arg(f, _join)


def _parsed_int(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_EXACT or text == "-0":
        raise NotMine("a JSON integer jq keeps as written")
    return value


def _parsed_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or repr(value) != text or value == 0 and "-" in text:
        raise NotMine("a JSON number jq keeps as written")
    return value


def _not_json(text: str) -> Any:
    raise NotMine(f"{text} in JSON text")


def _fromjson(v: Any) -> Any:
    """``fromjson`` for texts whose numbers print as written and that Python's json reads
    as jq's parser does."""
    if type(v) is not str:
        raise type_error(v, "only strings can be parsed")
    if "\\u" in v and re.search(r"\\u[dD][89abAB]", v):
        raise NotMine("a surrogate escape in JSON text")
    try:
        return json.loads(v, parse_int=_parsed_int, parse_float=_parsed_float,
                          parse_constant=_not_json)
    except ValueError as exc:  # jq's parser reads some of these (nan, say)
        raise NotMine("a JSON text Python's json refuses") from exc


BUILTINS.unary("fromjson")(_fromjson)
