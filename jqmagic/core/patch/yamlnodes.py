"""A YAML stream read for editing: each document's node graph with the offsets of its nodes
(aliases at their own place), the value JSON holds, and the paths an edit may not take."""

from __future__ import annotations

import bisect
import json
from typing import Any, NamedTuple

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.jsonscan import array_index, missing_key, not_container
from jqmagic.core.pointers import to_pointer
from jqmagic.core.sources.formats import dumps
from jqmagic.core.sources.yamldocs import compose_yaml


def _recording_loader(aliases: dict, merged: dict) -> type:
    """A safe loader that composes in Python (over the C parser when there is one) and
    records in ``aliases`` where each alias is written (a plain composer gives an alias the
    node, and with it the place, of its anchor), and in ``merged`` the mappings with a
    merge key (``<<``; building the value rewrites their nodes)."""
    import yaml
    from yaml.composer import Composer
    from yaml.events import AliasEvent

    try:
        from yaml._yaml import CParser
    except ImportError:  # pragma: no cover - PyYAML without libyaml
        bases: tuple = (yaml.SafeLoader,)
    else:
        bases = (Composer, CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver)

    class Loader(*bases):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            if bases[0] is yaml.SafeLoader:
                yaml.SafeLoader.__init__(self, stream)
                return
            CParser.__init__(self, stream)
            Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

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


class Stream:
    """The documents of a YAML text; after an edit only the document it falls in is
    composed again (the later ones are shifted when next used)."""

    def __init__(self, text: str, label: str):
        import yaml

        self._yaml = yaml
        self.label = label
        self.text = text
        self.aliases: dict[tuple[int, Any], list] = {}  # slot -> [start, end, parent]
        self.merged: dict[int, Any] = {}  # mappings with a merge key, by id
        self.nodes, self.values, self.shared = self._compose(text)
        self._shift = [0] * len(self.nodes)  # not yet added to a document's marks
        self._keys: dict[int, tuple[Any, list[str]]] = {}

    def _compose(self, text: str) -> tuple[list[Any], list[Any], list[dict[int, Any]]]:
        plain = "&" not in text and "<<" not in text
        documents = compose_yaml(
            text, self.label, None if plain else _recording_loader(self.aliases, self.merged))
        nodes = [node for node, _ in documents]
        shared = [_shared(node) if self.aliases else {} for node in nodes]
        return nodes, [value for _, value in documents], shared

    def edited(self, start: int, text: str) -> None:
        """Take the new ``text``, changed from ``start`` on inside one document."""
        delta, count = len(text) - len(self.text), len(self.nodes)
        starts = [node.start_mark.index + shift for node, shift in zip(self.nodes, self._shift,
                                                                         strict=True)]
        doc = max(bisect.bisect_right(starts, start) - 1, 0)
        first = self._region(doc, starts)
        last = self._region(doc + 1, starts) + delta if doc + 1 < count else len(text)
        self.text = text
        for later in range(doc + 1, count):
            self._shift[later] += delta
        pad = " " * (first - 1) + "\n" if first else ""  # keeps offsets as in ``text``
        try:
            nodes, values, shared = self._compose(pad + text[first:last])
        except JqMagicError:
            nodes = []
        if len(nodes) != 1:  # a directive or marker moved: compose it all
            self.nodes, self.values, self.shared = self._compose(text)
            self._shift = [0] * len(self.nodes)
            return
        self.nodes[doc], self.values[doc], self.shared[doc] = nodes[0], values[0], shared[0]
        self._shift[doc] = 0

    def _region(self, doc: int, starts: list[int]) -> int:
        """Where a document's text begins: the line of its ``---`` (0 for the first)."""
        if doc == 0:
            return 0
        return self.text.rfind("\n---", 0, starts[doc]) + 1

    def document(self, index: int) -> Any:
        """A document's root node, its marks brought up to date."""
        shift = self._shift[index]
        if shift:
            _shift_marks(self.nodes[index], shift, self.aliases)
            self._shift[index] = 0
        return self.nodes[index]

    def spot(self, tokens: list[str]) -> tuple[Spot, list[Spot]]:
        """The node at ``tokens`` (the first token picks the document when the stream has
        several), with the spots of its ancestors; refuses a walk through an alias or an
        anchor that aliases share, and such an anchor itself."""
        path, index = tokens, 0
        if len(self.nodes) != 1:
            if not tokens:
                raise whole_stream()
            index, path = array_index(tokens, 0, len(self.nodes)), tokens[1:]
        node = self.document(index)
        shared = self.shared[index]
        here = Spot(node, node.start_mark.index, _end(node, self.aliases, self.text), False)
        trail = []
        for depth, token in enumerate(path, start=len(tokens) - len(path)):
            _check_own(here, tokens[:depth], shared)
            trail.append(here)
            here = self._child(here.node, tokens, depth, token)
        if not here.alias:  # an alias itself may go: its text "*name" is its own
            _check_own(here, tokens, shared)
        return here, trail

    def shared_starts(self, start: int) -> list[int]:
        """Where the anchored nodes that aliases refer to begin, in the document that
        holds ``start``, in order."""
        for index, node in enumerate(self.nodes):
            self.document(index)
            if node.start_mark.index <= start <= _end(node, self.aliases, self.text):
                return sorted(n.start_mark.index for n in self.shared[index].values())
        return []

    def _child(self, node: Any, tokens: list[str], depth: int, token: str) -> Spot:
        yaml = self._yaml
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
            return self.place(node, key, child)
        if isinstance(node, yaml.SequenceNode):
            index = array_index(tokens, depth, len(node.value))
            return self.place(node, index, node.value[index])
        raise not_container(tokens, depth, self.kind(node))

    def place(self, parent: Any, slot: Any, child: Any) -> Spot:
        """Where ``child`` (the value under ``slot``, a key node or an index) is written."""
        alias = _alias(self.aliases, parent, slot)
        key = None if isinstance(slot, int) else slot
        if alias is not None:
            return Spot(child, alias[0], alias[1], True, key)
        return Spot(child, child.start_mark.index, _end(child, self.aliases, self.text), False,
                    key)

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
        value = yaml.constructor.SafeConstructor().construct_object(key, deep=True)
        return next(iter(json.loads(dumps({value: None}))))

    def kind(self, node: Any) -> str:
        yaml = self._yaml
        if isinstance(node, yaml.MappingNode):
            return "object"
        if isinstance(node, yaml.SequenceNode):
            return "array"
        return "scalar"


def _check_own(spot: Spot, tokens: list[str], shared: dict[int, Any]) -> None:
    """PATCH_CONFLICT for a node that aliases share: its text is not only this value."""
    if spot.alias or shared.get(id(spot.node)) is spot.node:
        raise JqMagicError(
            "PATCH_CONFLICT", f"Cannot edit {to_pointer(tokens) or 'the document'}: "
            "it is an anchor (&) or alias (*) that other places of the YAML share.",
            "Edit the YAML by hand there, or write the value out in full instead of "
            "the alias; nothing was changed.")


def whole_stream() -> JqMagicError:
    """The error for an edit of the stream itself (adding or removing documents)."""
    return JqMagicError(
        "INVALID_ARGUMENT", "Cannot replace, add or remove the documents of a YAML stream.",
        "Its documents are /0, /1, ...: edit inside one of them.")


def _end(node: Any, aliases: dict, text: str) -> int:
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
            return alias[1]
        node = child
    end = node.end_mark.index
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        return block_scalar_end(text, node.start_mark.index, end)
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
