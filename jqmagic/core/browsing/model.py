"""The schema tree's model: a document's merged shape as rows (opened nodes, a window of
them) and each node's jq path and JSON Pointer; its search over keys and values is
:mod:`.search`.

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

from jqmagic.core.browsing.search import OTHER_KEYS, ShapeSearch, ValueSearch, short_text
from jqmagic.core.errors import JqMagicError
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.pointers import jq_step, parse_pointer, resolve
from jqmagic.core.shape.columns import add_all
from jqmagic.core.shape.node import Limits, Node
from jqmagic.core.shape.profile import Profile
from jqmagic.core.words import key_label

MAX_KEYS = 200_000  # keys of one object the tree tracks (past that: one <other keys> node)
SEARCH_SECONDS = 2.0  # a slice of a search: the note says how far it got after each
SEARCH_CLOCK = 8.0  # a search with matches goes on by itself this long (or to its end)
SEARCH_PATIENCE = 60.0  # a first pass that finds nothing goes on by itself this long
FIRST_VIEW_ROWS = 16  # rows the tree's box shows: the first view opens what fits


def build(value: Any, inputs: bool) -> Node:
    """The merged shape of ``value`` (of each input when ``inputs``), without profiles:
    a third of the time; :meth:`Tree.profile` reads a node's values when asked."""
    root = Node(Limits(stats=False, max_keys=MAX_KEYS))
    with gc_paused():
        if inputs:
            root.see_array(len(value))
            add_all(root.items_node(), value)
            return root.items_node()
        add_all(root, [value])
    return root


