"""YAML documents built straight from libyaml's events, as the safe loader + JSON give them.

PyYAML's C loader composes a node per value, then its Python constructor walks the nodes
again; here one loop over the C parser's events builds the JSON values at once. Every
plain scalar is resolved and constructed by the loader's own resolver and constructor
(YAML 1.2's core schema, ``yamlschema``), once per distinct text. Merge keys follow
``SafeConstructor.flatten_mapping``; keys that are not text become text as JSON writes
them; the alias-bomb guard counts as ``yamldocs`` does. PyYAML's merge differs between its
versions where merged mappings share a key or hold a key twice (6.0.4 keeps the first by
the identity of the key's text), and in the order of a merged sequence (read from the
installed PyYAML): those mappings are left to it. Anything else (an explicit
tag, a key that is a collection, an alias bomb, a lone surrogate, an error) raises
:class:`Unusual`: the caller reads the stream with the safe loader, which says what is
wrong or gives the value.
"""

from __future__ import annotations

import gc
import re
from functools import lru_cache
from typing import Any


class Unusual(Exception):
    """The stream holds something only the safe loader itself may read."""


_MERGE = object()  # a plain ``<<`` (a merge key)
_NO_KEY = object()  # a mapping's frame waits for a key
_OPEN = object()  # an anchor whose collection is not finished
_SURROGATE = re.compile("[\ud800-\udfff]")
_GROWTH, _FLOOR = 10, 100_000  # as yamldocs' guard: expanded > max(10 x nodes, 100k)


def build_documents(text: str) -> list[Any]:
    """Every document of ``text``; :class:`Unusual` when the safe loader must read it."""
    import yaml

    from jqmagic.core.sources.yamlschema import safe_loader

    loader = safe_loader()(text)
    enabled = gc.isenabled()
    gc.disable()  # millions of new containers, no cycles: the collector only costs time
    try:
        return _Builder(loader).documents()
    except (yaml.YAMLError, TypeError, ValueError, RecursionError) as exc:
        raise Unusual(str(exc)) from None
    finally:
        if enabled:
            gc.enable()
        loader.dispose()


def _key_text(key: Any) -> str:
    """A key that is not text, as JSON writes it (``json.dumps``'s rules)."""
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if type(key) is int:
        return int.__repr__(key)
    if type(key) is float and key == key and key not in (float("inf"), float("-inf")):
        return float.__repr__(key)
    raise Unusual("a key JSON cannot write")


