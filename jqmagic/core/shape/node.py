"""The merged shape of all values seen at one path: the accumulator behind ``shape``.

A :class:`Node` counts the values at a path by type; object keys get child nodes (their
``count`` is how many objects have the key) and all array elements merge into one
``items`` node. Memory is bounded by the number of distinct paths, and the keys tracked
per node are capped: the values of keys past the cap merge into one ``extra`` node.
Both the in-memory walk (:meth:`Node.add`) and the streaming parser feed the same nodes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from jqmagic.core.pointers import jq_step
from jqmagic.core.shape.profile import Profile

# jq's order of types, used to write several types as "null|string"
TYPE_ORDER = ("null", "boolean", "number", "string", "array", "object")
_SCALARS = {type(None): "null", bool: "boolean", int: "number", float: "number", str: "string"}
MAX_TRACKED_KEYS = 1000


class Limits:
    """Settings shared by the nodes of one tree."""

    __slots__ = ("stats", "max_keys", "distinct_cap")

    def __init__(self, stats: bool = False, max_keys: int = MAX_TRACKED_KEYS,
                 distinct_cap: int = 1000):
        self.stats = stats
        self.max_keys = max_keys
        self.distinct_cap = distinct_cap


class Node:
    """Merged shape (and optionally the profile) of the values at one path."""

    __slots__ = ("limits", "count", "types", "floats", "keys", "extra", "extra_count", "items",
                 "len_min", "len_max", "profile")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.count = 0
        self.types: dict[str, int] = {}
        self.floats = 0  # numbers with a fraction or exponent (JSON Schema "number")
        self.keys: dict[str, Node] | None = None
        self.extra: Node | None = None  # values of keys past the tracking cap
        self.extra_count = 0
        self.items: Node | None = None
        self.len_min: int | None = None
        self.len_max: int | None = None
        self.profile = Profile(limits.distinct_cap) if limits.stats else None

    # -- feeding -------------------------------------------------------------------------
    def add(self, value: Any) -> None:
        """Merge one Python value (as parsed from JSON) into this node."""
        t = type(value)
        if t is dict:
            self.see_object()
            child = self.child
            for k, v in value.items():
                child(k).add(v)
        elif t is list:
            self.see_array(len(value))
            items = self.items_node()
            for v in value:
                items.add(v)
        else:
            self.see_scalar(value)

    def see_scalar(self, value: Any) -> None:
        """Count one scalar value."""
        self.count += 1
        name = _SCALARS.get(type(value))
        if name is None:  # Decimal, Fraction, ...: numbers from other parsers
            name = "number"
            value = float(value)
        types = self.types
        types[name] = types.get(name, 0) + 1
        if type(value) is float:
            self.floats += 1
        if self.profile is not None:
            self.profile.see(value)

    def see_object(self) -> None:
        """Count one object; its members follow through :meth:`child`."""
        self.count += 1
        self.types["object"] = self.types.get("object", 0) + 1
        if self.keys is None:
            self.keys = {}

    def see_array(self, length: int | None = None) -> None:
        """Count one array; its ``length`` now or later through :meth:`array_length`."""
        self.count += 1
        self.types["array"] = self.types.get("array", 0) + 1
        if length is not None:
            self.array_length(length)

    def array_length(self, length: int) -> None:
        """Record the length of one array seen here."""
        if self.len_min is None or length < self.len_min:
            self.len_min = length
        if self.len_max is None or length > self.len_max:
            self.len_max = length

    def child(self, key: str) -> Node:
        """The node of member ``key`` (or the shared node of untracked keys)."""
        keys = self.keys
        node = keys.get(key)  # type: ignore[union-attr]
        if node is None:
            if len(keys) < self.limits.max_keys:  # type: ignore[arg-type]
                node = keys[key] = Node(self.limits)  # type: ignore[index]
            else:
                self.extra_count += 1
                if self.extra is None:
                    self.extra = Node(self.limits)
                node = self.extra
        return node

    def items_node(self) -> Node:
        """The node all elements of arrays at this path merge into."""
        if self.items is None:
            self.items = Node(self.limits)
        return self.items

    # -- reading -------------------------------------------------------------------------
    def type_names(self) -> list[str]:
        """The types seen here, in jq's order."""
        return [t for t in TYPE_ORDER if t in self.types]

    def type_str(self) -> str:
        """The types seen here joined with ``|`` (``"null|string"``)."""
        return "|".join(self.type_names()) or "none"

    @property
    def objects(self) -> int:
        """How many of the values here are objects."""
        return self.types.get("object", 0)

    @property
    def elements(self) -> int:
        """How many array elements were seen here in total."""
        return self.items.count if self.items is not None else 0

    def walk(self, path: str = "") -> Iterator[tuple[str, Node, Node | None]]:
        """Yield ``(jq_path, node, parent)`` for this node and every node below it, a
        level at a time (a walk cut short has shown every shallower path: the profiles'
        500 were the first subtree's, deep, before its siblings)."""
        queue: deque[tuple[str, Node, Node | None]] = deque([(path, self, None)])
        while queue:
            p, node, parent = queue.popleft()
            yield p or ".", node, parent
            if node.keys:
                queue.extend((jq_step(p, k), c, node) for k, c in node.keys.items())
            if node.extra is not None:
                queue.append((p + ".<other keys>", node.extra, node))
            if node.items is not None:
                queue.append((jq_step(p, None), node.items, node))
