"""jq 1.8.2's builtins that order values: ``sort``, ``unique``, ``min``/``max`` and the
``_by`` family (keys made as ``map([f])``, the deadline checked as they are)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import Compiled, singular
from jqmagic.core.jqlang.errors import JqError
from jqmagic.core.jqlang.messages import cannot_iterate, type_error, type_error2
from jqmagic.core.jqlang.numbers import MAX_EXACT
from jqmagic.core.jqlang.runtime import check, chunked
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
    return list(_each_key(f, items, e))


def _each_key(f: Compiled, items: list, e: dict) -> Iterator[tuple]:
    """The sort keys of :func:`_keys_of`, one at a time (a group keeps only the distinct
    ones: a streamed group_by over millions of items holds no key per item)."""
    if f.one:  # sort_key([y]) without building the list
        one = f.one
        return ((5, (sort_key(one(x, e)),)) for x in chunked(items))
    g = f.gen
    return (sort_key(list(g(x, e))) for x in chunked(items))


def _groups(v: Any, f: Compiled, e: dict) -> list[list]:
    """jq's ``group_by``: items by equal keys, in key order, each group in input order
    (keys are hashable tuples: only the distinct ones are sorted)."""
    items = _by_items(v)
    if f.one:
        return _groups_of_one(items, f.one, e)
    groups: dict[tuple, list] = {}
    for key, item in zip(_each_key(f, items, e), items, strict=True):
        group = groups.get(key)
        if group is None:
            groups[key] = [item]
        else:
            group.append(item)
    return [groups[key] for key in sorted(groups)]


def _groups_of_one(items: list, one: Callable, e: dict) -> list[list]:
    """:func:`_groups` for a key of one value: while every key is a string, grouped by
    the string itself (jq orders strings as Python does), else by its sort key."""
    by_text: dict[str, list] = {}
    by_key: dict[tuple, list] | None = None
    for item in chunked(items):
        key = one(item, e)
        if by_key is None:
            if type(key) is str:
                group = by_text.get(key)
                if group is None:
                    by_text[key] = [item]
                else:
                    group.append(item)
                continue
            by_key = {(5, (sort_key(text),)): group for text, group in by_text.items()}
        by_key.setdefault((5, (sort_key(key),)), []).append(item)
    if by_key is None:
        return [by_text[text] for text in sorted(by_text)]
    return [by_key[key] for key in sorted(by_key)]


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
    return _minmax(items, _sort_keys(items), True)


@BUILTINS.unary("max")
def _max(v):
    items = _array(v, "cannot be iterated over")
    return _minmax(items, _sort_keys(items), False)


def _plain_kind(items: list) -> bool:
    """All strings, or all integers jq holds exactly: Python's order is jq's."""
    check()
    kinds = set(map(type, items))
    if kinds == {str}:
        return True
    return kinds == {int} and all(-MAX_EXACT <= x <= MAX_EXACT for x in items)


def _sort_keys(items: list) -> list[tuple]:
    """Each item's sort key, the deadline checked as they are made."""
    return [sort_key(x) for x in chunked(items)]


def _sorted_pairs(items: list) -> list[tuple]:
    """(key, item) pairs in jq's order (stable: equal keys keep input order)."""
    return sorted(zip(_sort_keys(items), items, strict=True), key=lambda p: p[0])


@BUILTINS.unary("sort")
def _sort(v):
    items = _array(v)
    if _plain_kind(items):
        return sorted(items)
    return [x for _, x in _sorted_pairs(items)]


@BUILTINS.unary("unique")
def _unique(v):
    if _plain_kind(_array(v)):
        return sorted(set(v))
    out, last = [], None
    for key, x in _sorted_pairs(v):
        if not out or key != last:
            out.append(x)
            last = key
    return out


def _by(name: str, pick: Callable[[Any, Compiled, dict], Any]) -> None:
    BUILTINS[(name, 1)] = lambda f: singular(lambda v, e: pick(v, f, e))


_by("sort_by", lambda v, f, e: [x for _, x in sorted(
    zip(_keys_of(f, _by_items(v), e), v, strict=True), key=lambda p: p[0])])
_by("group_by", _groups)
_by("unique_by", lambda v, f, e: [group[0] for group in _groups(v, f, e)])
_by("min_by", lambda v, f, e: _minmax(_by_items(v), _keys_of(f, _by_items(v), e), True))
_by("max_by", lambda v, f, e: _minmax(_by_items(v), _keys_of(f, _by_items(v), e), False))
