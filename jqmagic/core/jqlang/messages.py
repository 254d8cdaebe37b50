"""jq 1.8.2's error texts, word for word (``type_error`` in src/builtin.c, ``jv_get`` in
src/jv_aux.c, ``EACH`` in src/execute.c), made only when a ``catch`` reads them."""

from __future__ import annotations

from typing import Any

from jqmagic.core.jqlang.errors import JqError
from jqmagic.core.jqlang.printer import tojson

_KINDS = {type(None): "null", bool: "boolean", int: "number", float: "number",
          str: "string", list: "array", dict: "object"}
_DELIMITERS = {'"': '"', "[": "]", "{": "}"}


def kind(v: Any) -> str:
    return _KINDS[type(v)]


def preview(v: Any, size: int = 30) -> str:
    """jq's ``jv_dump_string_trunc(v, buf, 30)``: compact JSON cut to 29 bytes with
    ``...`` (and the closing quote or bracket), never inside a UTF-8 sequence."""
    if type(v) is str and len(v.encode()) > size:
        v = v[:size]
    data = tojson(v).encode()
    if len(data) <= size - 1:
        return data.decode()
    delimiter = _DELIMITERS.get(chr(data[0]), "")
    cut = size - (5 if delimiter else 4)
    while cut > 0 and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return data[:cut].decode() + "..." + delimiter


def error(text: str) -> JqError:
    """An error whose value is a fixed text."""
    return JqError(text)


def type_error(v: Any, text: str) -> JqError:
    """``KIND (PREVIEW) TEXT``."""
    return JqError(make=lambda: f"{kind(v)} ({preview(v)}) {text}")


def type_error2(a: Any, b: Any, text: str) -> JqError:
    """``KIND (PREVIEW) and KIND (PREVIEW) TEXT``."""
    return JqError(make=lambda: f"{kind(a)} ({preview(a)}) and {kind(b)} ({preview(b)}) {text}")


def cannot_index(v: Any, key: Any) -> JqError:
    return JqError(make=lambda: f"Cannot index {kind(v)} with {kind(key)} ({preview(key)})")


def cannot_iterate(v: Any) -> JqError:
    return JqError(make=lambda: f"Cannot iterate over {kind(v)} ({preview(v)})")


def bad_key(key: Any) -> JqError:
    return JqError(make=lambda: f"Cannot use {kind(key)} ({preview(key)}) as object key")
