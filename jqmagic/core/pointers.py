"""JSON Pointers (RFC 6901) for shape: parsing, resolving, and errors that say what exists."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from jsonpointer import JsonPointer, JsonPointerException

from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import term, type_name

KEYS_IN_ERROR = 12
_PLAIN_KEY = re.compile(r"[\w.@/$-]+")


def parse_pointer(pointer: str) -> list[str]:
    """The unescaped tokens of ``pointer``; INVALID_POINTER when it is malformed."""
    try:
        return JsonPointer(pointer).parts
    except JsonPointerException as exc:
        raise JqMagicError(
            "INVALID_POINTER",
            f"{pointer!r} is not a JSON Pointer: {exc}",
            'A pointer is "" (the whole document) or starts with "/", e.g. "/users/0/name"; '
            'write "~" as ~0 and "/" as ~1 inside a key.',
        ) from exc


def to_pointer(parts: list[str]) -> str:
    """The pointer text of ``parts``."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def jq_path(steps: list[str | int]) -> str:
    """The jq path of resolved steps (keys and indices): ``.users[0].name``."""
    path = ""
    for step in steps:
        path = f"{path or '.'}[{step}]" if isinstance(step, int) else jq_step(path, step)
    return path or "."


def index_of(token: str) -> int | None:
    """The array index ``token`` names, or None when it is not a canonical index."""
    if token.isdigit() and token.isascii() and (token == "0" or token[0] != "0"):
        return int(token)
    return None


def _show_key(key: str) -> str:
    return key if _PLAIN_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _where(parent: str) -> str:
    return repr(parent) if parent else "the root"


def missing_key(pointer: str, parent: str, token: str, keys: list[str], nkeys: int
                ) -> JqMagicError:
    """NOT_FOUND for a key the object at ``parent`` does not have."""
    close = difflib.get_close_matches(token, keys, n=1, cutoff=0.6)
    shown = ", ".join(_show_key(k) for k in keys[:KEYS_IN_ERROR]) + (f", ... ({nkeys} in all)"
                                                 if nkeys > KEYS_IN_ERROR else "")
    hint = f"Did you mean {json.dumps(parent + '/' + close[0])}? " if close else ""
    hint += f"Keys are: {shown}." if keys else "The object is empty."
    return JqMagicError("NOT_FOUND", f"Path {pointer!r} not found: no key {token!r} at "
                        f"{_where(parent)}.", hint)


def bad_index(pointer: str, parent: str, token: str, length: int) -> JqMagicError:
    """NOT_FOUND for a token that is no index of the array at ``parent``."""
    idx = index_of(token)
    if idx is not None:
        message = f"Path {pointer!r} not found. Array length is {length}; index {idx} is out " \
                  "of range."
    else:
        message = f"Path {pointer!r} not found: {_where(parent)} is an array of " \
                  f"length {length} and {token!r} is not an index."
    hint = (f"Use an index from 0 to {length - 1}, or {term('inspect', parent)} to see the "
            "merged element template." if length else "The array is empty.")
    return JqMagicError("NOT_FOUND", message, hint)


def not_container(pointer: str, parent: str, token: str, kind: str) -> JqMagicError:
    """NOT_FOUND for a step into a scalar."""
    return JqMagicError(
        "NOT_FOUND",
        f"Path {pointer!r} not found: {_where(parent)} is a {kind}, which has no "
        f"member {token!r}.",
        f"Inspect {parent!r} (or a shorter path) to see what is there.",
    )


def resolve(value: Any, parts: list[str]) -> tuple[Any, list[str | int]]:
    """The value at ``parts`` and the steps taken (keys and int indices); NOT_FOUND if absent."""
    steps: list[str | int] = []
    pointer = to_pointer(parts)
    for n, token in enumerate(parts):
        parent = to_pointer(parts[:n])
        if isinstance(value, dict):
            if token not in value:
                raise missing_key(pointer, parent, token, list(value), len(value))
            value = value[token]
            steps.append(token)
        elif isinstance(value, list):
            idx = index_of(token)
            if idx is None or idx >= len(value):
                raise bad_index(pointer, parent, token, len(value))
            value = value[idx]
            steps.append(idx)
        else:
            raise not_container(pointer, parent, token, type_name(value))
    return value, steps


_JQ_KEYWORDS = frozenset({
    "and", "or", "not", "if", "then", "elif", "else", "end", "as", "def", "reduce", "foreach",
    "try", "catch", "label", "import", "include", "__loc__",
})


def jq_step(path: str, key: str | None) -> str:
    """``path`` extended by member ``key`` (``.a.b``, ``.a["odd key"]``) or by ``[]``."""
    if key is None:
        return (path or ".") + "[]"
    if key.isascii() and key.isidentifier() and key not in _JQ_KEYWORDS:
        return f"{path}.{key}"
    return (path or ".") + "[" + json.dumps(key, ensure_ascii=False) + "]"
