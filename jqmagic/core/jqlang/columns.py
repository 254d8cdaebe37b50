"""Columns of the lists the document cache holds: a field chain's value for every item.

Over a cached JSON Lines log every question walks the same 100k objects, and most of its
time goes to fetching ``.actor.login`` out of objects scattered in memory. A list the cache
owns (:func:`own`) keeps, per field chain a fused loop reads on its items, the chain's
value for each item: recorded by a loop that reads the chain once an item (:func:`recorded`),
else built the second time a loop reads it (a pass over scattered objects costs about two
reads in a loop: it pays when the chain is asked again); a later loop reads the chain from
the column, beside the item (:func:`zipped`). An item
whose chain would be an error (``.a`` of a string) holds :data:`UNREAD`, and the loop
evaluates the chain itself there, so the error is raised where and when jq raises it. A
column whose strings repeat, once used whole (:mod:`.vector`), keeps one object for each
distinct string (:func:`shared`).

>>> rows = [{"a": {"b": 1}}, None, "text"] * 1000
>>> own(rows, budget=1 << 20)
>>> zipped(rows, (("a", "b"),)) is None  # a first loop reads the items
True
>>> [b for _, b in zipped(rows, (("a", "b"),))][:3]  # the second, the column
[1, None, <unread>]
>>> forget(rows)
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from itertools import chain as chained
from itertools import repeat
from typing import Any

from jqmagic.core.jqlang.boundinputs import Hollow, listed
from jqmagic.core.jqlang.runtime import check, chunked


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

    __slots__ = ("values", "columns", "cells", "whole", "asked", "repeating", "kinds",
                 "shared")

    def __init__(self, values: list, budget: int) -> None:
        self.values = values
        self.columns: dict[tuple[str, ...], list] = {}
        self.cells = budget // 8
        self.whole: set[tuple[str, ...]] = set()  # chains read without an error
        self.asked: set[tuple[str, ...]] = set()  # chains a loop has read once
        self.repeating: dict[tuple[str, ...], bool] = {}  # see repeats()
        self.kinds: dict[tuple[str, ...], frozenset[type]] = {}  # see kinds()
        self.shared: set[tuple[str, ...]] = set()  # see shared()

    def columns_of(self, chains: tuple[tuple[str, ...], ...],
                   recordable: tuple[tuple[str, ...], ...] = ()) -> list | None:
        """The columns of ``chains`` (UNREAD for one not built), or None when none is:
        a column is built the second time a loop reads its chain (a pass over scattered
        objects costs more than reading them in the loop: it pays when asked again), but
        for the ``recordable`` chains of a loop that finds no column: that loop records
        them as it reads them (see :func:`recorded`)."""
        again = [chain for chain in chains if chain in self.asked and chain not in self.columns]
        if not any(chain in self.columns for chain in chains):
            again = [chain for chain in again if chain not in recordable]
        starts = Counter(chain[0] for chain in again if len(chain) > 1)
        for name, new in starts.items():  # .payload.size and .payload.number: one walk
            if new > 1 and (name,) not in self.columns:
                self.build((name,))
        for chain in again:
            self.build(chain)
        self.asked.update(chains)
        found = [self.columns.get(chain) for chain in chains]
        if not any(column is not None for column in found):
            return None
        return [repeat(UNREAD) if column is None else column for column in found]

    def room(self) -> bool:
        return len(self.values) * (len(self.columns) + 1) <= self.cells

    def build(self, chain: tuple[str, ...]) -> None:
        """The column of ``chain``, with one object for each distinct value when its
        strings repeat (see :func:`shared`), if there is room: in one pass in C where the
        extension is built (:data:`C_READ`), its kinds learnt and its strings shared in
        the same pass."""
        if not self.room():
            return  # over the budget: read in the loop
        prefix = self.columns.get(chain[:1]) if len(chain) > 1 else None
        source, rest = (listed(self.values), chain) if prefix is None else \
            (prefix, chain[1:])
        if C_READ is None:
            self.adopt(chain, read_chain(source, rest))
            return
        check()
        share = self.repeats(chain)
        column, bits = C_READ(source, rest, UNREAD, share)
        if not bits & _OTHER:
            self.kinds[chain] = _kinds(bits)
        if share:
            self.shared.add(chain)
        self.adopt(chain, column, not bits & _UNREAD_BIT)

    def repeats(self, chain: tuple[str, ...]) -> bool:
        """Whether each string of ``chain`` comes twice or more on average: see
        :func:`repeats`."""
        known = self.repeating.get(chain)
        if known is None:
            held = self.columns.get(chain)  # else the values: made, if Hollow
            step = max(1, len(self.values) // SAMPLE)
            sample = held[::step] if held is not None else \
                read_chain(listed(self.values)[::step], chain)
            seen = Counter(v for v in sample if type(v) is str)
            times = Counter(seen.values())
            distinct = len(seen) + times[1] * (times[1] - 1) / (2 * (times[2] + 1))
            known = self.repeating[chain] = bool(seen) and 2 * distinct <= len(self.values)
        return known

    def adopt(self, chain: tuple[str, ...], column: list, whole: bool | None = None) -> None:
        """``column`` (:func:`read_chain` of the values) as the column of ``chain``
        (``whole``: whether it holds no UNREAD, when known)."""
        self.columns[chain] = column
        _out_of_sight()
        if UNREAD not in column if whole is None else whole:
            self.whole.add(chain)
            if self.repeating.get(chain, False):
                self.share(chain)

    def kinds_of(self, chain: tuple[str, ...]) -> frozenset[type]:
        known = self.kinds.get(chain)
        if known is None:
            check()
            column = self.columns[chain]
            bits = _OTHER if C_READ is None else C_READ(column, (), UNREAD, False)[1]
            known = self.kinds[chain] = frozenset(map(type, column)) if bits & _OTHER \
                else _kinds(bits)
        return known

    def share(self, chain: tuple[str, ...]) -> None:
        """Each string of the column replaced by the first one equal to it (a pass of its
        own: inside the reading pass, it cost twice as much). Over a few shared strings a
        hash lookup costs a third of what it costs over strings scattered in memory."""
        if chain in self.shared:
            return
        check()
        column, first = self.columns[chain], {}
        if C_READ is not None:  # one pass in C, the kinds learnt in it
            column[:], bits = C_READ(column, (), UNREAD, True)
            if not bits & _OTHER:
                self.kinds[chain] = _kinds(bits)
        elif self.kinds_of(chain) <= {str, type(None)}:
            column[:] = map(first.setdefault, column, column)
        else:  # strings alone: 1, 1.0 and true are equal keys
            column[:] = [first.setdefault(x, x) if type(x) is str else x for x in column]
        self.shared.add(chain)


def _out_of_sight() -> None:
    """A new column is as long-lived and free of cycles as the document whose values it
    holds: out of the collector's sight too (``gc.freeze``, as the parse does), or each
    young collection would walk its 100k items (8 ms at a time)."""
    gc.freeze()


C_READ: Callable[[list, tuple[str, ...], Any, bool], tuple[list, int]] | None = None
"""``_jvbuild.chain_column`` where the extension is built (:mod:`.query.projected` sets
it): ``(column, kinds)`` of a chain over a list in one pass in C, its strings shared when
asked; the kinds as the bits of :data:`_KINDS` (:data:`_OTHER`: a value of another type)."""

C_OBJECTS: Callable[[tuple[str, ...], tuple[list, ...]], list] | None = None
"""``_jvbuild.zip_objects`` where the extension is built: see :func:`objects`."""

C_JOINED: Callable[[list, tuple, Any], tuple] | None = None
"""``_jvbuild.joined_chains`` where the extension is built: see :func:`joined`."""

_KINDS = ((1, type(None)), (2, bool), (4, int), (8, float), (16, str), (32, list),
          (64, dict), (128, _Unread))
_UNREAD_BIT, _OTHER, _NUMBER_BITS, _STR_BIT = 128, 256, 4 | 8, 16


def _kinds(bits: int) -> frozenset[type]:
    return frozenset(kind for bit, kind in _KINDS if bits & bit)


def read_chain(values: list, chain: tuple[str, ...]) -> list:
    """``.a.b...`` of each value (an object's member, null of null, else UNREAD): in one
    pass in C (:data:`C_READ`), else a name at a time in C while every value on the way
    is an object or null, else in one pass of Python."""
    if C_READ is not None and type(values) is list:
        return C_READ(values, chain, UNREAD, False)[0]
    try:
        return _read_in_c(values, chain)
    except TypeError:  # a value on the way that is neither: UNREAD there
        return _reader(len(chain))(chunked(values), *chain)


def of_each(values: Any, chain: tuple[str, ...], allowed: int = ~_UNREAD_BIT) -> list | None:
    """``.a.b...`` of each of a list of ``values`` in one pass in C (sort_by's keys of
    objects a question made); None without :data:`C_READ` or where a value's chain is an
    error (the caller reads each then, raising it in jq's order), or of a kind outside
    the bits ``allowed`` (:data:`_KINDS`)."""
    if C_READ is None or type(values) is not list:
        return None
    check()
    column, bits = C_READ(values, chain, UNREAD, False)
    return None if bits & ~allowed else column


def numbers(values: Any, chain: tuple[str, ...]) -> list | None:
    """:func:`of_each` when every value of the chain is an int or a float, else None."""
    return of_each(values, chain, _NUMBER_BITS)


def joined(lists: list, chains: tuple[tuple[str, ...], ...] = ()) -> tuple[list, list]:
    """``[.[] | .[]?]`` of a column of lists and nulls, and each chain's column over those
    items, None for one with a value not a number (:func:`numbers`): in one pass in C
    where the extension is built (:data:`C_JOINED`), each list and item read once."""
    check()
    if C_JOINED is None:
        items = list(chained.from_iterable(filter(None, lists)))
        return items, [numbers(items, names) for names in chains]
    items, found, bits, _ = C_JOINED(lists, chains, UNREAD)
    return items, [None if kinds & ~_NUMBER_BITS else column
                   for column, kinds in zip(found, bits, strict=True)]


def objects(keys: tuple[str, ...], found: tuple[list, ...]) -> list:
    """``{keys[0]: found[0][i], ...}`` for each place ``i`` of the columns ``found``."""
    check()
    if C_OBJECTS is not None:
        return C_OBJECTS(keys, found)
    return list(map(dict, map(zip, repeat(keys), zip(*found, strict=True))))


_NOTHING_HELD: dict = {}  # null's members: dict.get of it is null (never changed)


def _read_in_c(values: list, chain: tuple[str, ...]) -> list:
    level = values
    for name in chain:
        check()
        try:
            level = list(map(dict.get, level, repeat(name)))
        except TypeError:  # nulls on the way (a missing .org), or another value
            level = list(map(dict.get, [_NOTHING_HELD if x is None else x for x in level],
                             repeat(name)))
    return level


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


def own(values: Any, budget: int) -> None:
    """Keep columns for ``values`` (a list the caller holds unchanged until it calls
    :func:`forget`), in at most ``budget`` bytes."""
    if type(values) in (list, Hollow) and len(values) >= MIN_ITEMS:
        _OWNED[id(values)] = _Store(values, budget)


def allow(values: Any, budget: int) -> None:
    """The columns of an owned list may take ``budget`` bytes now."""
    store = _store(values)
    if store is not None:
        store.cells = budget // 8


def forget(values: Any) -> None:
    """Drop the columns of ``values``."""
    store = _OWNED.get(id(values))
    if store is not None and store.values is values:
        del _OWNED[id(values)]


def keep_only(values: Any, kept: Callable[[tuple[str, ...]], bool]) -> None:
    """Drop the columns of ``values`` whose chain ``kept`` refuses (their items were
    replaced by fuller ones); the others hold values equal to the new items'."""
    store = _store(values)
    if store is None:
        return
    for chain in [chain for chain in store.columns if not kept(chain)]:
        del store.columns[chain]
        store.whole.discard(chain)
        store.shared.discard(chain)
        store.kinds.pop(chain, None)


def forget_all() -> None:
    _OWNED.clear()


SAMPLE = 4096


def repeats(items: Any, chain: tuple[str, ...]) -> bool:
    """Whether each string of ``chain`` comes twice or more, on average, in an owned list:
    then a string builtin of them is worth a memo (logins, types, names of a log's events),
    not of ids, timestamps or unique names. The distinct strings are estimated from a
    sample spread over the list (Chao's estimator: those seen, and more the more of them
    were seen once than twice)."""
    store = _store(items)
    return store is not None and store.repeats(chain)


def _store(items: Any) -> _Store | None:
    store = _OWNED.get(id(items))
    return store if store is not None and store.values is items else None


def whole(items: Any, chain: tuple[str, ...]) -> list | None:
    """``[.[] | .a.b...]`` of an owned list, a copy of its column; None when there is none
    (not owned, not built yet, or the chain is an error on an item: the loop runs)."""
    store = _store(items)
    if store is None:
        return None
    if chain in store.asked:
        store.columns_of((chain,))
    elif chain in store.columns:
        pass
    elif repeats(items, chain):  # built at once, its strings shared
        column(items, chain)
    else:  # the loop reads it, and records it (see columns_of)
        return None
    if chain not in store.whole:
        return None
    check()  # a copy at C's speed: one check of the clock
    return store.columns[chain].copy()


def column(items: Any, chain: tuple[str, ...], build: bool = True) -> list | None:
    """The column of ``chain`` on an owned list, built now when ``build`` and there is
    room (for an answer made of it whole: :mod:`.vector`); None when it is not there or
    an item's chain is an error. The caller must not change it."""
    store = _store(items)
    if store is None:
        return None
    if build and chain not in store.columns:
        store.build(chain)
        store.asked.add(chain)
    return store.columns[chain] if chain in store.whole else None


def asked(items: Any, chain: tuple[str, ...]) -> bool:
    """Whether a loop has read ``chain`` on an owned list before (see columns_of)."""
    store = _store(items)
    return store is not None and chain in store.asked


def kinds(items: Any, chain: tuple[str, ...]) -> frozenset[type]:
    """The Python types of the values in the column of ``chain`` (which must exist)."""
    return _OWNED[id(items)].kinds_of(chain)


def shared(items: Any, chain: tuple[str, ...]) -> list:
    """The column of ``chain`` (which must be whole) with one object for each distinct
    string: ``"PushEvent"`` parsed 14k times, kept once (see :meth:`_Store.share`)."""
    store = _OWNED[id(items)]
    store.share(chain)
    return store.columns[chain]


def zipped(items: Any, chains: tuple[tuple[str, ...], ...],
           recordable: tuple[tuple[str, ...], ...] = ()) -> Iterator[tuple] | None:
    """``(item, chain values...)`` for each item jq's ``.[]`` gives of an owned list, from
    its columns (UNREAD where the loop reads the chain itself); None when it has none of
    them (the loop then reads the items as they are, recording the ``recordable``)."""
    store = _store(items)
    found = None if store is None else store.columns_of(chains, recordable)
    return None if found is None else zip(chunked(listed(items)), *found, strict=False)


class Made(dict):
    """Columns made beside the values' decoding, by chain, the kinds of values met in
    each where the decoder counted them (bits of :data:`_KINDS`), and the chains whose
    strings it made one object for each distinct text (:meth:`_Store.share`'s work done),
    with how many distinct strings their last member held (those of the column and more)."""

    def __init__(self, *args: Any, kinds: dict[tuple[str, ...], int] | None = None,
                 distinct: dict[tuple[str, ...], int] | None = None) -> None:
        super().__init__(*args)
        self.kinds = kinds or {}
        self.distinct = distinct or {}


def adopted(items: Any, made: dict[tuple[str, ...], list]) -> None:
    """Columns made beside the values' decoding (:func:`read_chain` of them, block by
    block while each block's values were fresh in memory: a pass over them later costs
    a cache miss an item), for an owned list with room for them; their kinds taken
    where ``made`` is a :class:`Made` that knows them."""
    store = _store(items)
    known, distinct = getattr(made, "kinds", {}), getattr(made, "distinct", {})
    for chain, column in made.items():
        if store is not None and chain not in store.columns and \
                len(column) == len(store.values) and store.room():
            bits = known.get(chain)
            if bits is not None and not bits & _OTHER:
                store.kinds[chain] = _kinds(bits)
            if chain in distinct:
                store.shared.add(chain)
                if bits is not None and bits & _STR_BIT and 2 * distinct[chain] <= len(column):
                    store.repeating[chain] = True
            store.adopt(chain, column, None if bits is None else not bits & _UNREAD_BIT)


def recorded(items: Any, chain: tuple[str, ...], values: list) -> None:
    """A loop read ``chain`` once for each of the items, in order, with no error: its
    column, when the items are an owned list with room for one more."""
    store = _store(items)
    if store is not None and chain not in store.columns and \
            len(values) == len(store.values) and store.room():
        store.columns[chain] = values
        _out_of_sight()
        store.whole.add(chain)
        store.asked.add(chain)
