"""A JSON / JSONC file's text as a store: each edit is a splice of the bytes of the value it
changes; every other byte (comments, spacing, key order, number literals) stays.

A :class:`TextDoc` keeps the original text of a file. Locating a value walks only the
containers on the pointer's path: their members are scanned (``jsonscan``: comments,
trailing commas and offsets are known) while the values in between are skipped by the json
module's C scanner. An edit replaces the bytes of one value or one member with text
rendered in the document's own style (indent unit, separators, newline, ASCII escaping).

The text is the file's bytes decoded as latin-1: one character per byte, so offsets are
byte offsets, any byte sequence round-trips, and a 100 MB file costs 100 MB of text. JSON
syntax is ASCII, so scanning is unaffected; keys, values read, new text, errors and diffs
pass through ``_raw`` / ``_real`` (UTF-8) at the boundary.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.cuts import cut_last, cut_only, cut_with_next
from jqmagic.core.patch.jsonscan import (
    _HWS,
    _INDEX,
    _KINDS,
    BOM,
    Located,
    Member,
    Style,
    Verbatim,
    _line_comment_end,
    _raw,
    _real,
    _starts_line,
    array_index,
    closing,
    detect_style,
    line_indent,
    members,
    missing_key,
    not_container,
    read,
    render,
    validate,
    value_end,
    ws,
)
from jqmagic.core.patch.pending import Pending, apply
from jqmagic.core.patch.textdiff import hunks, lines_after, lines_before, spliced_diff


class TextDoc:
    """A JSON / JSONC document held as text, edited in place by splices."""

    def __init__(self, data: bytes):
        self.bom = data.startswith(BOM)
        self.data = data
        original = data[3 if self.bom else 0 :].decode("latin-1")
        root, first_wins = validate(original)
        style = detect_style(original)
        self._start(original, root, first_wins, style, style.indent is not None)

    @classmethod
    def part(cls, text: str, root: int, whole: TextDoc, multiline: bool) -> TextDoc:
        """The value at ``root`` in ``text`` (an excerpt of ``whole``'s text whose line
        starts at 0) as a document of its own, edited as ``whole`` would be
        (``multiline``: whether the container holding it spreads over several lines)."""
        doc = cls.__new__(cls)
        doc.bom, doc.data = False, b""
        doc._start(text, root, whole._first_wins, whole.style, multiline)
        return doc

    def _start(self, text: str, root: int, first_wins: bool, style: Style,
               multiline: bool) -> None:
        self.original = text
        self.root, self._first_wins, self.style = root, first_wins, style
        self._multiline = multiline  # the root's Located.multiline
        self._text = text
        self._pending = Pending()  # splices on self._text, not applied
        self._deferring = False  # while True, reads see self._text and splices wait
        self._rewritten = False  # True once _text is not the original string
        self._edited = False
        self._located: dict[tuple[str, ...], Located] = {}
        self._opened: dict[tuple[str, ...], int] = {}  # where each value on a path read starts
        # an array's members read so far, by its opening's offset: an -i's steps come last
        # element first, so each finds its element here, not by walking the array again
        self._walked: dict[int, list[Member]] = {}
        self._lo = len(text)  # everything before _lo is unchanged
        self._tail = len(text)  # the last _tail characters are unchanged

    # ---------------------------------------------------------------- text and edits

    @property
    def text(self) -> str:
        """The current text, with every edit applied (while deferring: as last applied)."""
        if self._pending and not self._deferring:
            first = self._pending.first()
            self._text = apply(self._text, self._pending)
            self._pending = Pending()
            self._rewritten = True
            self._forget(first)
        return self._text

    @contextmanager
    def deferring(self) -> Iterator[TextDoc]:
        """Edits meanwhile read the text as last applied and leave their splices pending
        (the caller knows no pending splice touches what they read: see batch.py)."""
        self._deferring = True
        try:
            yield self
        finally:
            self._deferring = False

    @property
    def pending(self) -> Pending:
        """The splices not applied yet, in the offsets of the text as last applied."""
        return self._pending

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
        first = min(e[0] for e in edits)
        self._lo = min(self._lo, first)
        self._tail = min(self._tail, len(text) - max(e[1] for e in edits))
        self._pending.extend(edits)
        if self._deferring:
            return
        self._forget(first)
        if self._rewritten:
            self.text  # noqa: B018 - apply now; only the first edit may stay pending

    def _forget(self, start: int) -> None:
        """Forget the places read, but of the arrays' walks only the members an edit at
        ``start`` does not move."""
        self._located.clear()
        self._opened.clear()
        for open_ in list(self._walked):
            known = self._walked[open_]
            if open_ >= start:
                del self._walked[open_]
            else:
                del known[bisect.bisect_right(known, start, key=lambda m: m.vend):]

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
        if not self._rewritten:  # the splices pending: each cluster in its own window
            return spliced_diff(old, list(self._pending), name, context, _real)
        start = lines_before(old, self._lo, context)
        old_end = lines_after(old, len(old) - self._tail, context)
        new = self.text
        new_part = new[start : lines_after(new, len(new) - self._tail, context)]
        return hunks(_real(old[start:old_end]), _real(new_part), old.count("\n", 0, start),
                      name, context)

    # ---------------------------------------------------------------- reading

    def locate(self, tokens: list[str]) -> Located:
        """The span of the value at ``tokens``; raises NOT_FOUND / INVALID_POINTER."""
        if self._pending and not self._deferring:
            self.text  # noqa: B018 - the places known are of the text as last applied
        key = tuple(tokens)
        if key not in self._located:
            self._located[key] = self._locate(tokens)
        return self._located[key]

    def _locate(self, tokens: list[str]) -> Located:
        text, opened = self.text, self._opened
        pos, multiline, done = self.root, self._multiline, 0
        for done in range(len(tokens) - 1, 0, -1):  # start from the longest known prefix
            known = opened.get(tuple(tokens[:done]))
            if known is not None:
                pos = known
                break
        else:
            done = 0
        for depth in range(done, len(tokens)):
            hit, first = self._child(text, pos, tokens, depth)
            multiline = text.find("\n", pos, first) >= 0
            pos = hit.vstart
            opened[tuple(tokens[: depth + 1])] = pos
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
        known = self._walked.setdefault(pos, [])
        if 0 <= wanted < len(known):
            return known[wanted], known[0].start
        for member in members(text, pos, wanted, known[-1] if known else None):
            if member.key == wanted:  # not kept: its end (maybe far) was not read
                return member, known[0].start if known else member.start
            known.append(member)
        array_index(tokens, depth, len(known))  # raises the right error
        raise AssertionError("unreachable")  # pragma: no cover

    def _walk(self, text: str, open_: int, through: int | None) -> list[Member]:
        """The array's members up to index ``through`` (fewer where it ends; None: all of
        them), read once."""
        known = self._walked.setdefault(open_, [])
        if through is None or len(known) <= through:
            walk = members(text, open_, None, known[-1] if known else None)
            known.extend(walk if through is None else islice(walk, through + 1 - len(known)))
        return known

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
        known = self._walk(self.text, parent.start, wanted if wanted >= 0 else None)
        if 0 <= wanted < len(known):
            self._add_member(parent, known[wanted], None, value)
            return wanted
        index = array_index(tokens, len(tokens) - 1, len(known), append=True)
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
            last = self._walk(text, open_, None)[-1] if text[open_] == "[" else \
                _last(text, open_)
            self._append(last, member, gap, multiline)

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
        if after is not None or (prev is not None and text[ws(text, target.vend)] == ","):
            self.splice([cut_with_next(text, target)])  # a trailing comma: prev's stays
        elif prev is not None:
            self.splice(cut_last(text, prev, target))
        else:
            self.splice(cut_only(text, parent.start, target))

    def _neighbours(
        self, text: str, open_: int, tokens: list[str]
    ) -> tuple[Member | None, Member, Member | None]:
        self._child(text, open_, tokens, len(tokens) - 1)  # raises if missing
        if text[open_] == "[":
            index = int(tokens[-1])
            known = self._walk(text, open_, index + 1)
            return (known[index - 1] if index else None, known[index],
                    known[index + 1] if index + 1 < len(known) else None)
        wanted = _raw(tokens[-1])
        prev = target = after = before_target = None
        for member in members(text, open_):
            if member.key == wanted:
                before_target, target, after = prev, member, None
            elif target is not None and after is None:
                after = member
            prev = member
        return before_target, target, after


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


def kind_at(text: str, pos: int) -> str:
    """The JSON type name of the value starting at ``pos``."""
    return _KINDS.get(text[pos], "number")
