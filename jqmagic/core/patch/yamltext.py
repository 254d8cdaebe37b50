"""A YAML file's text as a store: each edit is a splice of the text of the value or the
member it changes, found by the marks of the composed nodes; comments, blank lines, anchors,
document markers and every other value's text stay as they were.

Values are read from the parsed documents (kept in a :class:`TreeStore` that follows the
edits); after an edit the text is composed again, and before anything is written it must
parse to exactly the values the edits asked for, or the edit is refused (PATCH_CONFLICT).
A stream of several documents is an array of them (as ``%inspect`` shows it): ``/0/...``
is inside the first; one document is the root itself.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import yamlrender as render
from jqmagic.core.patch.jsonscan import BOM, stream_index, whole_stream
from jqmagic.core.patch.pending import Pending, apply
from jqmagic.core.patch.stores import TreeStore
from jqmagic.core.patch.textdiff import window_diff
from jqmagic.core.patch.yamlnodes import Spot, Stream
from jqmagic.core.sources.yamldocs import parse_yaml
from jqmagic.core.words import json_equal

_COMMENT = re.compile(r"(?:^|[ \t])#.*$")


class YamlDoc:
    """A YAML stream held as text, edited in place by splices."""

    def __init__(self, data: bytes, label: str = "<input>"):
        self.bom = data.startswith(BOM)
        self.label = label
        try:
            self.original = data[3 if self.bom else 0 :].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JqMagicError("INVALID_YAML", f"{label} is not UTF-8 text: {exc.reason}.",
                               "Save it as UTF-8 first; nothing was changed.") from None
        self.text = self.original
        self.stream = Stream(self.text, label)
        count = len(self.stream.nodes)
        if not count:
            raise JqMagicError("INVALID_ARGUMENT", f"{label} holds no YAML document.",
                               "Write the document first; nothing was changed.")
        self.documents = count if count > 1 else None  # several: the root is their array
        values = self.stream.values
        # its own list: a document read again is replaced in the stream's, not in the tree
        self.tree = TreeStore(list(values) if self.documents else values[0])
        self.style = render.detect(self.stream.nodes, self.text)
        self._pending: Pending | None = None  # while batching: splices not applied
        self._docs: dict[int, int] = {}  # a pending splice's start -> its document
        self._alone: dict[tuple[str, type, Any], bool] = {}  # _reads_as, known

    @contextmanager
    def batching(self) -> Iterator[YamlDoc]:
        """Steps meanwhile leave their splices pending, each located in the text as last
        applied where no pending splice touches what it reads (else they are applied
        first, in one pass, as before reading a document again and at the end): the bytes
        of the steps one by one."""
        self._pending = Pending()
        self.stream.before_refresh = self._apply  # (a cycle while batching: 1.7 s to free)
        try:
            yield self
        finally:
            self._apply()
            self._pending = self.stream.before_refresh = None

    def _apply(self) -> None:
        """Apply the pending splices (the text and the stream's offsets, once)."""
        if not self._pending:
            return
        spans = [(self._docs[at], at, end, len(new)) for at, end, new in self._pending]
        self.text = apply(self.text, self._pending)
        self.stream.replaced(spans, self.text)
        self._pending, self._docs = Pending(), {}

    # ---------------------------------------------------------------- text and checks

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def verify(self) -> None:
        """PATCH_CONFLICT unless the edited text reads back as exactly the edited values
        (read whole again, unless each edit was a scalar replaced in place and checked)."""
        values = self.stream.values
        if self.documents or self.stream.unread:
            try:
                values = Stream(self.text, self.label).values
            except JqMagicError as exc:
                raise _unkept(f"the edited text would not read back ({exc.message})") from None
        if not json_equal(values if self.documents else values[0], self.tree.root):
            raise _unkept("the edited text would read back as other values")

    def chunks(self) -> list[bytes]:
        return [BOM if self.bom else b"", self.text.encode("utf-8", "surrogatepass")]

    def diff(self, name: str, context: int = 3) -> str:
        return window_diff(self.original, self.text, name, context)

    def _splice(self, doc: int, start: int, end: int, new: str, stale: Any, *,
                checked: bool = False) -> None:
        """Replace ``text[start:end]`` in document ``doc`` (while batching: pending);
        ``stale``: the node whose text this changes, if its nodes no longer tell it;
        ``checked``: the new text was read alone (see :meth:`Stream.moved`)."""
        shared = self.stream.shared_starts(doc)
        if shared and bisect.bisect_left(shared, start) < bisect.bisect_left(shared, end):
            raise JqMagicError(
                "PATCH_CONFLICT", "The edit would change an anchor (&) that aliases (*) "
                "elsewhere refer to.", "Edit the YAML by hand there; nothing was changed.")
        if self._pending is not None:
            self._pending.add(start, end, new)
            self._docs[start] = doc
            self.stream.marked(doc, start, end, stale, checked)
            return
        self.text = self.text[:start] + new + self.text[end:]
        self.stream.moved(doc, start, end, self.text, stale, checked=checked)

    # ---------------------------------------------------------------- reading

    def get(self, tokens: list[str]) -> Any:
        if self.documents and tokens:
            stream_index(tokens, self.documents)  # past the last: its error counts them
        return self.tree.get(tokens)

    def kind(self, tokens: list[str]) -> str:
        return self.tree.kind(tokens)

    def verbatim(self, tokens: list[str]) -> Any:
        return self.tree.verbatim(tokens)

    def elements(self, tokens: list[str], needles: list[str]) -> Any:
        return self.tree.elements(tokens, needles)

    # ---------------------------------------------------------------- editing

    def replace(self, tokens: list[str], value: Any) -> None:
        """Replace the value at ``tokens`` (which must exist)."""
        self._stream_edit(tokens)
        self.tree.replace(tokens, value)
        self._replace_text(tokens, value)

    def add(self, tokens: list[str], value: Any) -> int | None:
        """RFC 6902 add: set a mapping key, or insert into a sequence; the index used."""
        if not tokens:
            self.replace(tokens, value)
            return None
        self._stream_edit(tokens[:-1])
        existed = self.tree.kind(tokens[:-1]) == "object" and tokens[-1] in self.tree.get(
            tokens[:-1])
        index = self.tree.add(tokens, value)
        if existed:
            self._replace_text(tokens, value)
            return index
        spot, _ = self.stream.spot(tokens[:-1])
        # a key added reads its mapping's lines (an item inserted may read further)
        if self._pending and (not self._is_map(spot.node) or self._pending.touched(
                self.text.rfind("\n", 0, spot.start) + 1, _line_end(self.text, spot.end))):
            self._apply()
            spot, _ = self.stream.spot(tokens[:-1])
        if self._is_map(spot.node):
            self._add_key(spot, tokens[-1], value)
        else:
            self._insert_item(spot, index, value)
        return index

    def remove(self, tokens: list[str]) -> None:
        """Remove the member at ``tokens`` with its lines (a last one leaves ``{}``/``[]``)."""
        if not tokens:
            raise JqMagicError("INVALID_ARGUMENT", "Cannot remove the whole document.")
        self._stream_edit(tokens[:-1])
        self.tree.remove(tokens)
        cut = self._read_cut(tokens)
        if cut is None:
            kind = self._is_map(self.stream.spot(tokens[:-1])[0].node)
            self._replace_text(tokens[:-1], {} if kind else [])
            return
        parent, index, start, end, _ = cut
        # the other members' nodes still tell their text (unless aliases number them)
        stale = None if self.stream.dropped(parent.node, index) else parent.node
        self._splice(parent.doc, start, end, "", stale)

    def _read_cut(self, tokens: list[str]) -> tuple[Spot, int, int, int, list] | None:
        """:meth:`_cut`, read in the text as last applied when no pending splice touches
        what it reads and its parent's other members keep telling their text; else with
        every splice applied. A pending splice that ends where the reading starts (a line
        start: only whole lines removed end there) leaves a newline before it."""
        if self._pending:
            try:
                cut = self._cut(tokens)
            except JqMagicError:  # made again on the applied text, to say why as it would
                cut = None
            if cut is not None and self.stream.drops(cut[0].node, cut[1]) and not any(
                    self._pending.touched(low + 1, high) for low, high in cut[4]):
                return cut
            self._apply()
        return self._cut(tokens)

    def _cut(self, tokens: list[str]) -> tuple[Spot, int, int, int, list] | None:
        """(parent, index, start, end, read): the text removing the member at ``tokens``
        cuts, and the spans (low, high) it reads (from ``low``, a line start in a block
        collection, whose newline before it is read too, through ``high``); None when it
        is a block collection's only member (the parent is written empty instead)."""
        parent, _ = self.stream.spot(tokens[:-1])
        target, _ = self.stream.spot(tokens)
        items = parent.node.value
        if len(items) == 1 and not parent.node.flow_style:
            return None
        index = self._index(parent, tokens[-1])
        start = self._member_start(parent, index)
        after = self._member_start(parent, index + 1) if index + 1 < len(items) else None
        text = self.text
        if parent.node.flow_style:
            if after is None:
                start = self._place(parent, index - 1).end if index else start
            cut = (start, target.end if after is None else after)
            low = cut[0]
        else:
            low = text.rfind("\n", 0, start) + 1
            # the first member, on its parent's line ("- a: 1"), goes up to the next one
            cut = (low, _line_end(text, target.end, newline=True)) if _starts_line(
                text, start) else (start, after)
        read = [(low, max(cut[1] - 1, target.end))]
        if after is not None and not self._is_map(parent.node):  # _dash read its line
            read.append((self.text.rfind("\n", 0, after) + 1,
                         self._place(parent, index + 1).start))
        return parent, index, *cut, read

    def _stream_edit(self, parent: list[str]) -> None:
        if self.documents and not parent:
            raise whole_stream(self.documents)

    # ---------------------------------------------------------------- places

    def _place(self, parent: Spot, index: int) -> Spot:
        node = parent.node
        if self._is_map(node):
            key, child = node.value[index]
            return self.stream.place(parent.doc, node, key, child)
        return self.stream.place(parent.doc, node, index, node.value[index])

    def _index(self, parent: Spot, token: str) -> int:
        """The position of the member ``token`` names (a key: its last occurrence)."""
        if not self._is_map(parent.node):
            return int(token)
        keys = self.stream.keys(parent.node)
        return len(keys) - 1 - keys[::-1].index(token)

    def _is_map(self, node: Any) -> bool:
        return self.stream.kind(node) == "object"

    def _member_start(self, parent: Spot, index: int) -> int:
        """Where a member's text begins: its key, or the ``-`` of a block sequence item."""
        node = parent.node
        if self._is_map(node):
            return self.stream.at(parent.doc, node.value[index][0].start_mark.index)
        start = self._place(parent, index).start
        if node.flow_style:
            return start
        return _dash(self.text, start)

    # ---------------------------------------------------------------- writing values

    def _replace_text(self, tokens: list[str], value: Any) -> None:
        spot, trail = self.stream.spot(tokens)
        flow = bool(trail) and trail[-1].node.flow_style
        # an edit in place reads the spot's line up to its end
        if self._pending and self._pending.touched(self.text.rfind("\n", 0, spot.start) + 1,
                                                   spot.end):
            self._apply()
            spot, trail = self.stream.spot(tokens)
        new = self._inline_text(spot, flow, value)
        if new is not None and self._in_place(spot, new, value, flow):
            self._splice(spot.doc, spot.start, spot.end, new, None, checked=True)
            self._track(spot.doc, tokens, value)
            return
        if self._pending:  # the rest reads more than the spot's line: every splice applied
            self._apply()
            spot, trail = self.stream.spot(tokens)
            new = self._inline_text(spot, flow, value)
        if flow:
            self._splice(spot.doc, spot.start, spot.end, new, spot.node)
            return
        text, style = self.text, self.style
        start, column = spot.start, _column(text, spot.start)
        keyed = spot.key is not None
        lead = trail = ""
        if start == spot.end:  # an empty value: "key:", "-" or a document with nothing
            lead = " " if text[start - 1 : start] in (":", "-") else ""
            trail = "" if text[start : start + 1] in ("", " ", "\t", "\n", "\r") else style.newline
            column += len(lead)
        if new is None:
            unit = style.seq_indent if isinstance(value, list) else style.unit
            key_at = self.stream.at(spot.doc, spot.key.start_mark.index) if keyed else start
            indent = " " * _column(text, key_at)
            indent += unit if keyed else ""
            new = render.block(value, indent, style)
            if keyed and _starts_line(text, start):
                self._put(spot, text.rfind("\n", 0, start) + 1, spot.end, indent + new)
            elif keyed:
                self._put(spot, _blank_before(text, start), spot.end,
                          style.newline + indent + new)
            else:
                self._put(spot, start, spot.end, lead + new + trail)
            return
        if keyed and _starts_line(text, start):  # a block collection under "key:"
            key_at = self.stream.at(spot.doc, spot.key.start_mark.index)
            colon = text.find(":", self.stream.at(spot.doc, spot.key.end_mark.index))
            if not text[colon + 1 : start].strip():
                self._put(spot, colon + 1, spot.end, " " + new)
            else:  # comments between: the value stays on its line, indented under the key
                indent = " " * _column(text, key_at) + style.unit
                self._put(spot, text.rfind("\n", 0, start) + 1, spot.end, indent + new)
            return
        self._put(spot, start, spot.end, lead + new + trail)

    def _inline_text(self, spot: Spot, flow: bool, value: Any) -> str | None:
        """The value's text at the spot: in a flow collection, or a scalar (None: a block
        collection to write)."""
        if flow:
            return render.flow(value) if not isinstance(value, str) else render.string(
                value, True, getattr(spot.node, "style", None))
        return None if render.is_block(value) else self._scalar_text(spot, value)

    def _in_place(self, spot: Spot, new: str, value: Any, flow: bool) -> bool:
        """Whether the new scalar replaces the old one on its line and reads alone as
        ``value`` (so the document need not be read again)."""
        node, text = spot.node, self.text
        if (spot.alias or self.stream.kind(spot.node) != "scalar" or node.style in ("|", ">")
                or isinstance(value, (dict, list)) or "\n" in new or spot.start == spot.end
                or "\n" in text[spot.start : spot.end]
                or not flow and spot.key is not None and _starts_line(text, spot.start)):
            return False
        known = (new, type(value), value)
        if known not in self._alone:
            self._alone[known] = _reads_as(new, value)
        return self._alone[known]

    def _track(self, doc: int, tokens: list[str], value: Any) -> None:
        """Set a scalar replaced in place in the values read (not read again); not in a
        document edited since it was read, whose values no longer follow the pointers (it
        is read again before writing)."""
        if doc in self.stream.unread:
            return
        holder, path = self.stream.values, tokens if self.documents else ["0", *tokens]
        for token in path[:-1]:
            holder = holder[int(token)] if isinstance(holder, list) else holder[token]
        holder[int(path[-1]) if isinstance(holder, list) else path[-1]] = value

    def _put(self, spot: Spot, start: int, end: int, new: str) -> None:
        """Splice block text; a comment after the old value moves to the end of the new
        text's first line (after a literal block's last line it would be content)."""
        line_end = _line_end(self.text, end)
        tail = self.text[end:line_end]
        if "\n" in new and tail.lstrip(" \t").startswith("#"):
            first, newline, rest = new.partition("\n")
            cr = "\r" if first.endswith("\r") else ""
            new, end = first[: len(first) - len(cr)] + tail + cr + newline + rest, line_end
        self._splice(spot.doc, start, end, new, spot.node)

    def _scalar_text(self, spot: Spot, value: Any) -> str:
        """A scalar or empty collection for this place, in the old scalar's style."""
        old = getattr(spot.node, "style", None) if spot.node.tag.endswith(":str") else None
        if not isinstance(value, str):
            return render.value_text(value, "", self.style)
        if old in ("|", ">") or ("\n" in value.rstrip("\n") and old in (None, "")):
            indent = _content_indent(self.text, spot) or (
                _line_indent(self.text, spot.start) + self.style.unit)
            block = render.literal(value, indent, self.style.newline)
            if block is not None:
                return block
            return render.double_quoted(value)
        return render.string(value, False, old)

    def _add_key(self, parent: Spot, name: str, value: Any) -> None:
        node, text, style = parent.node, self.text, self.style
        if node.flow_style:
            member = f"{render.key(name, True)}: {render.flow(value)}"
            if node.value:
                at = self._place(parent, len(node.value) - 1).end
                self._splice(parent.doc, at, at, ", " + member, parent.node)
            else:
                close = text.rfind("}", 0, parent.end)
                self._splice(parent.doc, close, close, member, parent.node)
            return
        indent = " " * _column(text, self.stream.at(parent.doc, node.value[0][0].start_mark.index))
        head = render.key(name, False) + ":"
        if render.is_block(value):
            inner = indent + (style.seq_indent if isinstance(value, list) else style.unit)
            member = head + style.newline + inner + render.block(value, inner, style)
        else:
            member = head + " " + render.value_text(value, indent + style.unit, style)
        at = _line_end(text, self._place(parent, len(node.value) - 1).end)
        self._splice(parent.doc, at, at, style.newline + indent + member, parent.node)

    def _insert_item(self, parent: Spot, index: int, value: Any) -> None:
        node, text, style = parent.node, self.text, self.style
        count = len(node.value)
        if node.flow_style:
            item = render.flow(value)
            if index < count:
                at = self._place(parent, index).start
                self._splice(parent.doc, at, at, item + ", ", parent.node)
            elif count:
                at = self._place(parent, count - 1).end
                self._splice(parent.doc, at, at, ", " + item, parent.node)
            else:
                close = text.rfind("]", 0, parent.end)
                self._splice(parent.doc, close, close, item, parent.node)
            return
        dash = self._member_start(parent, min(index, count - 1))
        inner = " " * (_column(text, dash) + 2)
        item = "- " + (render.block(value, inner, style) if render.is_block(value)
                       else render.value_text(value, inner, style))
        if index < count:
            self._splice(parent.doc, dash, dash, item + style.newline + " " * _column(text, dash),
                         parent.node)
        else:
            at = _line_end(text, self._place(parent, count - 1).end)
            self._splice(parent.doc, at, at, style.newline + " " * _column(text, dash) + item,
                         parent.node)


def _unkept(why: str) -> JqMagicError:
    return JqMagicError("PATCH_CONFLICT", f"Cannot keep the YAML's format for this edit: {why}.",
                        "Nothing was changed. Edit that part by hand, or report the file "
                        "and the edit as a bug.")


def _reads_as(text: str, value: Any) -> bool:
    """Whether ``text`` alone is a YAML document holding exactly ``value``."""
    try:
        documents = parse_yaml(text)
    except JqMagicError:
        return False
    return len(documents) == 1 and json_equal(documents[0], value)


def _column(text: str, pos: int) -> int:
    return pos - (text.rfind("\n", 0, pos) + 1)


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" "))]


