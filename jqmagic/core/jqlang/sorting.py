"""jq 1.8.2's builtins that order values: ``sort``, ``unique``, ``min``/``max`` and the
``_by`` family (keys made as ``map([f])``, the deadline checked as they are)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from heapq import nlargest, nsmallest
from itertools import compress, islice, repeat
from operator import ge, is_, is_not, itemgetter, le
from typing import Any

from jqmagic.core.jqlang import columns
from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import IDENTITY, Compiled, singular
from jqmagic.core.jqlang.errors import JqError
from jqmagic.core.jqlang.messages import cannot_iterate, type_error, type_error2
from jqmagic.core.jqlang.numbers import MAX_EXACT
from jqmagic.core.jqlang.runtime import check, chunked, state
from jqmagic.core.jqlang.table import Table

BUILTINS = Table()

sort_key = jv.sort_key


def _array(v: Any, text: str = "cannot be sorted, as it is not an array") -> list:
    if type(v) is list:
        return v
    if text == "cannot be iterated over":  # min, max: jq's minmax_by(., .)
        raise type_error2(v, v, text)
    raise type_error(v, text)


def _by_items(v: Any) -> list:
    """The input of ``sort_by(f)`` and its kind: jq maps ``[f]`` over it first."""
    if type(v) is list:
        return v
    if type(v) is dict:
        raise JqError()  # after f ran on each value: not worded here
    raise cannot_iterate(v)


def _keys_of(f: Compiled, items: list, e: dict) -> list[tuple]:
    """jq's ``map([f])`` as sort keys, one per item."""
    if f.one:
        return _one_keys(_values_of(f, items, e))
    g = f.gen
    return [sort_key(list(g(x, e))) for x in chunked(items)]


def _one_keys(values: list) -> list[tuple]:
    """The sort keys of ``[x]`` for each value ``x``."""
    return [(5, (sort_key(x),)) for x in chunked(values)]


def _values_of(f: Compiled, items: list, e: dict) -> list:
    """``f`` of each item, for an ``f`` of exactly one value (``[f]`` without the list)."""
    if f is IDENTITY:
        return items
    if f.chain is not None:  # .a.b: in one pass in C
        column = columns.of_each(items, f.chain)
        if column is not None:
            return column
    return list(map(f.one, chunked(items), repeat(e)))


def _by_themselves(values: list, floats: bool = True) -> bool:
    """Whether Python orders ``values`` as jq does: all strings (jq compares their UTF-8
    bytes, which is code point order), or all numbers but NaN with every int exact (ints
    alone unless ``floats``: then equal values are alike, where 1 and 1.0 print apart).
    Checked at C's speed: a sum that is no NaN holds none, extremes within 2^53 hold every
    int within it."""
    check()
    kinds = set(map(type, values))
    if kinds == {str}:
        return True
    if not kinds <= ({int, float} if floats else {int}):
        return False
    if float in kinds:
        if _nan_among(values):  # jq puts NaN below every number
            return False
        state.floats_compared = True
        if kinds == {float}:
            return True
    if values and min(values) >= -MAX_EXACT and max(values) <= MAX_EXACT:
        return True
    ints = [x for x in values if type(x) is int]
    return not ints or min(ints) >= -MAX_EXACT and max(ints) <= MAX_EXACT


def _nan_among(numbers: list) -> bool:
    """Whether a NaN is among ``numbers`` (ints and floats)."""
    try:
        total = sum(numbers)
    except OverflowError:  # an int past a double's range: look at each
        total = float("nan")
    return total != total and any(x != x for x in numbers)


def _nulls_apart(values: list) -> tuple[list[int], list[int]] | None:
    """The places of the nulls among ``values`` and of the rest, when the rest are all
    strings or all numbers Python orders as jq (:func:`_by_themselves`): an optional
    field's keys, jq's nulls first. None otherwise."""
    kinds = set(map(type, values))
    if _NONE not in kinds or not (kinds == {_NONE, str} or kinds - {_NONE} <= {int, float}):
        return None
    places = range(len(values))
    rest = list(compress(places, map(is_not, values, repeat(None))))
    if not rest or not _by_themselves(list(map(values.__getitem__, rest))):
        return None
    return list(compress(places, map(is_, values, repeat(None)))), rest


