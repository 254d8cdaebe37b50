"""Lossless JSON / JSONC text: find a value by pointer and splice one edit into the text.

A :class:`TextDoc` keeps the original text of a file. Locating a value walks only the
containers on the pointer's path: their members are scanned here (so comments, trailing
commas and offsets are known) while the values in between are skipped by the json module's
C scanner. An edit replaces the bytes of one value or one member with text rendered in
the document's own style (indent unit, separators, newline, ASCII escaping); every other byte
is left as it was, so number literals, key order, escapes and comments survive.

The text is the file's bytes decoded as latin-1: one character per byte, so offsets are byte
offsets, any byte sequence round-trips, and a 100 MB file costs 100 MB of text. JSON syntax
is ASCII, so scanning is unaffected; keys, values read, new text, errors and diffs pass
through :func:`_raw` / :func:`_real` (UTF-8) at the boundary.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, NamedTuple

from jqmagic.core import pointers
from jqmagic.core.errors import JqMagicError, caret_excerpt

BOM = b"\xef\xbb\xbf"
_WS = re.compile(r"(?:[ \t\n\r]+|//[^\n]*|/\*.*?\*/)*", re.S)
_HWS = re.compile(r"[ \t]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS = {"t": "true", "f": "false", "n": "null"}
_KINDS = {"{": "object", "[": "array", '"': "string", "t": "boolean", "f": "boolean", "n": "null"}
_STYLE = re.compile(
    r'"(?:[^"\\\n]|\\.)*"(?P<colon>[ \t]*:[ \t]*)?|,(?P<comma>[ \t]*)(?=[^ \t\r\n])'
)
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


@dataclass(frozen=True)
class Located:
    """A value's span, and whether the container holding it spreads over several lines."""

    start: int
    end: int
    multiline: bool


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
        f"{how}--match or %inspect {parent or chr(39) * 2}.",
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


def members(text: str, pos: int, until: str | int | None = None) -> Iterator[Member]:
    """The members of the object or array opening at ``pos``, in order.

    Iteration stops at the member whose key (or index) is ``until``; its ``vend`` is -1, as
    its value (maybe huge) is not skipped.
    """
    is_object = text[pos] == "{"
    close = "}" if is_object else "]"
    cur = ws(text, pos + 1)
    count = 0
    while text[cur : cur + 1] != close:
        start = kend = cur
        key: str | int = count
        if is_object:
            key, kend = _key(text, cur)
            cur = ws(text, kend)
            if text[cur : cur + 1] != ":":
                raise invalid(text, cur, "expected ':' after the key")
            cur = ws(text, cur + 1)
        if key == until:
            yield Member(key, start, kend, cur, -1)
            return
        vend = value_end(text, cur)
        yield Member(key, start, kend, cur, vend)
        count += 1
        cur = ws(text, vend)
        if text[cur : cur + 1] == ",":
            cur = ws(text, cur + 1)
        elif text[cur : cur + 1] != close:
            raise invalid(text, cur, f"expected ',' or '{close}'")


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
    return start, plain


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
    try:
        if multiline and style.indent is not None:
            out = json.dumps(
                value, indent=style.indent, separators=(",", style.key_sep),
                ensure_ascii=style.ensure_ascii, allow_nan=False,
            )
            return out.replace("\n", style.newline + base)
        return json.dumps(
            value, separators=(style.item_sep, style.key_sep),
            ensure_ascii=style.ensure_ascii, allow_nan=False,
        )
    except (TypeError, ValueError) as exc:
        raise JqMagicError(
            "INVALID_ARGUMENT",
            f"The new value is not JSON: {exc}.",
            "Use dicts, lists, strings, finite numbers, booleans and None.",
        ) from exc


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