def _starts_line(text: str, pos: int) -> bool:
    return not text[text.rfind("\n", 0, pos) + 1 : pos].strip(" \t")


def _blank_before(text: str, pos: int) -> int:
    """The start of the spaces just before ``pos``."""
    while pos and text[pos - 1] in " \t":
        pos -= 1
    return pos


def _line_end(text: str, pos: int, newline: bool = False) -> int:
    """The end of the line holding ``pos`` (a comment on it included): before its newline,
    or after it with ``newline``."""
    found = text.find("\n", pos)
    if found < 0:
        return len(text)
    if newline:
        return found + 1
    return found - 1 if text[found - 1] == "\r" else found


def _dash(text: str, item: int) -> int:
    """The ``-`` that opens the block sequence item starting at ``item`` (on its line, or
    on an earlier one past blank and comment lines)."""
    pos = item
    while pos > 0:
        start = text.rfind("\n", 0, pos) + 1
        head = _COMMENT.sub("", text[start:pos]) if pos < item else text[start:pos]
        if head.strip():
            head = head.rstrip()
            if not head.endswith("-"):
                break
            return start + len(head) - 1
        pos = start - 1
    raise _unkept("a sequence item is not written as '- item'")


def _content_indent(text: str, spot: Spot) -> str | None:
    """The indentation of an old block scalar's first line of content."""
    if getattr(spot.node, "style", None) not in ("|", ">"):
        return None
    for line in text[spot.start : spot.end].splitlines()[1:]:
        if line.strip():
            return line[: len(line) - len(line.lstrip(" "))]
    return None
