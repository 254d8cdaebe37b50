"""A diff's steps on a plain JSON text in one pass: the places the steps name are found by
one walk over the text (each container on their paths scanned once, its members' values
skipped at C speed), then each step's splice is made against the text as read, in the
steps' order; the new text is built once from the sorted splices.

Only where the text as read still tells a step what it reads, as the one-by-one step would
read it (the checks of batch.py: no earlier splice touches the value, the indentation of its
line, nor what a removal cuts; no array on its path had an element removed at or before its
index), and only for values replaced and members removed of plain JSON (no comments, no
repeated keys). Anything else (a key added, an item inserted, a check that fails) gives
None, and nothing is changed: the caller makes the steps as before.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.patch.cuts import cut_last, cut_only, cut_with_next
from jqmagic.core.patch.jsonscan import (
    _HWS,
    Member,
    _encoder,
    _raw,
    closing,
    line_indent,
    plain_members,
    read,
    render,
)
from jqmagic.core.patch.pending import Pending
from jqmagic.core.patch.plan import Change
from jqmagic.core.patch.textdoc import TextDoc, _inline_container
from jqmagic.core.pointers import to_pointer
from jqmagic.core.words import json_equal


class _Node:
    """A place the steps name (or one on their way), as found in the text."""

    __slots__ = ("children", "cuts", "start", "end", "at", "spread", "members", "removed",
                 "least", "head", "last", "done", "added", "length")

    def __init__(self) -> None:
        self.children: dict[str, _Node] | None = None
        self.cuts = False  # a step removes one of its members
        self.start = self.end = -1  # its value's span
        self.at = -1  # its place among its container's members (read where they are)
        self.spread = False  # its members' Located.multiline: a newline before the first
        self.members: list[Member] | None = None  # all of them, read where a member is cut
        self.removed: set[int] | None = None  # members cut by the steps made so far
        self.least = -1  # an array's least index cut so far (-1: none)
        self.head: list[Member] | None = None  # its first two members (read by the walk)
        self.last: Member | None = None  # its last member (read where a child is missing)
        self.done = False  # a step replaced it
        self.added: int | None = None  # the pending splice adding members after its last
        self.length = 0  # an array's elements read, and appended since


class _Unsure(Exception):
    """The pass cannot tell the one-by-one bytes here: the caller makes the steps."""


def one_pass(doc: TextDoc, steps: list[tuple[str, list[str], Any]]) -> list[Change] | None:
    """Make ``steps`` (a diff's: set or remove) on the unedited, plain JSON ``doc``; their
    changes, or None (nothing done) where the pass cannot be sure of the bytes."""
    if not steps or not doc._first_wins or doc.changed:
        return None
    try:
        with gc_paused():  # many small objects, no cycles
            root, places = _tree(steps)
            made = _Pass(doc, root)
            changes = made.quick_steps(steps, places)
            changes += [made.step(*step, place) for step, place in zip(
                steps[len(changes):], places[len(changes):], strict=True)]
    except (_Unsure, JqMagicError, ValueError):  # an error: the one-by-one steps raise it
        return None
    edits = made.quick if made.pending is None else list(made.pending)
    if edits:
        doc.splice(edits)
    return changes


_Place = tuple[_Node, _Node, _Node]  # a step's place, its container and the one holding it


def _tree(steps: list[tuple[str, list[str], Any]]) -> tuple[_Node, list[_Place]]:
    """The places the steps name, as a tree by their tokens; each step's place."""
    root, places = _Node(), []
    prefix, grand, parent = None, root, root
    for op, tokens, _ in steps:
        if op not in ("set", "remove") or not tokens:
            raise _Unsure
        head = tokens[:-1]
        if head != prefix:  # (a diff's steps come container by container)
            prefix, grand, parent = head, root, root
            for token in head:
                grand, parent = parent, _child(parent, token)
        node = _child(parent, tokens[-1])
        if op == "remove":
            parent.cuts = True
        places.append((grand, parent, node))
    return root, places


def _child(parent: _Node, token: str) -> _Node:
    """The node of ``parent``'s child ``token``, made when first named."""
    children = parent.children
    if children is None:
        children = parent.children = {}
    node = children.get(token)
    if node is None:
        node = children[token] = _Node()
    return node


def _find(text: str, node: _Node) -> None:
    """Find each child of ``node`` (whose start is known) in the text, and theirs."""
    pos, children = node.start, node.children
    char = text[pos]
    if char not in "{[":
        raise _Unsure
    read = plain_members(text, pos)
    node.head, node.last = read[:2], read[-1] if read else None
    if read:
        node.spread = text.find("\n", pos, read[0].start) >= 0
    if node.cuts:
        node.members = read
    if char == "[":
        node.length = len(read)
        for token, child in children.items():
            if token == "-" and not child.children:
                continue  # appended: after the last element
            if not (token.isdigit() and token.isascii() and (token == "0" or token[0] != "0")
                    and int(token) < len(read)):
                raise _Unsure  # an index missing (an append, or an error to say)
            _found(text, child, read[int(token)], int(token))
        return
    if len(children) == 1:  # (most often: one member named in each of many objects)
        [(token, child)] = children.items()
        token = _raw(token)
        for at, member in enumerate(read):
            if member.key == token:
                _found(text, child, member, at)
                return
        if child.children:
            raise _Unsure  # its parents to add
        return
    wanted = {_raw(token): child for token, child in children.items()}
    found = 0
    for at, member in enumerate(read):
        child = wanted.get(member.key)
        if child is not None:
            _found(text, child, member, at)
            found += 1
    if found < len(wanted) and any(c.children and c.start < 0 for c in children.values()):
        raise _Unsure  # parents to add


def _found(text: str, child: _Node, member: Member, at: int) -> None:
    child.start, child.end, child.at = member.vstart, member.vend, at
    if child.children:
        _find(text, child)


_SCALARS = (str, int, float, bool, type(None))
_EXACT = (str, int, bool, type(None))  # equal to JSON as to Python, within one type


class _Pass:
    """The steps made in order against the text as read. While every step so far replaced
    a scalar by a scalar (no newline, no indentation read, each place once), splices go to
    ``quick`` unchecked; the first other step moves them into ``pending``, whose checks
    every later step passes."""

    def __init__(self, doc: TextDoc, root: _Node):
        self.doc, self.text, self.root = doc, doc.text, root
        root.start = doc.root
        _find(self.text, root)
        self.quick: list[tuple[int, int, str]] = []
        self.pending: Pending | None = None
        self.cutting = False  # a step cut a member

    def _checked(self) -> Pending:
        if self.pending is None:
            self.pending = Pending()
            for splice in self.quick:
                self.pending.add(*splice)
        return self.pending

    def quick_steps(self, steps: list[tuple[str, list[str], Any]],
                    places: list[_Place]) -> list[Change]:
        """The changes of the first steps while each sets a scalar that was a scalar, read
        once (:meth:`step`'s quick way, at once); the steps after them are :meth:`step`'s."""
        changes: list[Change] = []
        text, quick, made = self.text, self.quick, Change
        encode = _encoder(self.doc.style, False).encode
        for (op, tokens, value), (_, _, node) in zip(steps, places, strict=True):
            kind, start = type(value), node.start
            if op != "set" or start < 0 or node.done or kind not in _SCALARS or \
                    text[start] in "{[":
                break
            old = _read(text, start, node.end)
            if not (old == value if kind is type(old) and kind in _EXACT else
                    json_equal(old, value)):
                new = "null" if value is None else ("true" if value else "false") \
                    if kind is bool else int.__repr__(value) if kind is int else encode(value)
                quick.append((start, node.end, _raw(new)))
                node.done = True
            changes.append(made(_pointer(tokens), old, value))
        return changes

    def step(self, op: str, tokens: list[str], value: Any, place: _Place) -> Change:
        """One step's change; its splice queued."""
        grand, parent, node = place
        if self.cutting:
            self._check_indexes(tokens)
        text, pointer = self.text, _pointer(tokens)
        if node.start < 0:  # a key the object lacks, or "-": after the array's last
            if op != "set":
                raise _Unsure  # an error to say
            outer = self.doc._multiline if parent is self.root else grand.spread
            if text[parent.start] == "{":
                _add(self.doc, text, parent, outer, tokens[-1], value, self._checked())
                return Change(pointer, None, value)
            index = parent.length - len(parent.removed or ())
            _add(self.doc, text, parent, outer, None, value, self._checked())
            parent.length += 1
            return Change(_pointer([*tokens[:-1], str(index)]), None, value)
        old = _read(text, node.start, node.end)
        if op == "remove":
            self._cut(parent, node)
            return Change(pointer, old, None)
        kind = type(value)
        if not (old == value if kind is type(old) and kind in _EXACT else json_equal(old, value)):
            start, end = node.start, node.end
            if (self.pending is None and not node.done and kind in _SCALARS
                    and text[start] not in "{["):
                self.quick.append((start, end, _raw(render(value, self.doc.style, False))))
                node.done = True
                return Change(pointer, old, value)
            pending = self._checked()
            if pending.touched(start, end) or (parent.removed and 0 in parent.removed) \
                    or not _line_clear(text, start, pending):
                raise _Unsure
            multiline = parent.spread and not _inline_container(text, start, end)
            pending.add(start, end, self.doc._value_text(value, multiline,
                                                         line_indent(text, start)))
        return Change(pointer, old, value)

    def _check_indexes(self, tokens: list[str]) -> None:
        """_Unsure where an array on the path had an element cut at or before its index:
        the index names another element now."""
        node = self.root
        for token in tokens:
            if node.least >= 0 and token != "-" and int(token) >= node.least:
                raise _Unsure
            node = node.children[token]

    def _cut(self, parent: _Node, node: _Node) -> None:
        self.cutting = True
        pending = self._checked()
        for start, end, new in _cut(self.text, parent, node, pending):
            pending.add(start, end, new)
        if parent.removed is None:
            parent.removed = set()
        parent.removed.add(node.at)
        if self.text[parent.start] == "[":
            parent.least = node.at if parent.least < 0 else min(parent.least, node.at)


_WORDS = {"true": True, "false": False, "null": None}


def _read(text: str, start: int, end: int) -> Any:
    """``read(text, start)`` of the value ``text[start:end]``, at once where it is a
    literal, a number or an ASCII string without escapes (as json's scanner makes them)."""
    first = text[start]
    if first in "tfn":
        return _WORDS[text[start:end]]
    if first == '"':
        inner = text[start + 1 : end - 1]
        if inner.isascii() and "\\" not in inner:
            return inner
    elif first not in "{[":
        number = text[start:end]
        return int(number) if number.lstrip("-").isdigit() else float(number)
    return read(text, start)


def _pointer(tokens: list[str]) -> str:
    """``to_pointer(tokens)``, at once where no token holds ``~`` or ``/``."""
    joined = "/".join(tokens)
    if "~" in joined or joined.count("/") != len(tokens) - 1:
        return to_pointer(tokens)
    return "/" + joined


def _add(doc: TextDoc, text: str, parent: _Node, outer: bool, key: str | None, value: Any,
         pending: Pending) -> None:
    """Queue the member ``key`` appended to the object ``parent`` (or ``value`` to the
    array: key None), as TextDoc.add writes it (after its last member, in the style of its
    first two; ``outer``: whether the container holding it spreads over lines)."""
    head, last, open_ = parent.head, parent.last, parent.start
    if not head:  # (a second member added to it: the first's splice touches what it reads)
        _add_first(doc, text, parent, outer, key, value, pending)
        return
    after = _HWS.match(text, last.vend).end()
    if parent.added is None:  # the first: nothing before it may touch what it reads
        if (text[after] == "," or pending.touched(open_, head[-1].vend)
                or pending.touched(last.vstart, after + 1)
                or not _line_clear(text, open_, pending)):
            raise _Unsure
    # a later one goes after the first, read as it was: only the first two members, the
    # object's line and what follows the last member (no splice but the first's there)
    elif pending.touched(open_, head[-1].vend - 1) or not _line_clear(text, open_, pending):
        raise _Unsure
    multiline = text.find("\n", open_, head[0].start) >= 0
    indent = doc._child_indent(text, open_, head)
    inline = _inline_container(text, head[0].vstart, head[0].vend)
    member = doc._member_text(text, head, key, value, multiline and not inline, indent)
    gap = doc.style.newline + indent if multiline else doc._inline_gap(text, head)
    if parent.added is None:
        parent.added = pending.add(last.vend, last.vend, "," + gap + member)
    else:
        pending.grow(parent.added, "," + gap + member)


def _add_first(doc: TextDoc, text: str, parent: _Node, outer: bool, key: str | None,
               value: Any, pending: Pending) -> None:
    """Queue the member ``key`` (or the element: None) written into the empty ``parent``."""
    open_, style = parent.start, doc.style
    close = closing(text, open_ + 1)
    if pending.touched(open_, close) or not _line_clear(text, open_, pending):
        raise _Unsure
    multiline = "\n" in text[open_:close] or (outer and style.indent is not None)
    indent = doc._child_indent(text, open_, [])
    member = doc._member_text(text, [], key, value, multiline, indent)
    inner = text[open_ + 1 : close].rstrip()
    tail = style.newline + line_indent(text, open_) if multiline else ""
    lead = style.newline + indent if multiline else ""
    pending.add(open_ + 1, close, inner + lead + member + tail)


def _cut(text: str, parent: _Node, node: _Node, pending: Pending) -> list[tuple[int, int, str]]:
    """What removing ``node`` cuts, as TextDoc.remove would in the text as it is now."""
    listed, at, removed = parent.members, node.at, parent.removed or set()
    target = listed[at]
    later = len(listed) - 1 - at  # members after it still there
    if removed:
        if min(removed) > at:
            later -= len(removed)
        elif max(removed) > at:
            raise _Unsure
    if later > 0:
        start, end, new = cut_with_next(text, target)
        reads = end if text[end - 1] == "\n" else end + 1  # the cut read the next character
        if pending.touched(start, reads - 1) or not _line_clear(text, start, pending):
            raise _Unsure
        return [(start, end, new)]
    if at and at - 1 not in removed:
        cuts = cut_last(text, listed[at - 1], target)
        if pending.touched(listed[at - 1].vend, cuts[-1][1] + 1) or not _line_clear(
                text, target.start, pending):
            raise _Unsure
        return cuts
    if at:
        raise _Unsure
    cuts = cut_only(text, parent.start, target)
    if pending.touched(parent.start, parent.end if parent.end >= 0 else len(text)):
        raise _Unsure
    return cuts


def _line_clear(text: str, pos: int, pending: Pending) -> bool:
    """Whether the line holding ``pos`` still starts, and is indented, as read up to
    ``pos`` (batch.py's check)."""
    line = text.rfind("\n", 0, pos)
    indent = _HWS.match(text, line + 1, pos).end()
    return not pending.touched(line, indent) and not pending.new_line_in(line, pos)