class TextDoc:
    """A JSON / JSONC document held as text, edited in place by splices."""

    def __init__(self, data: bytes):
        self.bom = data.startswith(BOM)
        self.data = data
        self.original = data[3 if self.bom else 0 :].decode("latin-1")
        self.root, self._first_wins = validate(self.original)
        self.style = detect_style(self.original)
        self._text = self.original
        self._pending: list[tuple[int, int, str]] = []  # splices on self._text, not applied
        self._rewritten = False  # True once _text is not the original string
        self._edited = False
        self._located: dict[tuple[str, ...], Located] = {}
        self._lo = len(self.original)  # everything before _lo is unchanged
        self._tail = len(self.original)  # the last _tail characters are unchanged

    # ---------------------------------------------------------------- text and edits

    @property
    def text(self) -> str:
        """The current text, with every edit applied."""
        if self._pending:
            self._text = _apply(self._text, self._pending)
            self._pending = []
            self._rewritten = True
        return self._text

    @property
    def changed(self) -> bool:
        """Whether any character differs from the original."""
        return self._edited

    def splice(self, edits: list[tuple[int, int, str]]) -> None:
        """Replace ``text[start:end]`` by ``new`` for each non-overlapping edit."""
        text = self.text
        edits = [e for e in edits if text[e[0] : e[1]] != e[2]]
        if not edits:
            return
        self._edited = True
        self._located.clear()
        self._lo = min(self._lo, *(e[0] for e in edits))
        self._tail = min(self._tail, *(len(text) - e[1] for e in edits))
        self._pending = sorted(edits)
        if self._rewritten:
            self.text  # noqa: B018 - apply now; only the first edit may stay pending

    def chunks(self) -> Iterator[bytes]:
        """The new file content as byte pieces, sliced from the original where possible."""
        if self.bom:
            yield BOM
        if self._rewritten:
            yield self.text.encode("latin-1")
            return
        body = memoryview(self.data)[3 if self.bom else 0 :]
        done = 0
        for start, end, new in self._pending:
            yield body[done:start]
            yield new.encode("latin-1")
            done = end
        yield body[done:]

    def diff(self, name: str, context: int = 3) -> str:
        """A unified diff of the edits, computed on the changed lines only."""
        if not self.changed:
            return ""
        old = self.original
        start = old.rfind("\n", 0, self._lo) + 1
        for _ in range(context):
            start = old.rfind("\n", 0, max(start - 1, 0)) + 1
        old_end = _lines_after(old, len(old) - self._tail, context)
        if self._rewritten:
            new = self.text
            new_part = new[start : _lines_after(new, len(new) - self._tail, context)]
        else:  # one pending splice: apply it to the window, not to the whole text
            new_part = _apply(old[start:old_end], [
                (a - start, b - start, piece) for a, b, piece in self._pending])
        offset = old.count("\n", 0, start)
        lines = difflib.unified_diff(
            _real(old[start:old_end]).splitlines(keepends=True),
            _real(new_part).splitlines(keepends=True),
            f"a/{name}", f"b/{name}", n=context,
        )
        return "".join(_shift_hunk(line, offset) for line in lines)

    # ---------------------------------------------------------------- reading

    def locate(self, tokens: list[str]) -> Located:
        """The span of the value at ``tokens``; raises NOT_FOUND / INVALID_POINTER."""
        key = tuple(tokens)
        if key not in self._located:
            self._located[key] = self._locate(tokens)
        return self._located[key]

    def _locate(self, tokens: list[str]) -> Located:
        text = self.text
        pos, multiline, done = self.root, self.style.indent is not None, 0
        for done in range(len(tokens) - 1, 0, -1):  # start from the longest known prefix
            known = self._located.get(tuple(tokens[:done]))
            if known is not None:
                pos, multiline = known.start, known.multiline
                break
        else:
            done = 0
        for depth in range(done, len(tokens)):
            hit, first = self._child(text, pos, tokens, depth)
            multiline = text.find("\n", pos, first) >= 0
            pos = hit.vstart
        return Located(pos, value_end(text, pos), multiline)

    def _child(self, text: str, pos: int, tokens: list[str], depth: int) -> tuple[Member, int]:
        char = text[pos]
        if char == "{":
            hit, first, keys, key = None, pos, [], _raw(tokens[depth])
            for member in members(text, pos, key if self._first_wins else None):
                first = first if keys else member.start
                keys.append(member.key)
                hit = member if member.key == key else hit  # the last duplicate wins
            if hit is None:
                raise missing_key(tokens, depth, [_real(k) for k in keys])
            return hit, first
        if char == "[":
            return self._element(text, pos, tokens, depth)
        raise not_container(tokens, depth, kind_at(text, pos))

    def _element(self, text: str, pos: int, tokens: list[str], depth: int) -> tuple[Member, int]:
        token = tokens[depth]
        wanted = int(token) if _INDEX.fullmatch(token) else -1
        first, count = pos, 0
        for member in members(text, pos, wanted):
            first = member.start if count == 0 else first
            if member.key == wanted:
                return member, first
            count += 1
        array_index(tokens, depth, count)  # raises the right error
        raise AssertionError("unreachable")  # pragma: no cover

    def get(self, tokens: list[str]) -> Any:
        """The Python value at ``tokens``."""
        return read(self.text, self.locate(tokens).start)

    def verbatim(self, tokens: list[str]) -> Verbatim:
        """The value at ``tokens`` with its text, for a move or a copy."""
        found = self.locate(tokens)
        text = self.text
        return Verbatim(read(text, found.start), text[found.start : found.end],
                        line_indent(text, found.start))

    def kind(self, tokens: list[str]) -> str:
        """The JSON type name of the value at ``tokens``."""
        return kind_at(self.text, self.locate(tokens).start)

    def elements(self, tokens: list[str], needles: list[str]) -> Iterator[tuple[int, Any]]:
        """(index, value) of each element of the array at ``tokens`` that may match.

        An element whose text has no backslash and lacks one of ``needles`` (exact JSON
        texts of wanted values) cannot match and is not parsed.
        """
        text, needles = self.text, [_raw(n) for n in needles]
        pos = self.locate(tokens).start
        multiline = None
        for member in members(text, pos):
            start, end = member.vstart, member.vend
            if multiline is None:
                multiline = text.find("\n", pos, start) >= 0
            if needles and text.find("\\", start, end) < 0 and any(
                text.find(n, start, end) < 0 for n in needles
            ):
                continue
            # remember where it is: editing a match must not walk the array again
            self._located[(*tokens, str(member.key))] = Located(start, end, multiline)
            yield member.key, read(text, start)

    # ---------------------------------------------------------------- editing

    def replace(self, tokens: list[str], value: Any) -> None:
        """Replace the value at ``tokens`` (which must exist)."""
        found = self.locate(tokens)
        multiline = found.multiline and not _inline_container(self.text, found.start, found.end)
        new = self._value_text(value, multiline, line_indent(self.text, found.start))
        self.splice([(found.start, found.end, new)])

    def _value_text(self, value: Any, multiline: bool, base: str) -> str:
        """``value`` in this document's style (latin-1 form); a Verbatim keeps its text."""
        if isinstance(value, Verbatim):
            lines = value.text.count("\n")
            if not lines:
                return value.text
            if multiline and value.text.count("\n" + value.indent) == lines:
                return value.text.replace("\n" + value.indent, "\n" + base)
            value = value.value  # it does not fit here as written: render it
        return _raw(render(value, self.style, multiline, base))

    def add(self, tokens: list[str], value: Any) -> int | None:
        """RFC 6902 add: set an object key, or insert into an array; returns the index used."""
        if not tokens:
            self.replace(tokens, value)
            return None
        parent = self.locate(tokens[:-1])
        char = self.text[parent.start]
        if char == "[":
            return self._insert(parent, tokens, value)
        if char != "{":
            raise not_container(tokens, len(tokens) - 1, kind_at(self.text, parent.start))
        if any(m.key == _raw(tokens[-1]) for m in members(self.text, parent.start)):
            self.replace(tokens, value)
        else:
            self._add_member(parent, None, tokens[-1], value)
        return None

    def _insert(self, parent: Located, tokens: list[str], value: Any) -> int:
        token = tokens[-1]
        wanted = int(token) if _INDEX.fullmatch(token) else -1
        count = 0
        for member in members(self.text, parent.start):
            if member.key == wanted:
                self._add_member(parent, member, None, value)
                return wanted
            count += 1
        index = array_index(tokens, len(tokens) - 1, count, append=True)
        self._add_member(parent, None, None, value)
        return index

    def _add_member(
        self, parent: Located, before: Member | None, key: str | None, value: Any
    ) -> None:
        """Insert a member before ``before``, or at the end of the container."""
        text, open_ = self.text, parent.start
        head = list(islice(members(text, open_), 2))
        close = None if head else closing(text, open_ + 1)
        multiline = _is_multiline(text, open_, head, close, parent.multiline, self.style)
        indent = self._child_indent(text, open_, head)
        inline = bool(head) and _inline_container(text, head[0].vstart, head[0].vend)
        member = self._member_text(text, head, key, value, multiline and not inline, indent)
        gap = self.style.newline + indent if multiline else self._inline_gap(text, head)
        if not head:
            inner = text[open_ + 1 : close].rstrip()
            tail = self.style.newline + line_indent(text, open_) if multiline else ""
            lead = self.style.newline + indent if multiline else ""
            self.splice([(open_ + 1, close, inner + lead + member + tail)])
        elif before is not None:
            self.splice([(before.start, before.start, member + "," + gap)])
        else:
            self._append(_last(text, open_), member, gap, multiline)

    def _append(self, last: Member, member: str, gap: str, multiline: bool) -> None:
        text = self.text
        after = _HWS.match(text, last.vend).end()
        has_comma = text[after : after + 1] == ","
        eol = _line_comment_end(text, after + 1 if has_comma else after) if multiline else None
        if eol is None:
            self.splice([(last.vend, last.vend, "," + gap + member)])
            return
        # keep a same-line "// comment" with the member it describes
        comma = [] if has_comma else [(last.vend, last.vend, ",")]
        self.splice(comma + [(eol, eol, gap + member + ("," if has_comma else ""))])

    def _child_indent(self, text: str, open_: int, head: list[Member]) -> str:
        if head and _starts_line(text, head[0].start):
            return line_indent(text, head[0].start)
        return line_indent(text, open_) + (self.style.indent or "  ")

    def _member_text(
        self, text: str, head: list[Member], key: str | None, value: Any, multiline: bool,
        indent: str,
    ) -> str:
        rendered = self._value_text(value, multiline, indent)
        if key is None:
            return rendered
        sep = text[head[0].kend : head[0].vstart] if head else self.style.key_sep
        if "\n" in sep or "/" in sep:
            sep = self.style.key_sep
        return _raw(json.dumps(key, ensure_ascii=self.style.ensure_ascii)) + sep + rendered

    def _inline_gap(self, text: str, head: list[Member]) -> str:
        if len(head) == 2:
            between = text[head[0].vend : head[1].start].partition(",")[2]
            if not between.strip():
                return between
        return self.style.item_sep[1:]

    def remove(self, tokens: list[str]) -> None:
        """Remove the member at ``tokens`` with its separator (and its lines, if alone)."""
        if not tokens:
            raise JqMagicError("INVALID_ARGUMENT", "Cannot remove the whole document.")
        parent = self.locate(tokens[:-1])
        text = self.text
        prev, target, after = self._neighbours(text, parent.start, tokens)
        if after is not None:
            self.splice([_cut_with_next(text, target)])
        elif prev is not None:
            self.splice(_cut_last(text, prev, target))
        else:
            self.splice([_cut_only(text, parent.start, target)])

    def _neighbours(
        self, text: str, open_: int, tokens: list[str]
    ) -> tuple[Member | None, Member, Member | None]:
        self._child(text, open_, tokens, len(tokens) - 1)  # raises if missing
        wanted: str | int = _raw(tokens[-1]) if text[open_] == "{" else int(tokens[-1])
        prev = target = after = before_target = None
        for member in members(text, open_):
            if member.key == wanted:
                before_target, target, after = prev, member, None
            elif target is not None and after is None:
                after = member
                if text[open_] == "[":
                    break
            prev = member
        return before_target, target, after


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    parts, done = [], 0
    for start, end, new in edits:
        parts += [text[done:start], new]
        done = end
    parts.append(text[done:])
    return "".join(parts)