def sorted_places(values: list, first: int = 0, last: int | None = None) -> list[int] | None:
    """The places of ``values`` in jq's stable order of them (``sort_by``'s, one key an
    item), positions ``first`` to ``last`` of it; None unless they are strings or numbers
    Python orders as jq, nulls among them first. A few places at either end are picked,
    not sorted: the values past the ``k``-th least (or greatest) left out in one pass."""
    last = len(values) if last is None else last
    places = range(len(values))
    if None not in values:
        return _ordered(places, values, first, last) if _by_themselves(values) else None
    rest = list(compress(places, map(is_not, values, repeat(None))))
    keys = list(map(values.__getitem__, rest))
    if not keys or not _by_themselves(keys):
        return None
    held = len(values) - len(rest)  # the nulls, first: only those kept are found
    nulls = list(islice(compress(places, map(is_, values, repeat(None))), first,
                        min(last, held))) if first < held else []
    return nulls + _ordered(rest, keys, max(first - held, 0), max(last - held, 0))


PICKED = 256
"""At most this many places from either end are picked by :func:`_ordered`."""


def _ordered(places: range | list, keys: list, first: int, last: int) -> list[int]:
    """``places`` (each with its key in ``keys``) stably sorted by key, ``first`` to
    ``last`` of them."""
    count = len(keys)
    last = min(last, count)
    if last <= first:
        return []
    check()
    if last <= PICKED:  # the least: those up to the last-th least key, sorted
        bound = nsmallest(last, keys)[-1]
        picked = compress(range(count), map(le, keys, repeat(bound)))
        order = sorted(picked, key=keys.__getitem__)[first:last]
    elif count - first <= PICKED:  # the greatest: those down to the (count - first)-th
        bound = nlargest(count - first, keys)[-1]
        picked = compress(range(count), map(ge, keys, repeat(bound)))
        order = sorted(picked, key=keys.__getitem__)[first - count:][:last - first]
    else:
        order = sorted(range(count), key=keys.__getitem__)[first:last]
    return order if places == range(count) else list(map(places.__getitem__, order))


def _sort_by(v: Any, f: Compiled, e: dict) -> list:
    """jq's ``sort_by``: stable; keys of strings or of numbers sorted as they are, nulls
    among them first."""
    items = _by_items(v)
    if f.one:
        values = _values_of(f, items, e)
        places = sorted_places(values)
        if places is not None:
            return list(map(items.__getitem__, places))
        keys = _one_keys(values)
    else:
        keys = _keys_of(f, items, e)
    return [x for _, x in sorted(zip(keys, items, strict=True), key=itemgetter(0))]


def _extreme_by(v: Any, f: Compiled, e: dict, is_min: bool) -> Any:
    """jq's ``min_by`` / ``max_by``: the first least item, or the last greatest; keys
    Python orders as jq compared as they are (nulls least)."""
    items = _by_items(v)
    if items and f.one:
        values = _values_of(f, items, e)
        if is_min and None in values:  # null is jq's least value: the first null's item
            return items[values.index(None)]
        if _by_themselves(values):
            return items[_first_least(values) if is_min else _last_greatest(values)]
        apart = _nulls_apart(values)
        if apart is not None:
            nulls, rest = apart
            if is_min:
                return items[nulls[0]]
            return items[rest[_last_greatest(list(map(values.__getitem__, rest)))]]
    return _minmax(items, _keys_of(f, items, e), is_min)


def _first_least(values: list) -> int:
    return values.index(min(values))


def _last_greatest(values: list) -> int:
    return len(values) - 1 - values[::-1].index(max(values))


def _groups(v: Any, f: Compiled, e: dict) -> list[list]:
    """jq's ``group_by``: items by equal keys, in key order, each group in input order
    (keys are hashable: only the distinct ones are sorted)."""
    items = _by_items(v)
    if f.one:
        keys = _values_of(f, items, e)
        groups = _groups_by_themselves(items, keys)
        if groups is not None:
            return groups
        keyed = zip(_one_keys(keys), items, strict=True)
    else:
        keyed = zip(_each_key(f.gen, items, e), items, strict=True)
    by_key: dict[tuple, list] = {}
    for key, item in keyed:
        group = by_key.get(key)
        if group is None:
            by_key[key] = [item]
        else:
            group.append(item)
    return [by_key[key] for key in sorted(by_key)]


def _each_key(g: Callable, items: list, e: dict) -> Iterator[tuple]:
    """The sort key of ``[f]`` of each item, one at a time (only the distinct ones are
    kept: the lists ``f`` makes are not held for every item)."""
    return (sort_key(list(g(x, e))) for x in chunked(items))


