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


def add_all(node: Node, values: list[Any]) -> None:
    """Merge each of ``values`` into ``node``, as ``for v in values: node.add(v)``."""
    if not values:
        return
    kinds = set(map(type, values))
    counts = {kinds.pop(): len(values)} if len(kinds) == 1 else Counter(map(type, values))
    if node.profile is not None or any(t not in _BULK for t in counts):
        for value in values:
            node.add(value)
        return
    _tally(node, counts)
    _descend(node, values, counts)


def _tally(node: Node, counts: dict[type, int]) -> None:
    """Count values of the types in ``counts`` at ``node``."""
    types = node.types
    for t, n in counts.items():
        name = _BULK[t]
        types[name] = types.get(name, 0) + n
        node.count += n
    node.floats += counts.get(float, 0)


def _descend(node: Node, values: list[Any], counts: dict[type, int]) -> None:
    """Merge the members of the objects and the elements of the arrays in ``values``."""
    if dict in counts:
        if node.keys is None:
            node.keys = {}
        _members(node, values if counts[dict] == len(values) else
                 [v for v in values if type(v) is dict])
    if list in counts:
        arrays = values if counts[list] == len(values) else \
            [v for v in values if type(v) is list]
        lengths = list(map(len, arrays))
        node.array_length(min(lengths))
        node.array_length(max(lengths))
        add_all(node.items_node(), list(chain.from_iterable(arrays)))


def _members(node: Node, objects: list[dict]) -> None:
    """Merge the members of ``objects`` (all at ``node``) into its key nodes."""
    keysets = dict.fromkeys(map(tuple, objects))
    keys = dict.fromkeys(chain.from_iterable(keysets))
    typesets = map(tuple, map(map, repeat(type), map(dict.values, objects)))
    if len(keysets) == 1:
        only = next(iter(keysets))
        signatures = {(only, types): n for types, n in Counter(typesets).items()}
    elif len(keys) * len(objects) <= 4 * sum(map(len, objects)):
        signatures = Counter(zip(map(tuple, objects), typesets, strict=True))
    else:
        signatures = None  # objects that hardly share keys: one by one
    known = len(node.keys) + sum(k not in node.keys for k in keys) <= node.limits.max_keys
    if signatures is None or not known or len(signatures) * 8 > len(objects) or any(
            t not in _BULK for _, types in signatures for t in types):
        child = node.child
        for obj in objects:
            for k, v in obj.items():
                child(k).add(v)
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
            _descend(child, column, counts)