class _Builder:
    def __init__(self, loader: Any):
        import yaml
        from yaml import events

        self.loader = loader
        self.ev = events
        self.scalar_node = yaml.ScalarNode
        self.plain: dict[str, Any] = {}  # plain scalar text -> its value
        self.collided: set[int] = set()  # ids of mappings built with a key set twice

    def _plain(self, value: str) -> Any:
        loader = self.loader
        tag = loader.resolve(self.scalar_node, value, (True, False))
        if tag == "tag:yaml.org,2002:merge":
            return _MERGE
        construct = loader.yaml_constructors.get(tag)
        if construct is None or tag == "tag:yaml.org,2002:value":
            raise Unusual(f"a scalar tagged {tag}")
        result = construct(loader, self.scalar_node(tag, value))
        self.plain[value] = result
        return result

    def documents(self) -> list[Any]:
        ev = self.ev
        get = self.loader.get_event
        scalar_cls, alias_cls = ev.ScalarEvent, ev.AliasEvent
        map_cls, seq_cls = ev.MappingStartEvent, ev.SequenceStartEvent
        end_cls = (ev.MappingEndEvent, ev.SequenceEndEvent)
        doc_start, doc_end, stream_end = ev.DocumentStartEvent, ev.DocumentEndEvent, \
            ev.StreamEndEvent
        plain = self.plain
        missing = plain.get
        docs: list[Any] = []
        anchors: dict[str, tuple[Any, int]] = {}
        # a frame: [container, is a mapping, pending key, anchor, size, merges, odd keys,
        # pairs]
        stack: list[list[Any]] = []
        nodes = 0
        root: Any = None
        while True:
            event = get()
            cls = event.__class__
            if cls is scalar_cls:
                tag = event.tag
                if tag is not None and tag != "!":
                    raise Unusual("an explicit tag")
                text = event.value
                if event.implicit[0]:
                    value = missing(text, plain)
                    if value is plain:
                        value = self._plain(text)
                else:
                    if event.style == '"' and _SURROGATE.search(text):
                        raise Unusual("a lone surrogate")
                    value = text
                size = 1
                nodes += 1
            elif cls is map_cls or cls is seq_cls:
                if event.tag is not None and event.tag != "!":
                    raise Unusual("an explicit tag")
                nodes += 1
                is_map = cls is map_cls
                if event.anchor is not None:
                    if event.anchor in anchors:
                        raise Unusual("an anchor defined twice")
                    anchors[event.anchor] = (_OPEN, 0)  # an alias to it now: a cycle
                stack.append([{} if is_map else [], is_map, _NO_KEY, event.anchor, 1, None,
                              False, 0])
                continue
            elif cls in end_cls:
                frame = stack.pop()
                value, size = frame[0], frame[4]
                if frame[1]:
                    value = self._finish_mapping(frame)
                if frame[3] is not None:
                    anchors[frame[3]] = (value, size)
                if stack:
                    self._emit(stack, value, size)
                else:
                    root = (value, size)
                continue
            elif cls is alias_cls:
                value, size = anchors.get(event.anchor, (_OPEN, 0))
                if value is _OPEN:  # undefined, or a cycle (still open)
                    raise Unusual("an alias to no finished anchor")
                if value is _MERGE:
                    raise Unusual("an alias to a merge key")
                if not stack:
                    root = (value, size)
                else:
                    self._emit(stack, value, size)
                continue
            elif cls is doc_start:
                anchors = {}
                nodes, root = 0, None
                continue
            elif cls is doc_end:
                value, size = root if root is not None else (None, 0)
                if size > max(_GROWTH * nodes, _FLOOR):
                    raise Unusual("an alias bomb")
                docs.append(value)
                continue
            elif cls is stream_end:
                return docs
            else:  # stream start
                continue
            if event.anchor is not None:
                if event.anchor in anchors:
                    raise Unusual("an anchor defined twice")
                anchors[event.anchor] = (value, size)
            if not stack:
                if value is _MERGE:
                    raise Unusual("a merge key alone")
                root = (value, size)
                continue
            frame = stack[-1]  # the common case inline: a scalar value under a text key
            key = frame[2]
            if frame[1] and type(key) is str and value is not _MERGE:
                frame[0][key] = value
                frame[2] = _NO_KEY
                frame[4] += 1
                frame[7] += 1
            else:
                self._emit(stack, value, size)

    def _emit(self, stack: list[list[Any]], value: Any, size: int) -> None:
        frame = stack[-1]
        frame[4] += size
        if not frame[1]:
            if value is _MERGE:
                raise Unusual("a merge key in a sequence")
            frame[0].append(value)
            return
        key = frame[2]
        if key is _NO_KEY:  # this value is a key
            if value is _MERGE:
                frame[2] = _Merge
                return
            if type(value) is not str:
                hash(value)  # TypeError for a collection: the safe loader refuses it
                value = _key_text(value)  # now: `true` and `1` stay two keys
                frame[6] = True
            frame[2] = value
            return
        frame[2] = _NO_KEY
        if value is _MERGE:
            raise Unusual("a merge key as a value")
        if key is _Merge:
            if frame[5] is None:
                frame[5] = []
            frame[5].extend(_merged(value))
            return
        frame[0][key] = value
        frame[7] += 1

    def _finish_mapping(self, frame: list[Any]) -> dict:
        """Merged pairs first, then the mapping's own (later wins), keys as JSON text."""
        own, merges, odd_keys = frame[0], frame[5], frame[6]
        collided = frame[7] != len(own)
        if odd_keys:
            if merges is not None:
                raise Unusual("keys that are not text beside a merge key")
        elif merges is not None:
            result: dict = {}
            for merged in merges:
                if id(merged) in self.collided:
                    raise Unusual("a merged mapping that holds a key twice")
                result.update(merged)
            if len(result) != sum(map(len, merges)):
                raise Unusual("merged mappings that share a key")
            size = len(result) + len(own)
            result.update(own)
            own, collided = result, collided or len(result) != size
        if collided:
            self.collided.add(id(own))
        return own


class _Merge:
    """The pending key of a frame is a merge key (a class: never a YAML value)."""


def _merged(value: Any) -> list[dict]:
    """The mappings a merge key's value brings, in the installed PyYAML's order."""
    if type(value) is dict:
        return [value]
    if type(value) is list and all(type(v) is dict for v in value):
        return value if _sequence_order() else value[::-1]
    raise Unusual("a merge key that is not a mapping or mappings")


@lru_cache(maxsize=1)
def _sequence_order() -> bool:
    """Whether the installed PyYAML merges ``<<: [*a, *b]`` in sequence order (6.0.4)
    rather than reversed (6.0.2 and before): the key order of the merged mapping."""
    import yaml

    probe = yaml.load("a: &a {x: 1}\nb: &b {y: 2}\nc: {<<: [*a, *b]}\n",
                      Loader=yaml.SafeLoader)
    return list(probe["c"]) == ["x", "y"]
