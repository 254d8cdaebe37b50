"""Lossless JSON / JSONC text, read: values and members with their offsets, the document's
style (indent, newline, spacing), and values rendered in that style."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from jqmagic.core import pointers
from jqmagic.core.errors import JqMagicError, caret_excerpt
from jqmagic.core.words import count, term

try:  # optional at install (setup.py): the regular expressions read the same otherwise
    from jqmagic.core.patch import _spans
except ImportError:
    _spans = None

BOM = b"\xef\xbb\xbf"
_WS = re.compile(r"(?:[ \t\n\r]+|//[^\n]*|/\*.*?\*/)*", re.S)
_HWS = re.compile(r"[ \t]*")
# plain characters in runs between escapes (one alternative per character took 6 s over a
# 100 MB string; this, 0.6 s)
_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS = {"t": "true", "f": "false", "n": "null"}
_KINDS = {"{": "object", "[": "array", '"': "string", "t": "boolean", "f": "boolean", "n": "null"}
_STYLE = re.compile(
    r'"(?:[^"\\\n]|\\.)*"(?P<colon>[ \t]*:[ \t]*)?|,(?P<comma>[ \t]*)(?=[^ \t\r\n])'
)
# an object member up to its value: the key, then ':' between spaces and comments; the
# spaces and comments after a value, and a comma with those after it
_HEAD = re.compile(f"({_STRING.pattern}){_WS.pattern}:{_WS.pattern}", re.S)
_GAP = re.compile(f"{_WS.pattern}(?:(,){_WS.pattern})?", re.S)
_SAMPLE = 1 << 16
_INDEX = re.compile(r"0|[1-9][0-9]*")


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class _DuplicateKey(Exception):
    """An object repeats a key (not a ValueError, so no fallback parse catches it)."""


def _unique(pairs: list) -> None:
    if len(pairs) > 1 and len(dict(pairs)) != len(pairs):
        raise _DuplicateKey
    return None


# The decoders reject NaN / Infinity. _SKIP drops each object once built and turns numbers
# into True (bool is a C callable), so skipping a large sibling runs at C speed and keeps
# almost nothing; _CHECK also finds repeated keys.
_READ = json.JSONDecoder(parse_constant=_reject_constant).scan_once
_SKIP = json.JSONDecoder(object_hook=lambda _: None, parse_int=bool, parse_float=bool,
                         parse_constant=_reject_constant).scan_once
_CHECK = json.JSONDecoder(object_pairs_hook=_unique, parse_int=bool, parse_float=bool,
                          parse_constant=_reject_constant).scan_once


class Member(NamedTuple):
    """One member of an object (``key`` is a str) or array (``key`` is the index)."""

    key: str | int
    start: int  # the key's opening quote, or the value for arrays
    kend: int  # just after the key string (== start for arrays)
    vstart: int
    vend: int


class Verbatim(NamedTuple):
    """A value with the text it was read from, so a move or copy writes it as written."""

    value: Any
    text: str  # latin-1 form, as in TextDoc
    indent: str  # the indentation of the line where it starts


@dataclass(frozen=True)
class Style:
    """How a document writes JSON, so new text looks like the old."""

    indent: str | None  # indent unit ("  ", "    ", "\t"), None for single-line documents
    key_sep: str
    item_sep: str  # between members on one line
    newline: str
    ensure_ascii: bool


class Located(NamedTuple):
    """A value's span, and whether the container holding it spreads over several lines."""

    start: int
    end: int
    multiline: bool


def whole_stream(documents: int, noun: str = "document",
                 stream: str = "a YAML stream") -> JqMagicError:
    """The error for an edit of the stream itself (adding or removing documents; a JSON
    Lines file's lines alike), saying how many there are (in its facts too)."""
    last = documents - 1
    return JqMagicError(
        "INVALID_ARGUMENT", f"Cannot replace, add or remove the {noun}s of {stream}: it "
        f"holds {count(documents, noun)}, /0 to /{last}.",
        f"Edit inside one of them, e.g. /{last}/KEY.",
        facts={"documents": documents, "noun": noun})


def stream_index(tokens: list[str], documents: int, noun: str = "document") -> int:
    """The document ``tokens[0]`` names in a stream of ``documents``; its error says in
    its facts how many there are, as :func:`whole_stream`'s does."""
    try:
        return array_index(tokens, 0, documents)
    except JqMagicError as exc:
        exc.facts = {"documents": documents, "noun": noun}
        raise


