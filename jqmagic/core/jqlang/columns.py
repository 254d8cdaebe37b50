"""Columns of the lists the document cache holds: a field chain's value for every item.

Over a cached JSON Lines log every question walks the same 100k objects, and most of its
time goes to fetching ``.actor.login`` out of objects scattered in memory. A list the cache
owns (:func:`own`) keeps, per field chain a fused loop reads on its items, the chain's
value for each item, built on first use; a later loop reads the chain from the column,
beside the item (:func:`zipped`). An item whose chain would be an error (``.a`` of a
string) holds :data:`UNREAD`, and the loop evaluates the chain itself there, so the error
is raised where and when jq raises it.

>>> rows = [{"a": {"b": 1}}, None, "text"] * 1000
>>> own(rows, budget=1 << 20, fresh=False)
>>> [b for _, b in zipped(rows, (("a", "b"),))][:3]
[1, None, <unread>]
>>> forget(rows)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from itertools import repeat
from typing import Any

from jqmagic.core.jqlang.runtime import check, chunked
from jqmagic.core.jqlang.values import iterate


class _Unread:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<unread>"


UNREAD = _Unread()
"""An item whose chain is an error (or a chain without a column): the loop reads it."""

MIN_ITEMS = 1024
"""Shorter lists are cheap to walk: they get no columns."""


class _Store:
    """One owned list and its columns, within a budget of bytes (8 a cell)."""

    __slots__ = ("values", "columns", "cells", "whole", "asked", "fresh")

    def __init__(self, values: list, budget: int, fresh: bool) -> None:
        self.values = values
        self.columns: dict[tuple[str, ...], list] = {}
        self.cells = budget // 8
        self.whole: set[tuple[str, ...]] = set()  # chains read without an error
        self.asked: set[tuple[str, ...]] = set()  # chains a loop read on some items
        self.fresh = fresh  # just parsed: the question that parsed it builds no column

    def column_asked_again(self, chain: tuple[str, ...]) -> Any:
        """The column of a chain a loop reads on some items only (under a ``select``):
        built the second time one asks (a first question reads those items alone)."""
        if chain in self.columns or chain in self.asked:
            return self.column(chain)
        self.asked.add(chain)
        return repeat(UNREAD)

    def column(self, chain: tuple[str, ...]) -> Any:
        column = self.columns.get(chain)
        if column is None:
            if len(self.values) * (len(self.columns) + 1) > self.cells:
                return repeat(UNREAD)
            prefix = self.columns.get(chain[:1]) if len(chain) > 1 else None
            column = self.columns[chain] = _read(self.values, chain) if prefix is None \
                else _read(prefix, chain[1:])
            if UNREAD not in column:
                self.whole.add(chain)
        return column

    def prepare(self, chains: tuple[tuple[str, ...], ...]) -> None:
        """Build first the column of a name two new chains start with (``.payload.size``
        and ``.payload.number`` then walk the events once, not twice)."""
        starts = Counter(chain[0] for chain in chains if len(chain) > 1 and
                         chain not in self.columns and chain[:1] not in self.columns)
        for name, new in starts.items():
            if new > 1:
                self.column((name,))


def _read(values: list, chain: tuple[str, ...]) -> list:
    """``.a.b...`` of each value (an object's member, null of null, else UNREAD), in one
    pass: each pass over 100k scattered objects costs as much as the reads."""
    return _reader(len(chain))(chunked(values), *chain)


@cache
def _reader(length: int) -> Callable[..., list]:
    """The comprehension reading a chain of ``length`` names, written out once."""
    value = "v"
    for at in range(length):
        held = f"w{at}"
        value = f"({held}.get(n{at}) if type({held} := {value}) is dict else None " \
                f"if {held} is None else UNREAD)"
    names = ", ".join(f"n{at}" for at in range(length))
    text = f"def read(values, {names}):\n    return [{value} for v in values]\n"
    scope = {"UNREAD": UNREAD}
    exec(compile(text, "<jq column>", "exec"), scope)  # noqa: S102 - our own text
    return scope["read"]


_OWNED: dict[int, _Store] = {}


def own(values: Any, budget: int, fresh: bool = True) -> None:
    """Keep columns for ``values`` (a list the caller holds unchanged until it calls
    :func:`forget`), in at most ``budget`` bytes; ``fresh``: the values were just parsed
    for a question, whose loops read them as they are (a column costs a pass over
    scattered objects: it pays when a later question reads it again)."""
    if type(values) is list and len(values) >= MIN_ITEMS:
        _OWNED[id(values)] = _Store(values, budget, fresh)


def forget(values: Any) -> None:
    """Drop the columns of ``values``."""
    store = _OWNED.get(id(values))
    if store is not None and store.values is values:
        del _OWNED[id(values)]


def forget_all() -> None:
    _OWNED.clear()


def whole(items: Any, chain: tuple[str, ...]) -> list | None:
    """``[.[] | .a.b...]`` of an owned list, a copy of its column; None when the list is
    not owned or the chain is an error on an item (the loop then runs)."""
    store = _OWNED.get(id(items))
    if store is None or store.values is not items:
        return None
    column = store.column(chain)
    if chain not in store.whole:
        return None
    check()  # a copy at C's speed: one check of the clock
    return column.copy()


def zipped(items: Any, chains: tuple[tuple[str, ...], ...],
           some: tuple[tuple[str, ...], ...] = ()) -> Iterator[tuple]:
    """``(item, chain values...)`` for each item jq's ``.[]`` gives of ``items``: from the
    columns of an owned list, else UNREAD for each chain (the loop reads them). The
    chains in ``some`` are read on some items only (see :meth:`_Store.column_asked_again`)."""
    store = _OWNED.get(id(items))
    if store is not None and store.values is items:
        if store.fresh:  # the question that parsed it: its answer first, columns later
            store.fresh, some = False, chains
        store.prepare(tuple(chain for chain in chains if chain not in some))
        return zip(chunked(items), *[
            store.column_asked_again(chain) if chain in some else store.column(chain)
            for chain in chains], strict=False)
    return zip(iterate(items), *[repeat(UNREAD) for _ in chains], strict=False)