def _groups_by_themselves(items: list, keys: list) -> list[list] | None:
    """``group_by``'s groups when Python orders the keys as jq does (:func:`_by_themselves`;
    its equality is jq's then too: 1 == 1.0), else None. Where each item is its key and a
    string (``group_by(.)``), the strings are counted: a group holds its string repeated."""
    if keys == items and keys and type(keys[0]) is str:
        try:
            counts = Counter(chunked(keys))
        except TypeError:  # arrays or objects
            return None
        check()
        if all(type(key) is str for key in counts):  # so is every item: it equals a key
            return [[key] * counts[key] for key in sorted(counts)]
    if _by_themselves(keys):
        order = None
    elif _scalars_apart(keys):  # strings with nulls among them (an optional field)...
        order = _scalar_order
    else:
        return None
    groups: dict[Any, list] = {key: [] for key in sorted(set(chunked(keys)), key=order)}
    for key, item in zip(chunked(keys), items, strict=True):
        groups[key].append(item)
    return list(groups.values())


_NONE = type(None)


def _scalars_apart(keys: list) -> bool:
    """Whether ``keys`` are scalars a dict keeps apart as jq's equality does and
    :func:`_scalar_order` orders as jq: nulls, strings and numbers Python orders as jq
    (no booleans: true == 1), or nulls, booleans and strings."""
    kinds = set(map(type, keys))
    if kinds <= {_NONE, bool, str}:
        return True
    numbers = kinds - {_NONE, str}
    return numbers <= {int, float} and _by_themselves([k for k in keys if type(k) in numbers])


def _scalar_order(key: Any) -> tuple:
    """jq's order of scalars: null < false < true < numbers < strings."""
    kind = type(key)
    rank = 0 if key is None else (1 + key) if kind is bool else 4 if kind is str else 3
    return rank, key


def _minmax(items: list, keys: list, is_min: bool) -> Any:
    """jq's ``minmax_by``: the first least item, or the last greatest; null when empty."""
    best, best_key = None, None
    for i, (item, key) in enumerate(zip(items, keys, strict=True)):
        if i == 0 or (key < best_key) == is_min:
            best, best_key = item, key
    return best


@BUILTINS.unary("min")
def _min(v):
    items = _array(v, "cannot be iterated over")
    if items and _by_themselves(items):  # the first least (1.0 and 1 print apart)
        return items[_first_least(items)]
    return _minmax(items, _sort_keys(items), True)


@BUILTINS.unary("max")
def _max(v):
    items = _array(v, "cannot be iterated over")
    if items and _by_themselves(items):  # the last greatest
        return items[_last_greatest(items)]
    return _minmax(items, _sort_keys(items), False)


def _sort_keys(items: list) -> list[tuple]:
    """Each item's sort key, the deadline checked as they are made."""
    return [sort_key(x) for x in chunked(items)]


def _sorted_pairs(items: list) -> list[tuple]:
    """(key, item) pairs in jq's order (stable: equal keys keep input order)."""
    return sorted(zip(_sort_keys(items), items, strict=True), key=itemgetter(0))


@BUILTINS.unary("sort")
def _sort(v):
    items = _array(v)
    if _by_themselves(items):
        return sorted(items)
    apart = _nulls_apart(items)  # an optional member's values: its nulls first
    if apart is not None:
        nulls, rest = apart
        return [None] * len(nulls) + sorted(map(items.__getitem__, rest))
    return [x for _, x in _sorted_pairs(items)]


@BUILTINS.unary("unique")
def _unique(v):
    items = _array(v)
    try:
        distinct = set(chunked(items))
    except TypeError:  # arrays or objects
        distinct = None
    if distinct is not None:
        kinds = set(map(type, distinct))
        if kinds == {str}:
            return sorted(distinct)  # so is every item: it equals one of them
        if kinds <= {_NONE, bool, str}:  # an optional field: none of them equal apart
            return sorted(distinct, key=_scalar_order)
        if _by_themselves(items, floats=False):
            return sorted(distinct)  # not with floats or bools: a set keeps one of 1, 1.0, true
        numbers = [x for x in distinct if x is not None]  # (a set keeps 0 of 0 and false)
        if set(map(type, items)) - {_NONE} <= {int, float} and _by_themselves(numbers):
            # the first of equal numbers (1 and 1.0, 0 and -0.0), as jq's stable sort keeps
            return [None] * (_NONE in kinds) + sorted(numbers)
    out, last = [], None
    for key, x in _sorted_pairs(items):
        if not out or key != last:
            out.append(x)
            last = key
    return out


def _by(name: str, pick: Callable[[Any, Compiled, dict], Any]) -> None:
    BUILTINS[(name, 1)] = lambda f: singular(lambda v, e: pick(v, f, e))


_by("sort_by", _sort_by)
_by("group_by", _groups)
_by("unique_by", lambda v, f, e: [group[0] for group in _groups(v, f, e)])
_by("min_by", lambda v, f, e: _extreme_by(v, f, e, True))
_by("max_by", lambda v, f, e: _extreme_by(v, f, e, False))