def array_index(tokens: list[str], depth: int, length: int, *, append: bool = False) -> int:
    """The index ``tokens[depth]`` names in an array of ``length``; raises if none.

    With ``append`` (RFC 6902 add, insert), ``-`` and ``length`` name the end of the array.
    """
    token, where = tokens[depth], pointers.to_pointer(tokens[: depth + 1])
    parent = pointers.to_pointer(tokens[:depth])
    if token == "-" and append:
        return length
    if not _INDEX.fullmatch(token):
        reason = ("'-' names the end of the array, after its last element" if token == "-"
                  else f"{token!r} is not an array index")
        raise JqMagicError(
            "NOT_FOUND" if token == "-" else "INVALID_POINTER",
            f"Path '{where}' not found: {reason}. Array length is {length}.",
            "Indexes are 0, 1, 2... (no sign, no leading zeros); '-' appends.",
        )
    if int(token) < length or (append and int(token) == length):
        return int(token)
    how = f"Use '{parent}/-' to append, " if append else "Use "
    raise JqMagicError(
        "NOT_FOUND",
        f"Path '{where}' not found. Array length is {length}.",
        f"{how}{term('match')} or {term('inspect', parent)}.",
    )


def missing_key(tokens: list[str], depth: int, keys: list[str]) -> JqMagicError:
    """NOT_FOUND for ``tokens[depth]``, a key the object at ``tokens[:depth]`` lacks."""
    return pointers.missing_key(pointers.to_pointer(tokens[: depth + 1]),
                                pointers.to_pointer(tokens[:depth]), tokens[depth], keys,
                                len(keys))


def not_container(tokens: list[str], depth: int, kind: str) -> JqMagicError:
    """NOT_FOUND for a step below the string, number, boolean or null at ``tokens[:depth]``."""
    return pointers.not_container(pointers.to_pointer(tokens[: depth + 1]),
                                  pointers.to_pointer(tokens[:depth]), tokens[depth], kind)


def _raw(text: str) -> str:
    """Real text -> its UTF-8 bytes as latin-1 characters (the form TextDoc holds)."""
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("latin-1")
    except UnicodeEncodeError:  # a lone surrogate from a \ud800 escape
        return text.encode("utf-8", "surrogatepass").decode("latin-1")


def _real(text: str) -> str:
    """The inverse of :func:`_raw`; bytes that are not UTF-8 come back as surrogates."""
    if text.isascii():
        return text
    data = text.encode("latin-1")
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


