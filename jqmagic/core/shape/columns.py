"""Merging many values into one :class:`Node` at once: the same nodes as adding them one
by one (:meth:`Node.add`), with the per-value work done at C speed.

The values at one path are a column. Objects are read row by row (their memory is in
document order): one tuple of keys and one of value types per object, counted by distinct
(keys, types) signature, give every member's type counts without a Python step per value;
only columns holding objects or arrays are gathered, in document order, to go deeper.
Keys come out in the order of first appearance, as the one-by-one walk makes them. Where
that order or bound could not be kept cheaply (profiles, more keys than the cap, types
other than JSON's, objects that hardly share keys) the values are added one by one.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from jqmagic.core.shape.node import _SCALARS, Node

_BULK = {**_SCALARS, dict: "object", list: "array"}
_DEEP = 16  # levels merged column by column (two frames a level); below, one frame a level


def add_all(node: Node, values: list[Any], depth: int = 0) -> None:
    """Merge each of ``values`` into ``node``, as ``for v in values: node.add(v)``
    (``depth`` levels below the first column: past _DEEP, one by one, so a document
    nests as deep before Python's recursion limit as with :meth:`Node.add`)."""
    if not values:
        return
    kinds = set(map(type, values))
    counts = {kinds.pop(): len(values)} if len(kinds) == 1 else Counter(map(type, values))
    if depth > _DEEP or node.profile is not None or any(t not in _BULK for t in counts):
        for value in values:
            node.add(value)
        return
    _tally(node, counts)
    _descend(node, values, counts, depth)


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
    found = _signatures(node, objects) if depth <= _DEEP else None
    if found is None:
        child = node.child
        for obj in objects:
            for k, v in obj.items():
                child(k).add(v)
        return
    signatures, keys, same = found
    per_key: dict[str, dict[type, int]] = {key: {} for key in keys}
    for (names, types), n in signatures.items():
        for key, t in zip(names, types, strict=True):
            counts = per_key[key]
            counts[t] = counts.get(t, 0) + n
    for key, counts in per_key.items():
        child = node.child(key)
        _tally(child, counts)
        if dict in counts or list in counts:
            column = list(map(itemgetter(key), objects)) if same else \
                [obj[key] for obj in objects if key in obj]
            _descend(child, column, counts, depth + 1)


def _signatures(node: Node, objects: list[dict]) -> tuple[dict, dict, bool] | None:
    """How many ``objects`` have each (keys, value types) signature, every key in order of
    first appearance, and whether all have the same keys; None where one by one is as
    quick or the only exact way (objects that hardly share keys, a key cap reached, a
    type other than JSON's)."""
    keysets = dict.fromkeys(map(tuple, objects))
    keys = dict.fromkeys(chain.from_iterable(keysets))
    tracked = node.keys or {}
    if len(tracked) + sum(k not in tracked for k in keys) > node.limits.max_keys or \
            len(keysets) * 8 > len(objects):
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
    return signatures, keys, len(keysets) == 1
