"""What an edit asks for, checked before any file is read: the operation, its pointer, value,
match, RFC 6902 or RFC 7386 patch; and the command words that say it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from jqmagic.core.errors import JqMagicError
from jqmagic.core.pointers import parse_pointer
from jqmagic.core.words import preview

OPERATIONS = ("set", "insert", "remove", "merge")
RFC6902_OPS = ("add", "remove", "replace", "move", "copy", "test")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # "no value given" (None is JSON null)


@dataclass(frozen=True)
class Edit:
    """What one edit asks for: an operation at a pointer or on matched elements, an RFC
    6902 patch, an RFC 7386 merge patch, or a jq program."""

    op: str | None = None
    path: str | None = None
    value: Any = MISSING
    match: str | None = None
    where: dict | None = None
    every: bool = False
    rfc6902: list | None = None
    merge_patch: Any = MISSING
    jq: str | None = None
    args: dict | None = None  # the jq program's $name bindings


class Change(NamedTuple):
    """One value written: where, what was there (None if new), what is there now."""

    path: str
    previous: Any
    new: Any


class Store(Protocol):
    """What an operation needs from a document, whatever holds it."""

    def get(self, tokens: list[str]) -> Any: ...
    def kind(self, tokens: list[str]) -> str: ...
    def verbatim(self, tokens: list[str]) -> Any: ...
    def elements(self, tokens: list[str], needles: list[str]) -> Iterator[tuple[int, Any]]: ...
    def replace(self, tokens: list[str], value: Any) -> None: ...
    def add(self, tokens: list[str], value: Any) -> int | None: ...
    def remove(self, tokens: list[str]) -> None: ...


Runner = Callable[[Store], tuple[list[Change], int]]


# ------------------------------------------------------------------------- text faces


def command_kwargs(words: list[str], match: str | None = None, where: str | None = None
                   ) -> dict:
    """:func:`patch` keywords from command words ``OP [POINTER] [VALUE]`` (VALUE and
    ``where`` are JSON text). With ``match``, a lone word after OP is the VALUE, except
    for remove."""
    kwargs: dict[str, Any] = {}
    if match is not None:
        kwargs.update(match=match, where=parse_json(where, "--where") if where else None)
    if not words:
        return kwargs
    op, rest = words[0], list(words[1:])
    if len(rest) > 2:
        raise bad(f"Too many words after {op}: {' '.join(rest)}.",
                   "Give OP [POINTER] [VALUE]; quote a VALUE that has spaces.")
    if len(rest) == 1 and match is not None and op != "remove":
        rest.insert(0, None)
    kwargs["op"] = op
    if rest and rest[0] is not None:
        kwargs["path"] = rest[0]
    if len(rest) == 2:
        kwargs["value"] = parse_json(rest[1], "VALUE")
    return kwargs


def parse_json(text: str, what: str) -> Any:
    """JSON text given on a command line or in a cell; INVALID_JSON says where it broke."""
    try:
        return json.loads(text, parse_constant=_not_json)
    except ValueError as exc:
        where = f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) \
            else str(exc)
        word = text.strip()  # a bare word ("always") is shown as the JSON string it meant
        bare = word and not set(word) & set("\"'{}[]")  # (2.0.0 too: not a number either)
        raise JqMagicError(
            "INVALID_JSON", f"{what} is not JSON: {where}.",
            f"A string is JSON in double quotes: '{json.dumps(word, ensure_ascii=False)}'."
            if bare else
            "Write JSON: strings in double quotes ('\"dark\"'), objects like '{\"a\": 1}'.",
        ) from None


def _not_json(word: str) -> Any:
    """Python's json reads NaN and Infinity; JSON has no such number."""
    raise ValueError(f"{word} is no JSON number (write null, or a string)")


# ------------------------------------------------------------------------- planning


def check_op(op: str, value: Any) -> None:
    if op not in OPERATIONS:
        raise bad(f"Unknown operation {op!r}.", f"Use one of: {', '.join(OPERATIONS)}.")
    if op == "remove" and value is not MISSING:
        raise bad("remove takes no value.", "Drop the value, or use set to replace.")
    if op != "remove" and value is MISSING:
        raise bad(f"{op} needs a value.", "Pass the new value as JSON, e.g. '\"dark\"' or 42.")


def pointer_tokens(text: Any) -> list[str]:
    if not isinstance(text, str):
        raise JqMagicError("INVALID_POINTER", f"A pointer must be a string, not {preview(text)}.",
                           "e.g. '/users/0/name'; '' is the whole document.")
    return parse_pointer(text)


def bad(message: str, hint: str = "") -> JqMagicError:
    return JqMagicError("INVALID_ARGUMENT", message, hint)