def invalid(text: str, pos: int, why: str) -> JqMagicError:
    """An INVALID_JSON error pointing at ``pos`` with a caret."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text.count("\n", 0, pos) + 1
    column = len(_real(text[start:pos])) + 1
    shown = _real(text[start : len(text) if end < 0 else end]).encode("utf-8", "replace")
    return JqMagicError(
        "INVALID_JSON",
        f"Invalid JSON at line {line}, column {column}: {why}.",
        "Fix the file first; nothing was changed.",
        caret_excerpt(shown.decode("utf-8"), 1, column),
    )


def ws(text: str, pos: int) -> int:
    """Skip whitespace and comments from ``pos``."""
    return _WS.match(text, pos).end()


def _scalar_end(text: str, pos: int) -> int:
    char = text[pos : pos + 1]
    if char == '"':
        found = _STRING.match(text, pos)
        if found is None:
            raise invalid(text, pos, "unterminated string or bad escape")
        return found.end()
    literal = _LITERALS.get(char)
    if literal is not None and text.startswith(literal, pos):
        return pos + len(literal)
    found = _NUMBER.match(text, pos)
    if found is None:
        what = repr(char) if char else "end of text"
        raise invalid(text, pos, f"expected a value, found {what}")
    return found.end()


def value_end(text: str, pos: int) -> int:
    """The offset just after the value starting at ``pos`` (validated on the way)."""
    if text[pos : pos + 1] not in ("{", "["):
        return _scalar_end(text, pos)
    try:
        return _SKIP(text, pos)[1]
    except (ValueError, StopIteration):  # comments, trailing commas or an error: walk it
        return _walk_end(text, pos)


def _walk_end(text: str, pos: int) -> int:
    last = pos + 1
    for member in members(text, pos):
        last = member.vend
    return closing(text, last) + 1


def read(text: str, pos: int) -> Any:
    """The Python value of the JSON / JSONC value starting at ``pos``."""
    try:
        value, end = _READ(text, pos)
    except (ValueError, StopIteration):  # comments or trailing commas
        return _build(text, pos)
    return value if text[pos:end].isascii() else json.loads(_real(text[pos:end]))


def _build(text: str, pos: int) -> Any:
    if text[pos] == "{":
        return {_real(m.key): _build(text, m.vstart) for m in members(text, pos)}
    if text[pos] == "[":
        return [_build(text, m.vstart) for m in members(text, pos)]
    return json.loads(_real(text[pos : _scalar_end(text, pos)]))


def members(text: str, pos: int, until: str | int | None = None,
            after: Member | None = None) -> Iterator[Member]:
    """The members of the object or array opening at ``pos``, in order (those after the
    array's member ``after``, already read, when given).

    Iteration stops at the member whose key (or index) is ``until``; its ``vend`` is -1, as
    its value (maybe huge) is not skipped.
    """
    is_object = text[pos] == "{"
    close = "}" if is_object else "]"
    cur = ws(text, pos + 1) if after is None else _next_member(text, after.vend, close)
    index = 0 if after is None else after.key + 1
    head = _HEAD.match
    while text[cur : cur + 1] != close:
        start = kend = cur
        key: str | int = index
        if is_object:
            found = head(text, cur)
            if found is None:  # say what is wrong, and where
                key, kend = _key(text, cur)
                cur = ws(text, kend)
                raise invalid(text, cur, "expected ':' after the key")
            raw, kend, cur = found.group(1), found.end(1), found.end()
            key = _raw(json.loads(_real(raw))) if "\\" in raw else raw[1:-1]
        if key == until:
            yield Member(key, start, kend, cur, -1)
            return
        vend = value_end(text, cur)
        yield Member(key, start, kend, cur, vend)
        index += 1
        cur = _next_member(text, vend, close)


_PLAIN_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_PLAIN_SCALAR = rf"{_PLAIN_STRING}|-?[0-9][0-9.eE+-]*|true|false|null"
_PLAIN_GAP = re.compile(r"[ \t\n\r]*,?[ \t\n\r]*")
# a member, and where the scalar value and the gap after it end: one match a member
_PLAIN_KEYED = re.compile(
    rf"({_PLAIN_STRING})[ \t\n\r]*:[ \t\n\r]*(?:({_PLAIN_SCALAR})[ \t\n\r]*,?[ \t\n\r]*)?")
_PLAIN_ITEM = re.compile(rf"(?:()({_PLAIN_SCALAR})[ \t\n\r]*,?[ \t\n\r]*)?")  # () for group 2


def plain_members(text: str, pos: int) -> list[Member]:
    """:func:`members` of a text :func:`validate` found plain JSON (no comments, nor
    trailing commas, nor errors to tell), read faster: in C (``_spans.c``, skipping nested
    values by their brackets) where it was built, else one match a scalar member."""
    if _spans is not None:
        return _spans.members(text, pos, Member, _escaped_key)
    return list(_plain_members(text, pos))


def _escaped_key(raw: str) -> str:
    """The key of the key string ``raw`` (quotes included) that holds an escape."""
    return _raw(json.loads(_real(raw)))


def _plain_members(text: str, pos: int) -> Iterator[Member]:
    """:func:`plain_members` by regular expressions."""
    keyed = text[pos] == "{"
    close = "}" if keyed else "]"
    match = _PLAIN_KEYED.match if keyed else _PLAIN_ITEM.match
    gap = _PLAIN_GAP.match
    cur, index = gap(text, pos + 1).end(), 0
    while text[cur] != close:
        found = match(text, cur)
        key: str | int = index
        kend = cur
        if keyed:
            raw, kend = found.group(1), found.end(1)
            key = _escaped_key(raw) if "\\" in raw else raw[1:-1]
        if found.group(2) is None:  # a container
            vstart = found.end()
            vend = value_end(text, vstart)
            yield Member(key, cur, kend, vstart, vend)
            cur = gap(text, vend).end()
        else:
            yield Member(key, cur, kend, found.start(2), found.end(2))
            cur = found.end()
        index += 1


def _next_member(text: str, vend: int, close: str) -> int:
    """Where the member after the one ending at ``vend`` starts (or its container closes)."""
    found = _GAP.match(text, vend)
    cur = found.end()
    if found.group(1) is None and text[cur : cur + 1] != close:
        raise invalid(text, cur, f"expected ',' or '{close}'")
    return cur


def _key(text: str, pos: int) -> tuple[str, int]:
    found = _STRING.match(text, pos)
    if found is None:
        raise invalid(text, pos, "expected a key string")
    raw = found.group()
    return (_raw(json.loads(_real(raw))) if "\\" in raw else raw[1:-1]), found.end()


def closing(text: str, after: int) -> int:
    """The closing bracket's offset, given the end of the last member (or the opening)."""
    cur = ws(text, after)
    if text[cur : cur + 1] == ",":
        cur = ws(text, cur + 1)
    return cur


def validate(text: str) -> tuple[int, bool]:
    """Check the whole document; return where its value starts and whether it is plain JSON
    whose objects never repeat a key (then a lookup may stop at the first match)."""
    start = ws(text, 0)
    if start == len(text):
        raise invalid(text, start, "the document is empty")
    try:
        end, plain = _CHECK(text, start)[1], True
    except (_DuplicateKey, ValueError, StopIteration):  # repeated keys, JSONC or an error
        end, plain = value_end(text, start), False
    end = ws(text, end)
    if end != len(text):
        raise invalid(text, end, "extra data after the document (JSON Lines is not supported)")
    # _CHECK read the latin-1 form: a key escaped (\u00e9) and the same written in UTF-8
    # differ there, so it cannot tell they repeat
    return start, plain and (text.isascii() or "\\u" not in text)


def detect_style(text: str) -> Style:
    """Guess the indent unit, separators, newline and escaping from the start of the text."""
    sample = text[:_SAMPLE]
    indents = re.findall(r"\n([ \t]+)[^ \t\r\n]", sample[:4096])
    unit = None
    if indents:
        unit = "\t" if indents[0].startswith("\t") else " " * min(len(i) for i in indents)
    key_sep = item_sep = None
    for found in _STYLE.finditer(sample):
        if key_sep is None and found.group("colon") is not None:
            key_sep = ": " if found.group("colon").endswith((" ", "\t")) else ":"
        if item_sep is None and found.group("comma") is not None:
            item_sep = "," + found.group("comma")
        if key_sep is not None and item_sep is not None:
            break
    key_sep = key_sep or (": " if unit else ":")
    return Style(
        indent=unit,
        key_sep=key_sep,
        item_sep=item_sep or ("," if key_sep == ":" else ", "),
        newline="\r\n" if "\r\n" in sample else "\n",
        ensure_ascii=text.isascii() and "\\u" in text,
    )


def render(value: Any, style: Style, multiline: bool, base: str = "") -> str:
    """``value`` as JSON text in ``style``; continuation lines start with ``base``."""
    kind = type(value)
    if kind is int or value is None or kind is bool:  # what the encoder writes, at once
        return "null" if value is None else ("true" if value else "false") if kind is bool \
            else int.__repr__(value)
    spread = multiline and style.indent is not None
    try:
        out = _encoder(style, spread).encode(value)
        return out.replace("\n", style.newline + base) if spread else out
    except (TypeError, ValueError) as exc:
        raise JqMagicError(
            "INVALID_ARGUMENT",
            f"The new value is not JSON: {exc}.",
            "Use dicts, lists, strings, finite numbers, booleans and None.",
        ) from exc


@functools.lru_cache(maxsize=64)
def _encoder(style: Style, spread: bool) -> json.JSONEncoder:
    """The encoder writing values in ``style``, over lines (``spread``) or on one."""
    if spread:
        return json.JSONEncoder(indent=style.indent, separators=(",", style.key_sep),
                                ensure_ascii=style.ensure_ascii, allow_nan=False)
    return json.JSONEncoder(separators=(style.item_sep, style.key_sep),
                            ensure_ascii=style.ensure_ascii, allow_nan=False)


def line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line holding ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    return text[start : _HWS.match(text, start, pos).end()]


def _starts_line(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return _HWS.match(text, start, pos).end() == pos


def _line_comment_end(text: str, pos: int) -> int | None:
    """If only a ``//`` comment follows ``pos`` on its line, where that line ends."""
    cur = _HWS.match(text, pos).end()
    if not text.startswith("//", cur):
        return None
    end = text.find("\n", cur)
    end = len(text) if end < 0 else end
    return end - 1 if text[end - 1 : end] == "\r" else end


