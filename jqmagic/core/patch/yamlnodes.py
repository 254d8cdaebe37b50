"""A YAML stream read for editing: each document's node graph with the offsets of its nodes
(aliases at their own place), the value JSON holds, and the paths an edit may not take."""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jsonscan import array_index, missing_key, not_container, whole_stream
from jqmagic.core.pointers import to_pointer
from jqmagic.core.sources.formats import dumps
from jqmagic.core.sources.yamldocs import compose_yaml


def _recording_loader(aliases: dict, merged: dict) -> type:
    """A safe loader that composes in Python (over the C parser when there is one) and
    records in ``aliases`` where each alias is written (a plain composer gives an alias the
    node, and with it the place, of its anchor), and in ``merged`` the mappings with a
    merge key (``<<``; building the value rewrites their nodes)."""
    from yaml.composer import Composer
    from yaml.events import AliasEvent

    from jqmagic.core.sources import yamlschema

    core = yamlschema.safe_loader()
    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML without libyaml
        bases: tuple = (core,)
    else:
        bases = (Composer, CParser, yamlschema.constructor(), yamlschema.resolver())

    class Loader(*bases):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            if bases[0] is core:
                core.__init__(self, stream)
                return
            CParser.__init__(self, stream)
            Composer.__init__(self)
            bases[2].__init__(self)
            bases[3].__init__(self)

        def compose_node(self, parent: Any, index: Any) -> Any:
            if not self.check_event(AliasEvent):
                return super().compose_node(parent, index)
            event = self.peek_event()
            node = super().compose_node(parent, index)
            aliases[_slot(parent, index)] = [event.start_mark.index, event.end_mark.index,
                                             parent]
            return node

        def flatten_mapping(self, node: Any) -> None:
            if any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value):
                merged[id(node)] = node
            super().flatten_mapping(node)

    return Loader


def _slot(parent: Any, index: Any) -> tuple[int, Any]:
    """A child's place in its parent: (parent, position in a sequence or key node)."""
    return id(parent), index if index is None or isinstance(index, int) else id(index)


class Spot(NamedTuple):
    """A node where the pointer put it: its node, where its text is, and how it got there."""

    node: Any
    start: int
    end: int
    alias: bool  # written as *alias here: its text is elsewhere
    key: Any = None  # the key node, for a mapping's value
    doc: int = 0  # the document it is in