def _last(text: str, open_: int) -> Member:
    last = None
    for last in members(text, open_):  # noqa: B007 - we want the last one
        pass
    return last


def _is_multiline(
    text: str, open_: int, head: list[Member], close: int | None, outer: bool, style: Style
) -> bool:
    if head:
        return text.find("\n", open_, head[0].start) >= 0
    return "\n" in text[open_:close] or (outer and style.indent is not None)


def _inline_container(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a non-empty object or array written on one line."""
    return text[start] in "{[" and text.find("\n", start, end) < 0 and ws(text, start + 1) < end - 1


def _cut_with_next(text: str, target: Member) -> tuple[int, int, str]:
    """Delete a member that has a next one: from its start through the comma after it."""
    start = target.start
    comma = ws(text, target.vend)
    end = _HWS.match(text, comma + 1).end()
    eol = _line_comment_end(text, end)
    end = eol if eol is not None else end
    if _starts_line(text, start) and text[end : end + 1] in ("\n", "\r"):
        start = text.rfind("\n", 0, start) + 1
        end += 2 if text[end : end + 2] == "\r\n" else 1
    return (start, end, "")


def _cut_last(text: str, prev: Member, target: Member) -> list[tuple[int, int, str]]:
    """Delete the last member: the comma after ``prev`` and the member itself."""
    comma = ws(text, prev.vend)
    start, end = comma + 1, target.vend
    newline = text.rfind("\n", 0, target.start)
    if _starts_line(text, target.start) and newline > comma:
        start = newline - 1 if text[newline - 1] == "\r" else newline
    eol = _line_comment_end(text, end)
    return [(comma, comma + 1, ""), (start, eol if eol is not None else end, "")]


def _cut_only(text: str, open_: int, target: Member) -> tuple[int, int, str]:
    """Delete the only member: the whole inside, unless comments must stay."""
    close = closing(text, target.vend)
    end = _HWS.match(text, target.vend).end()
    end = end + 1 if text[end : end + 1] == "," else target.vend
    rest = text[open_ + 1 : target.start] + text[end:close]
    if not rest.strip():
        return (open_ + 1, close, "")
    start = target.start
    newline = text.rfind("\n", 0, start)
    if _starts_line(text, start) and newline > open_:
        start = newline - 1 if text[newline - 1] == "\r" else newline
    eol = _line_comment_end(text, end)
    return (start, eol if eol is not None else end, "")


def kind_at(text: str, pos: int) -> str:
    """The JSON type name of the value starting at ``pos``."""
    return _KINDS.get(text[pos], "number")


def _lines_after(text: str, pos: int, count: int) -> int:
    end = pos
    for _ in range(count + 1):
        found = text.find("\n", end)
        if found < 0:
            return len(text)
        end = found + 1
    return end


def _shift_hunk(line: str, offset: int) -> str:
    if not line.startswith("@@"):
        return line
    return re.sub(
        r"([-+])(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + offset}", line, count=2
    )