@dataclass
class Entry:
    """A node of the merged shape and how it is reached."""

    node: Node
    parent: str | None  # id of the parent, None for the root
    step: str | None  # key, or None for "[]"
    depth: int


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
        self.chosen: dict = {}  # the match the view chose: its row shows the value found
        self.matched: dict[str, str] = {}  # a hit node's first value found: its sample
        self._kids: dict[str, list[str]] = {}
        self._profiles: dict[str, Profile | None] = {}
        self._flat: list[str] | None = None
        self._search: ValueSearch | ShapeSearch | None = None

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
            self._flat = self._flatten(self.opened)
        return self._flat

    def first_view(self, rows: int = FIRST_VIEW_ROWS, levels: int = 3) -> set[str]:
        """The nodes open at first sight: the root, then breadth first each node whose
        children still fit in ``rows`` rows, down to ``levels`` levels (an array's
        elements and their keys, not one closed ``[]``)."""
        opened, shown = {self.root}, 1 + len(self.children(self.root))
        queue = deque((k, 1) for k in self.children(self.root))
        while queue:
            key, depth = queue.popleft()
            kids = self.children(key)
            if not kids or depth >= levels or shown + len(kids) > rows:
                continue
            opened.add(key)
            shown += len(kids)
            queue.extend((k, depth + 1) for k in kids)
        return opened

    def outline(self, levels: int, rows: int, limit: int) -> list[str]:
        """The open rows (every child, whatever a search narrowed) with the first
        ``levels`` levels opened too, and more levels breadth first while they fit in
        ``rows`` rows (a static picture with keys in view), at most ``limit`` rows."""
        opened = set(self.opened)
        shown = 1
        queue = deque([(self.root, 0)])
        while queue:
            key, depth = queue.popleft()
            kids = self.children(key)
            if not kids or (depth >= levels and shown + len(kids) > rows):
                continue
            if key not in opened:
                opened.add(key)
                shown += len(kids)
            queue.extend((k, depth + 1) for k in kids)
            if shown > limit:
                break
        return self._flatten(opened, limit, trail=False)

    def _flatten(self, opened: set[str], limit: int | None = None, trail: bool = True
                 ) -> list[str]:
        """The rows under the ``opened`` nodes; with ``trail``, a search's trail shows
        only the way to its hits."""
        out: list[str] = []
        stack = [self.root]
        while stack and (limit is None or len(out) < limit):
            key = stack.pop()
            out.append(key)
            if key in opened:
                kids = self.children(key)
                if trail and key in self.trail:  # a node opened by hand shows every child
                    kids = [k for k in kids if k in self.trail or k in self.hits]
                stack.extend(reversed(kids))
        return out

    def row(self, key: str, index: int, shown_open: bool | None = None) -> dict:
        """What the view shows of one row (``shown_open``: whether its children follow)."""
        entry = self.entries[key]
        node = entry.node
        name = key if entry.parent is None else "[]" if entry.step is None else \
            key_label(entry.step)
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
        if self.chosen.get("id") == key and self.chosen.get("match") != "key":
            sample = self.chosen["match"]  # the value found, not the node's first sample
        elif key in self.matched:
            sample = self.matched[key]
        elif not size and set(node.types) - {"null"}:
            sample = self._first_sample(key)
        return {"i": index, "id": key, "depth": entry.depth, "name": name,
                "type": node.type_str(), "size": size, "presence": presence, "sample": sample,
                "open": key in self.opened if shown_open is None else shown_open,
                "kids": self.has_children(key),
                "parent": entry.parent or ""}

    def rows(self, start: int, count: int, flat: list[str] | None = None) -> list[dict]:
        """The rows ``start`` to ``start + count`` of the visible ones, or of ``flat``."""
        if flat is None:
            flat = self.flat()
            return [self.row(k, i) for i, k in enumerate(flat[start:start + count], start)]
        return [self.row(k, i, i + 1 < len(flat) and self.entries[flat[i + 1]].parent == k)
                for i, k in enumerate(flat[start:start + count], start)]

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

    def at(self, pointer: str) -> Any:
        """The value at ``pointer`` (a hit's, which starts with the root's pointer)."""
        return resolve(self.value, parse_pointer(pointer[len(self.root_pointer):]))[0]

    def details(self, key: str, hit: dict | None = None) -> list[list[str]]:
        """Label/value pairs describing node ``key``; with the chosen ``hit`` of a search,
        its value and both its paths (the same value in each form), then the node's."""
        entry = self.entries[key]
        node = entry.node
        inputs = self.entries[self.root].node.count
        if hit:
            rows = [["this match", hit.get("match", "")]]
            if hit.get("input"):
                rows.append(["input", f"number {hit['input']} of {inputs:,}"])
            if hit.get("path"):
                rows.append(["jq path", hit["path"]])
            rows += [["JSON Pointer", hit.get("pointer") or "(the root)"],
                     ["node", f"{key} (every value here)"]]
        else:
            pointer, document = self.pointer(key)
            rows = [["JSON Pointer", pointer or "(the root)"]]
            if document is not None:
                rows.append(["input", f"number {document} of {inputs:,}"])
            jq = key if OTHER_KEYS not in key else "(keys past the tracked ones: no jq path)"
            rows.append(["jq path", jq])
        rows.append(["types", ", ".join(f"{t} ({node.types[t]:,})"
                                        for t in node.type_names())])
        parent = self.entries[entry.parent].node if entry.parent else None
        if parent is not None and entry.step is not None:
            rows.append(["present in", f"{node.count:,} of {parent.objects:,} objects"])
        elif parent is not None:
            rows.append(["elements", f"{node.count:,}"])
        if node.len_max is not None:
            rows.append(["array length", _range(node.len_min, node.len_max)])
        profile = self.profile(key)
        if profile is not None:
            stats = profile.to_dict()
            if set(node.types) - {"object", "array", "null"}:
                rows.append(["distinct", f"{stats['distinct']:,}"
                             + (" (estimated)" if stats.get("distinctEstimated") else "")])
            for name in ("min", "max", "minLength", "maxLength"):
                if name in stats:
                    rows.append([name, json.dumps(stats[name])])
            if stats.get("samples"):
                rows.append(["samples", ", ".join(short_text(s, 80) for s in stats["samples"])])
        return rows

    # -- statistics, read when asked ---------------------------------------------------------
    def profile(self, key: str) -> Profile | None:
        """The statistics of the values at ``key``: a streamed shape's own, else read from
        the document the first time they are asked for (one column, ~0.3 s for 200k
        values), so a big tree opens without them."""
        node = self.entries[key].node
        if node.profile is not None or self.value is None:
            return node.profile
        if key not in self._profiles:
            found = None
            if set(node.types) - {"object", "array"} and OTHER_KEYS not in self.steps(key):
                found = Profile()
                for value in self._values(key):
                    if type(value) is not dict and type(value) is not list:
                        found.see(value)
            self._profiles[key] = found
        return self._profiles[key]

    def _first_sample(self, key: str) -> str:
        """The row's sample: the first value at ``key`` that is not null."""
        node = self.entries[key].node
        if node.profile is not None:
            return short_text(node.profile.samples[0]) if node.profile.samples else ""
        if self.value is None or OTHER_KEYS in self.steps(key):
            return ""
        first = next((v for v in self._values(key)
                      if v is not None and type(v) is not dict and type(v) is not list), _NONE)
        return "" if first is _NONE else short_text(first)

    def _values(self, key: str):
        """Every value at node ``key`` in the document, in order."""
        steps = self.steps(key)
        for doc in (self.value if self.inputs else [self.value]):
            yield from _walk_values(doc, steps)

    # -- search ----------------------------------------------------------------------------
    def search(self, text: str, more: bool = False, progress=None
               ) -> tuple[list[dict], str]:
        """Nodes whose key, or one of whose values, contains ``text`` (case-insensitive):
        the hits (node id, where, what matched; with a value in memory also the hit's own
        jq path and JSON Pointer) and a note with the counts. The tree then shows only the
        hit nodes and the way to them, opened. A search reads in slices of SEARCH_SECONDS,
        telling ``progress(note)`` how far it got and what it found after each, and goes
        on by itself to its end or for SEARCH_CLOCK (SEARCH_PATIENCE while it has found
        nothing); one that stopped goes on from where it stopped when asked again with
        ``more``."""
        self.changed()
        if not more or self._search is None or self._search.text != text:
            self.trail, self.hits, self.matched = set(), set(), {}
            self._search = None
            if not text:
                return [], ""
            found = ValueSearch(self, text) if self.value is not None else \
                ShapeSearch(self, text)
            self._search = found
        found = self._search
        started = time.monotonic()
        found.run(started + SEARCH_SECONDS)
        while not found.done and time.monotonic() - started < (
                SEARCH_CLOCK if found.hits else SEARCH_PATIENCE):
            if progress is not None:
                progress(found.note(going=True))
            found.run(time.monotonic() + SEARCH_SECONDS)
        for hit in found.hits:
            self.hits.add(hit["id"])
            if hit["match"] != "key":
                self.matched.setdefault(hit["id"], hit["match"])
            self.trail.update(self.ancestors(hit["id"]))
        self.opened |= self.trail
        return list(found.hits), found.note()

    def columns(self) -> list[str]:
        """Every node id, shallow ones first (the order a search reads the columns in)."""
        out, queue = [], deque([self.root])
        while queue:
            key = queue.popleft()
            out.append(key)
            queue.extend(self.children(key))
        return out

    def concrete(self, tokens: list) -> tuple[str, str]:
        """The jq path and JSON Pointer of one value (pointer tokens below the root; in a
        source of several inputs the first token is the input's index, which jq cannot
        address: the jq path is then the path inside that input)."""
        if self.inputs:
            tokens = tokens[1:]
        path = "" if self.root == "." else self.root
        for token in tokens:
            path = f"{path or '.'}[{token}]" if isinstance(token, int) else \
                jq_step(path, token)
        pointer = _pointer([str(t) for t in tokens])
        return path or ".", (pointer if self.inputs else self.root_pointer + pointer)


_NONE = object()


def _walk_values(value: Any, steps: list):
    """The values ``steps`` reach below ``value`` (None for every element)."""
    if not steps:
        yield value
        return
    step, rest = steps[0], steps[1:]
    if step is None:
        if type(value) is list:
            if not rest:
                yield from value
                return
            for item in value:
                yield from _walk_values(item, rest)
    elif type(value) is dict and step in value:
        yield from _walk_values(value[step], rest)


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
