"""Merging many values into one :class:`Node` at once: the same nodes as adding them one
by one (:meth:`Node.add`), with the per-value work done at C speed.

The values at one path are a column. Objects are read row by row (their memory is in
document order): one tuple of keys and one of value types per object, counted by distinct
(keys, types) signature, give every member's type counts without a Python step per value;
only columns holding objects or arrays are gathered, in document order, to go deeper.
Keys come out in the order of first appearance, as the one-by-one walk makes them.
Objects that hardly share keys are split into columns member by member, and a lone value
(a column of one) is walked member by member. Where the order or bound could not be kept
otherwise (profiles, a key cap reached, types other than JSON's, nesting past _DEEP
levels) the values are added one by one.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from jqmagic.core.shape.node import _SCALARS, Node

_BULK = {**_SCALARS, dict: "object", list: "array"}
_DEEP = 16  # levels merged by columns (up to three frames a level); below, one a level


def add_all(node: Node, values: list[Any], depth: int = 0) -> None:
    """Merge each of ``values`` into ``node``, as ``for v in values: node.add(v)``
    (``depth`` levels below the first column: past _DEEP, one by one, so a document
    nests as deep before Python's recursion limit as with :meth:`Node.add`)."""
    if len(values) <= 1:
        if values:
            _add_one(node, values[0], depth)
        return
    kinds = set(map(type, values))
    counts = {kinds.pop(): len(values)} if len(kinds) == 1 else Counter(map(type, values))
    if depth > _DEEP or node.profile is not None or any(t not in _BULK for t in counts):
        for value in values:
            node.add(value)
        return
    _tally(node, counts)
    _descend(node, values, counts, depth)


def _add_one(node: Node, value: Any, depth: int) -> None:
    """Merge one value: an object member by member (each member's value a column of one,
    an object keyed by ids costing about what one by one does), an array as a column."""
    t = type(value)
    if depth > _DEEP or node.profile is not None or (t is not dict and t is not list):
        node.add(value)
    elif t is dict:
        node.see_object()
        child = node.child
        for k, v in value.items():
            if type(v) is dict or type(v) is list:
                _add_one(child(k), v, depth + 1)
            else:
                child(k).see_scalar(v)
    else:
        node.see_array(len(value))
        add_all(node.items_node(), value, depth + 1)


def _tally(node: Node, counts: dict[type, int]) -> None:
    """Count values of the types in ``counts`` at ``node``."""
    types = node.types
    for t, n in counts.items():
        name = _BULK[t]
        types[name] = types.get(name, 0) + n
        node.count += n
    node.floats += counts.get(float, 0)


def _descend(node: Node, values: list[Any], counts: dict[type, int], depth: int) -> None:
    """Merge the members of the objects and the elements of the arrays in ``values``."""
    if dict in counts:
        if node.keys is None:
            node.keys = {}
        _members(node, values if counts[dict] == len(values) else
                 [v for v in values if type(v) is dict], depth)
    if list in counts:
        arrays = values if counts[list] == len(values) else \
            [v for v in values if type(v) is list]
        lengths = list(map(len, arrays))
        node.array_length(min(lengths))
        node.array_length(max(lengths))
        add_all(node.items_node(), list(chain.from_iterable(arrays)), depth + 1)


def _members(node: Node, objects: list[dict], depth: int) -> None:
    """Merge the members of ``objects`` (all at ``node``) into its key nodes."""
    keysets = dict.fromkeys(map(tuple, objects)) if depth <= _DEEP else {}
    keys = dict.fromkeys(chain.from_iterable(keysets))
    tracked = node.keys or {}
    if not keysets or len(tracked) + sum(k not in tracked for k in keys) > \
            node.limits.max_keys:  # deep, or the cap splits the keys: in document order
        child = node.child
        for obj in objects:
            for k, v in obj.items():
                child(k).add(v)
        return
    signatures = _signatures(objects, keysets)
    if signatures is None:  # few objects, or objects that hardly share keys
        columns: dict[str, list] = {key: [] for key in keys}
        for obj in objects:
            for k, v in obj.items():
                columns[k].append(v)
        for key, column in columns.items():
            add_all(node.child(key), column, depth + 1)
        return
    per_key: dict[str, dict[type, int]] = {key: {} for key in keys}
    for (names, types), n in signatures.items():
        for key, t in zip(names, types, strict=True):
            counts = per_key[key]
            counts[t] = counts.get(t, 0) + n
    for key, counts in per_key.items():
        child = node.child(key)
        _tally(child, counts)
        if dict in counts or list in counts:
            column = list(map(itemgetter(key), objects)) if len(keysets) == 1 else \
                [obj[key] for obj in objects if key in obj]
            _descend(child, column, counts, depth + 1)


def _signatures(objects: list[dict], keysets: dict[tuple, None]) -> dict | None:
    """How many ``objects`` have each (keys, value types) signature; None where that
    would not pay (fewer than eight objects a signature) or a type is not JSON's."""
    if len(keysets) * 8 > len(objects):
        return None
    typesets = map(tuple, map(map, repeat(type), map(dict.values, objects)))
    if len(keysets) == 1:
        only = next(iter(keysets))
        signatures = {(only, types): n for types, n in Counter(typesets).items()}
    else:
        signatures = Counter(zip(map(tuple, objects), typesets, strict=True))
    if len(signatures) * 8 > len(objects) or any(
            t not in _BULK for _, types in signatures for t in types):
        return None
    return signatures