class Stream:
    """The documents of a YAML text; after an edit only the document it falls in is
    composed again (the later ones are shifted when next used), and after a scalar replaced
    by a scalar on its line (checked alone) none is: offsets after it move (:meth:`at`)."""

    def __init__(self, text: str, label: str):
        import yaml

        self._yaml = yaml
        self.label = label
        self.text = text
        self.aliases: dict[tuple[int, Any], list] = {}  # slot -> [start, end, parent]
        self.merged: dict[int, Any] = {}  # mappings with a merge key, by id
        self.nodes, self.values, self.shared = self._compose(text)
        self._shift = [0] * len(self.nodes)  # not yet added to a document's marks
        self._moves: list[tuple[list[int], list[int]]] = [([], []) for _ in self.nodes]
        self._stale = [_Stale() for _ in self.nodes]
        self.unread: set[int] = set()  # documents edited since they were last read
        self.stale_docs: set[int] = set()  # documents with stale nodes (see :meth:`moved`)
        self.before_refresh: Callable[[], None] | None = None  # edits waiting to be applied
        self._keys: dict[int, tuple[Any, list[str]]] = {}

    def _compose(self, text: str) -> tuple[list[Any], list[Any], list[dict[int, Any]]]:
        plain = "&" not in text and "<<" not in text
        documents = compose_yaml(
            text, self.label, None if plain else _recording_loader(self.aliases, self.merged))
        nodes = [node for node, _ in documents]
        shared = [_shared(node) if self.aliases else {} for node in nodes]
        return nodes, [value for _, value in documents], shared

    def at(self, doc: int, offset: int) -> int:
        """Where an offset of ``doc``'s marks is in the text now (after scalars that were
        replaced in place: :meth:`moved`)."""
        ends, sums = self._moves[doc]
        if not ends:
            return offset
        found = bisect.bisect_right(ends, offset)
        return offset + (sums[found - 1] if found else 0)

    def offset(self, doc: int, pos: int) -> int:
        """The mark offset of ``doc`` that is at ``pos`` in the text now (see :meth:`at`)."""
        ends, sums = self._moves[doc]
        found = bisect.bisect_right(range(len(ends)), pos, key=lambda i: ends[i] + sums[i])
        return pos - (sums[found - 1] if found else 0)

    def moved(self, doc: int, start: int, end: int, text: str, stale: Any = None, *,
              checked: bool = False) -> None:
        """Take the new ``text``, where ``text[start:end]`` of document ``doc`` (offsets in
        the text before) was replaced: later offsets move by the change of length. ``stale``:
        the node whose own nodes no longer tell its text; a walk through it, or an edit near
        it, reads ``doc`` again. ``checked``: the new text was read alone (a scalar replaced
        in place), so ``doc`` need not be read again before writing."""
        self.marked(doc, start, end, stale, checked)
        self._take(text, [(doc, self.offset(doc, end), len(text) - len(self.text))])

    def marked(self, doc: int, start: int, end: int, stale: Any, checked: bool) -> None:
        """What replacing ``text[start:end]`` of ``doc`` leaves to read again (see
        :meth:`moved`; the text not taken yet)."""
        if stale is not None:
            self._stale[doc].add(min(self.offset(doc, start), stale.start_mark.index),
                                 max(self.offset(doc, end), stale.end_mark.index), stale)
            self.stale_docs.add(doc)
        if not checked:
            self.unread.add(doc)

    def replaced(self, spans: list[tuple[int, int, int, int]], text: str) -> None:
        """Take the new ``text``, where each span ``(doc, start, end, length)`` of the text
        before (apart, in order) was replaced by ``length`` characters, as :meth:`moved`
        takes them one at a time (none stale; the caller marks ``unread``)."""
        self._take(text, [(doc, self.offset(doc, end), length - (end - start))
                          for doc, start, end, length in spans])

    def _take(self, text: str, marks: list[tuple[int, int, int]]) -> None:
        """Take the new ``text``, each ``(doc, mark, delta)`` (in order of place) moving
        the offsets of ``doc`` from ``mark`` on, and the later documents', by ``delta``."""
        self.text = text
        by_doc: dict[int, list[tuple[int, int]]] = {}
        for doc, mark, delta in marks:
            by_doc.setdefault(doc, []).append((mark, delta))
        total = 0
        for doc in range(min(by_doc), len(self.nodes)):
            self._shift[doc] += total
            moves = by_doc.get(doc)
            if moves:
                total += sum(delta for _, delta in moves)
                self._add_moves(doc, moves)

    def _add_moves(self, doc: int, moves: list[tuple[int, int]]) -> None:
        ends, sums = self._moves[doc]
        if not ends or moves[0][0] > ends[-1]:  # edits come in order: append
            for mark, delta in moves:
                ends.append(mark)
                sums.append((sums[-1] if sums else 0) + delta)
            return
        # two sorted runs merged; a new end after the equal ones there (bisect_right's)
        steps = (b - a for a, b in zip([0, *sums], sums, strict=False))
        merged = sorted([*((mark, 0, n, delta) for n, (mark, delta) in enumerate(zip(
            ends, steps, strict=False))), *((mark, 1, n, delta) for n, (mark, delta) in
                                            enumerate(moves))])
        ends[:] = [move[0] for move in merged]
        sums[:] = list(itertools.accumulate(move[3] for move in merged))

    def drops(self, parent: Any, index: int) -> bool:
        """Whether the other members' nodes still tell their text once the member
        ``index`` of ``parent`` is removed: not when aliases number a sequence's members,
        nor when a block collection's first member goes (its start with it)."""
        return not (isinstance(parent, self._yaml.SequenceNode) and self.aliases) and (
            index != 0 or parent.flow_style)

    def dropped(self, parent: Any, index: int) -> bool:
        """Take out the member ``index`` of ``parent`` whose text was removed, if
        :meth:`drops`; else False: ``parent`` is to be read again."""
        if not self.drops(parent, index):
            return False
        del parent.value[index]
        self._keys.pop(id(parent), None)
        return True

    def refresh(self, doc: int) -> None:
        """Compose document ``doc`` again from the text now (INVALID_YAML if it broke)."""
        if self.before_refresh is not None:
            self.before_refresh()
        count = len(self.nodes)
        first = self._region(doc)
        last = self._region(doc + 1) if doc + 1 < count else len(self.text)
        pad = " " * (first - 1) + "\n" if first else ""  # keeps offsets as in the text
        try:
            nodes, values, shared = self._compose(pad + self.text[first:last])
        except JqMagicError:
            nodes = []
        if len(nodes) != 1:  # a directive or marker moved: compose it all
            self.nodes, self.values, self.shared = self._compose(self.text)
            self._shift = [0] * len(self.nodes)
            self._moves = [([], []) for _ in self.nodes]
            self._stale = [_Stale() for _ in self.nodes]
            self.unread.clear()
            self.stale_docs.clear()
            return
        self.nodes[doc], self.values[doc], self.shared[doc] = nodes[0], values[0], shared[0]
        self._shift[doc] = 0
        self._moves[doc] = ([], [])
        self._stale[doc] = _Stale()
        self.unread.discard(doc)
        self.stale_docs.discard(doc)

    def _touches_stale(self, spot: Spot) -> bool:
        """Whether an edit at ``spot`` would use nodes that no longer tell the text."""
        stale = self._stale[spot.doc]
        if not stale.starts:
            return False
        if spot.alias:
            return stale.touches(self.offset(spot.doc, spot.start),
                                 self.offset(spot.doc, spot.end))
        return stale.touches(spot.node.start_mark.index, spot.node.end_mark.index)

    def _region(self, doc: int) -> int:
        """Where a document's text begins: the line of its ``---`` (0 for the first)."""
        if doc == 0:
            return 0
        start = self.at(doc, self.nodes[doc].start_mark.index) + self._shift[doc]
        return self.text.rfind("\n---", 0, start) + 1

    def document(self, index: int) -> Any:
        """A document's root node, its marks brought up to date."""
        shift = self._shift[index]
        if shift:
            _shift_marks(self.nodes[index], shift, self.aliases)
            self._shift[index] = 0
            ends = self._moves[index][0]
            ends[:] = [end + shift for end in ends]
            self._stale[index].shift(shift)
        return self.nodes[index]

    def spot(self, tokens: list[str]) -> tuple[Spot, list[Spot]]:
        """The node at ``tokens`` (the first token picks the document when the stream has
        several), with the spots of its ancestors; refuses a walk through an alias or an
        anchor that aliases share, and such an anchor itself."""
        path, index = tokens, 0
        if len(self.nodes) != 1:
            if not tokens:
                raise whole_stream(len(self.nodes))
            index, path = array_index(tokens, 0, len(self.nodes)), tokens[1:]
        node = self.document(index)
        shared = self.shared[index]
        here = Spot(node, self.at(index, node.start_mark.index), self.end(index, node), False,
                    None, index)
        trail = []
        stale = self._stale[index].nodes
        for depth, token in enumerate(path, start=len(tokens) - len(path)):
            _check_own(here, tokens[:depth], shared)
            if id(here.node) in stale:  # its members changed: read them again
                self.refresh(index)
                return self.spot(tokens)
            trail.append(here)
            here = self._child(here, tokens, depth, token)
        if self._touches_stale(here):
            self.refresh(index)
            return self.spot(tokens)
        if not here.alias:  # an alias itself may go: its text "*name" is its own
            _check_own(here, tokens, shared)
        return here, trail

    def shared_starts(self, doc: int) -> list[int]:
        """Where the anchored nodes that aliases refer to begin in ``doc``, in order."""
        return sorted(self.at(doc, n.start_mark.index) for n in self.shared[doc].values())

    def end(self, doc: int, node: Any) -> int:
        """Where the node's own text ends now (see :func:`_end`)."""
        return _end(node, self.aliases, self.text, lambda offset: self.at(doc, offset))

    def _child(self, parent: Spot, tokens: list[str], depth: int, token: str) -> Spot:
        yaml, node = self._yaml, parent.node
        if isinstance(node, yaml.MappingNode):
            if self.merged.get(id(node)) is node:
                where = to_pointer(tokens[:depth]) or "the document"
                raise JqMagicError(
                    "PATCH_CONFLICT", f"Cannot edit below {where}: that mapping merges "
                    "another one (<<).", "Edit the YAML by hand there; nothing was changed.")
            keys = self.keys(node)
            if token not in keys:
                raise missing_key(tokens, depth, keys)
            index = len(keys) - 1 - keys[::-1].index(token)  # the last duplicate wins
            key, child = node.value[index]
            return self.place(parent.doc, node, key, child)
        if isinstance(node, yaml.SequenceNode):
            index = array_index(tokens, depth, len(node.value))
            return self.place(parent.doc, node, index, node.value[index])
        raise not_container(tokens, depth, self.kind(node))

    def place(self, doc: int, parent: Any, slot: Any, child: Any) -> Spot:
        """Where ``child`` (the value under ``slot``, a key node or an index) is written."""
        alias = _alias(self.aliases, parent, slot)
        key = None if isinstance(slot, int) else slot
        if alias is not None:
            return Spot(child, self.at(doc, alias[0]), self.at(doc, alias[1]), True, key, doc)
        return Spot(child, self.at(doc, child.start_mark.index), self.end(doc, child), False,
                    key, doc)

    def keys(self, node: Any) -> list[str]:
        """A mapping's keys as JSON holds them."""
        known = self._keys.get(id(node))
        if known is None or known[0] is not node:  # a node composed again may reuse an id
            known = self._keys[id(node)] = (node, [self._key(key) for key, _ in node.value])
        return known[1]

    def _key(self, key: Any) -> str:
        yaml = self._yaml
        if not isinstance(key, yaml.ScalarNode):
            return "\0complex"  # a pointer cannot name it
        if key.tag == "tag:yaml.org,2002:str":
            return key.value
        from jqmagic.core.sources.yamlschema import constructor

        value = constructor()().construct_object(key, deep=True)  # as the reader reads it
        return next(iter(json.loads(dumps({value: None}))))

    def kind(self, node: Any) -> str:
        yaml = self._yaml
        if isinstance(node, yaml.MappingNode):
            return "object"
        if isinstance(node, yaml.SequenceNode):
            return "array"
        return "scalar"


