"""The schema tree's model: a document's merged shape as rows (opened nodes, a window of
them), search over keys and values, and each node's jq path and JSON Pointer.

Node ids are jq paths that work in ``%jq`` on the same source: a source of several
inputs (JSON Lines, a multi-document YAML file, a glob) is a stream to jq, so its root is
one input (``.kind``, never ``.[].kind``).
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.pointers import jq_step
from jqmagic.core.shape.node import Limits, Node

OTHER_KEYS = "<other keys>"
MAX_KEYS = 200_000  # keys of one object the tree tracks (past that: one <other keys> node)
SEARCH_HITS = 200
SEARCH_SECONDS = 2.0


def build(value: Any, inputs: bool) -> Node:
    """The merged shape (with profiles) of ``value``; of each input when ``inputs``."""
    root = Node(Limits(stats=True, max_keys=MAX_KEYS))
    if inputs:
        root.see_array(len(value))
        for item in value:
            root.items_node().add(item)
        return root.items_node()
    root.add(value)
    return root


@dataclass
class Entry:
    """A node of the merged shape and how it is reached."""

    node: Node
    parent: str | None  # id of the parent, None for the root
    step: str | None  # key, or None for "[]"
    depth: int


def _short(value: Any, width: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


def _range(low: int | None, high: int | None) -> str:
    return str(high) if low == high else f"{low}..{high}"


class Tree:
    """Rows of a merged shape: which nodes are open, which rows show, what a search finds.

    ``value`` is the parsed document when it is in memory (pointers to real elements and
    search over values), None when it was streamed (search over keys and samples).
    """

    def __init__(self, node: Node, *, value: Any = None, inputs: bool = False,
                 root_jq: str = ".", root_pointer: str = "") -> None:
        self.root = root_jq
        self.value, self.inputs, self.root_pointer = value, inputs, root_pointer
        self.entries: dict[str, Entry] = {root_jq: Entry(node, None, None, 0)}
        self.opened: set[str] = {root_jq}
        # a search's trail: the ancestors of its hits, which show only the way to them
        self.trail: set[str] = set()
        self.hits: set[str] = set()
        self._kids: dict[str, list[str]] = {}
        self._flat: list[str] | None = None

    # -- structure -------------------------------------------------------------------------
    def children(self, key: str) -> list[str]:
        """The ids of the children of ``key`` (registered on first use)."""
        if key in self._kids:
            return self._kids[key]
        entry = self.entries[key]
        node, base = entry.node, "" if key == "." else key
        found = []
        for name, child in (node.keys or {}).items():
            found.append(self._register(jq_step(base, name), child, key, name))
        if node.extra is not None:
            found.append(self._register(f"{base}.{OTHER_KEYS}", node.extra, key, OTHER_KEYS))
        if node.items is not None and node.items.count:
            found.append(self._register(jq_step(base, None), node.items, key, None))
        self._kids[key] = found
        return found

    def _register(self, key: str, node: Node, parent: str, step: str | None) -> str:
        if key not in self.entries:
            self.entries[key] = Entry(node, parent, step, self.entries[parent].depth + 1)
        return key

    def find(self, key: str) -> str:
        """``key`` registered by walking down from the root; NOT_FOUND if it is no node."""
        if key in self.entries:
            return key
        queue = [self.root]
        while queue:
            here = queue.pop()
            for child in self.children(here):
                if child == key:
                    return key
                if key.startswith(child if child != "." else ""):
                    queue.append(child)
        raise JqMagicError("NOT_FOUND", f"No node {key} in this shape.",
                           f"Nodes are jq paths such as {self.root}.")

    def ancestors(self, key: str) -> list[str]:
        out, parent = [], self.entries[key].parent
        while parent is not None:
            out.append(parent)
            parent = self.entries[parent].parent
        return out

    def has_children(self, key: str) -> bool:
        node = self.entries[key].node
        return bool(node.keys or node.extra or (node.items and node.items.count))

    # -- rows ------------------------------------------------------------------------------
    def changed(self) -> None:
        """Forget the visible rows (after opening, closing or searching)."""
        self._flat = None

    def flat(self) -> list[str]:
        """The ids of the visible rows in order: the children of open nodes (a search's
        trail shows only the way to its hits)."""
        if self._flat is None:
            out: list[str] = []
            stack = [self.root]
            while stack:
                key = stack.pop()
                out.append(key)
                if key in self.opened:
                    kids = self.children(key)
                    if key in self.trail:  # a node opened by hand shows every child
                        kids = [k for k in kids if k in self.trail or k in self.hits]
                    stack.extend(reversed(kids))
            self._flat = out
        return self._flat

    def row(self, key: str, index: int) -> dict:
        """What the view shows of one row."""
        entry = self.entries[key]
        node = entry.node
        name = key if entry.parent is None else "[]" if entry.step is None else entry.step
        size = ""
        if node.keys is not None:
            n = len(node.keys) + node.extra_count
            size = f"{{{n:,} key{'s' * (n != 1)}}}"
        if node.len_max is not None:
            size = f"[{_range(node.len_min, node.len_max)}]"
        presence = ""
        parent = self.entries[entry.parent].node if entry.parent else None
        if parent is not None and entry.step is not None and node.count < parent.objects:
            presence = f"{node.count:,}/{parent.objects:,}"
        sample = ""
        if node.profile is not None and node.profile.samples and not size:
            sample = _short(next(iter(node.profile.samples)))
        return {"i": index, "id": key, "depth": entry.depth, "name": name,
                "type": node.type_str(), "size": size, "presence": presence, "sample": sample,
                "open": key in self.opened, "kids": self.has_children(key),
                "parent": entry.parent or ""}

    def rows(self, start: int, count: int) -> list[dict]:
        flat = self.flat()
        return [self.row(k, i) for i, k in enumerate(flat[start:start + count], start)]

    # -- paths and details -----------------------------------------------------------------
    def steps(self, key: str) -> list[str | None]:
        out: list[str | None] = []
        while self.entries[key].parent is not None:
            out.append(self.entries[key].step)
            key = self.entries[key].parent  # type: ignore[assignment]
        return out[::-1]

    def pointer(self, key: str) -> tuple[str, int | None]:
        """A JSON Pointer to the first value at ``key`` (indices for ``[]``), and in a
        source of several inputs the number of the input it is in (from 1)."""
        steps = self.steps(key)
        if self.value is None or OTHER_KEYS in steps:
            tokens = ["*" if s is None else s for s in steps]
            return self.root_pointer + _pointer(tokens), None
        found = _first(self.value, [None, *steps] if self.inputs else steps)
        if found is None:
            return self.root_pointer, None
        if self.inputs:
            return self.root_pointer + _pointer(found[1:]), int(found[0]) + 1
        return self.root_pointer + _pointer(found), None

    def details(self, key: str) -> list[list[str]]:
        """Label/value pairs describing node ``key``."""
        entry = self.entries[key]
        node = entry.node
        pointer, document = self.pointer(key)
        rows = [["JSON Pointer", pointer or "(the root)"]]
        if document is not None:
            rows.append(["input", f"number {document} of {self.entries[self.root].node.count}"])
        jq = key if OTHER_KEYS not in key else "(keys past the tracked ones: no jq path)"
        rows += [["jq path", jq],
                 ["types", ", ".join(f"{t} ({node.types[t]:,})" for t in node.type_names())]]
        parent = self.entries[entry.parent].node if entry.parent else None
        if parent is not None and entry.step is not None:
            rows.append(["present in", f"{node.count:,} of {parent.objects:,} objects"])
        elif parent is not None:
            rows.append(["elements", f"{node.count:,}"])
        if node.len_max is not None:
            rows.append(["array length", _range(node.len_min, node.len_max)])
        if node.profile is not None:
            stats = node.profile.to_dict()
            if set(node.types) - {"object", "array", "null"}:
                rows.append(["distinct", f"{stats['distinct']:,}"
                             + (" (estimated)" if stats.get("distinctEstimated") else "")])
            for name in ("min", "max", "minLength", "maxLength"):
                if name in stats:
                    rows.append([name, json.dumps(stats[name])])
            if stats.get("samples"):
                rows.append(["samples", ", ".join(_short(s, 80) for s in stats["samples"])])
        return rows

    # -- search ----------------------------------------------------------------------------
    def search(self, text: str) -> tuple[list[dict], str]:
        """Nodes whose key, or one of whose values, contains ``text`` (case-insensitive):
        the hits (node id, where, what matched) and a note. The tree then shows only the
        hit nodes and the way to them, opened."""
        self.changed()
        self.trail, self.hits = set(), set()
        if not text:
            return [], ""
        needle = text.lower()
        hits: list[dict] = []
        done = self._search_values(needle, hits) if self.value is not None else \
            self._search_shape(needle, hits)
        for hit in hits:
            self.hits.add(hit["id"])
            self.trail.update(self.ancestors(hit["id"]))
        self.opened |= self.trail
        shown = f"{len(hits):,} match{'es' * (len(hits) != 1)}"
        how = "keys and values" if self.value is not None else "keys and sample values"
        return hits, f"{shown} in {how}" + ("" if done else " (stopped early: refine it)")

    def _search_shape(self, needle: str, hits: list[dict]) -> bool:
        stack = [self.root]
        while stack:
            key = stack.pop()
            entry = self.entries[key]
            samples = entry.node.profile.samples if entry.node.profile else ()
            what = next((s for s in samples if needle in str(s).lower()), None)
            if entry.step and needle in entry.step.lower():
                hits.append({"id": key, "where": key, "match": "key"})
            elif what is not None:
                hits.append({"id": key, "where": key, "match": _short(what, 60)})
            if len(hits) >= SEARCH_HITS:
                return False
            stack.extend(self.children(key))
        return True

    def _search_values(self, needle: str, hits: list[dict]) -> bool:
        """Walk the document itself, breadth first, within a time and hit budget."""
        deadline = time.monotonic() + SEARCH_SECONDS
        start: list = [(self.value, self.root, [], self.inputs)]
        for steps_seen, (value, key, tokens, _) in enumerate(self._walk(start)):
            if len(hits) >= SEARCH_HITS or (steps_seen & 1023 == 0
                                            and time.monotonic() > deadline):
                return False
            name = tokens[-1] if tokens and isinstance(tokens[-1], str) else None
            where = _pointer([str(t) for t in tokens[1:]]) if self.inputs else \
                self.root_pointer + _pointer([str(t) for t in tokens])
            if self.inputs and tokens:
                where = f"input {tokens[0] + 1}: {where or '(the input)'}"
            if name is not None and needle in name.lower():
                hits.append({"id": key, "where": where, "match": "key"})
            elif not isinstance(value, (dict, list)) and needle in _text(value).lower():
                hits.append({"id": key, "where": where, "match": _short(value, 60)})
        return True

    def _walk(self, start: list):
        """(value, node id, pointer tokens, is the stream of inputs) for every value,
        breadth first. Node ids follow the shape: every array element is ``[]``, a key
        past the tracked ones is its parent's <other keys> node."""
        queue = deque(start)
        while queue:
            value, key, tokens, is_inputs = queue.popleft()
            yield value, key, tokens, is_inputs
            base = "" if key == "." else key
            if isinstance(value, dict):
                kids = set(self.children(key))
                for name, child in value.items():
                    child_key = jq_step(base, name)
                    if child_key not in kids:
                        child_key = f"{base}.{OTHER_KEYS}"
                    queue.append((child, child_key, [*tokens, name], False))
            elif isinstance(value, list):
                item = key if is_inputs else jq_step(base, None)
                if not is_inputs:
                    self.children(key)
                for index, child in enumerate(value):
                    queue.append((child, item, [*tokens, index], False))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _pointer(tokens: list[str]) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def _first(value: Any, steps: list[str | None], budget: list[int] | None = None
           ) -> list[str] | None:
    """Pointer tokens of the first value reached by ``steps`` (None for ``[]``)."""
    budget = [10_000] if budget is None else budget
    if not steps:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    step, rest = steps[0], steps[1:]
    if step is None:
        pairs = enumerate(value) if isinstance(value, list) else \
            value.items() if isinstance(value, dict) else ()
        for k, v in pairs:
            found = _first(v, rest, budget)
            if found is not None:
                return [str(k), *found]
        return None
    if isinstance(value, dict) and step in value:
        found = _first(value[step], rest, budget)
        return None if found is None else [step, *found]
    return None