class _Stale:
    """The spans (mark offsets) of nodes whose own nodes no longer tell their text."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.reach: list[int] = []  # the furthest end among the spans up to each one
        self.nodes: dict[int, Any] = {}

    def add(self, start: int, end: int, node: Any) -> None:
        self.nodes[id(node)] = node
        if not self.starts or start >= self.starts[-1]:  # edits come in order: append
            self.starts.append(start)
            self.reach.append(max(end, self.reach[-1] if self.reach else end))
            return
        # a reach stands for its span's end: wider, and only overlap is asked
        spans = sorted([*zip(self.starts, self.reach, strict=True), (start, end)])
        self.starts = [a for a, _ in spans]
        self.reach = list(itertools.accumulate((b for _, b in spans), max))

    def touches(self, low: int, high: int) -> bool:
        """Whether any span overlaps [low, high]."""
        found = bisect.bisect_right(self.starts, high)
        return bool(found) and self.reach[found - 1] >= low

    def shift(self, by: int) -> None:
        self.starts = [start + by for start in self.starts]
        self.reach = [end + by for end in self.reach]


def _check_own(spot: Spot, tokens: list[str], shared: dict[int, Any]) -> None:
    """PATCH_CONFLICT for a node that aliases share: its text is not only this value."""
    if spot.alias or shared.get(id(spot.node)) is spot.node:
        raise JqMagicError(
            "PATCH_CONFLICT", f"Cannot edit {to_pointer(tokens) or 'the document'}: "
            "it is an anchor (&) or alias (*) that other places of the YAML share.",
            "Edit the YAML by hand there, or write the value out in full instead of "
            "the alias; nothing was changed.")


def _end(node: Any, aliases: dict, text: str, at: Callable[[int], int]) -> int:
    """Where the node's own text ends: a block collection ends with its last child (its
    end mark is at the next token, past comments); a block scalar with its last line."""
    import yaml

    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        if not node.value:
            break
        if isinstance(node, yaml.MappingNode):
            slot, child = node.value[-1]
        else:
            child, slot = node.value[-1], len(node.value) - 1
        alias = _alias(aliases, node, slot)
        if alias is not None:
            return at(alias[1])
        node = child
    end = at(node.end_mark.index)
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        return block_scalar_end(text, at(node.start_mark.index), end)
    return end


def block_scalar_end(text: str, start: int, end: int) -> int:
    """The end of a block scalar's last non-blank line (its span runs on over blank lines)."""
    last = len(text[start:end].rstrip()) + start
    newline = text.find("\n", last, end)
    if newline < 0:
        return end
    return newline - 1 if text[newline - 1] == "\r" else newline


def _alias(aliases: dict, parent: Any, slot: Any) -> list | None:
    """[start, end, parent] of the alias written under ``slot`` of ``parent``, if any."""
    found = aliases.get(_slot(parent, slot)) if aliases else None
    return found if found is not None and found[2] is parent else None


def _children(node: Any) -> list[tuple[Any, Any]]:
    """(slot, child) of a mapping (values under their key nodes; keys under None) or a
    sequence (under their index)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [pair for key, value in node.value for pair in ((None, key), (key, value))]
    if isinstance(node, yaml.SequenceNode):
        return list(enumerate(node.value))
    return []


def _shift_marks(root: Any, shift: int, aliases: dict) -> None:
    """Move every mark of a document (and of the aliases written in it) by ``shift``."""
    from yaml.error import Mark

    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for name in ("start_mark", "end_mark"):
            mark = getattr(node, name)
            setattr(node, name, Mark(mark.name, mark.index + shift, mark.line, mark.column,
                                     None, None))
        for slot, child in _children(node):
            alias = _alias(aliases, node, slot)
            if alias is not None:
                alias[0] += shift
                alias[1] += shift
            else:
                stack.append(child)


def _shared(root: Any) -> dict[int, Any]:
    """The nodes reached more than once (anchored nodes that aliases refer to), by id."""
    seen: set[int] = set()
    shared: dict[int, Any] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            shared[id(node)] = node
            continue
        seen.add(id(node))
        stack.extend(child for _, child in _children(node))
    return shared
