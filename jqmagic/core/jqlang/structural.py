"""More of jq 1.8.2's own library, written out in Python with the same answers: streams
(``tostream``, ``fromstream``, ``truncate_stream``), ``walk``, ``skip``, ``add(f)``,
``IN``/``in``, ``bsearch``, ``combinations``, ``getpath``-based ``INDEX``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.builtins import add_all, has, over_arg
from jqmagic.core.jqlang.compiled import NOTHING, Compiled, many, singular
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import error, type_error
from jqmagic.core.jqlang.runtime import CHUNK, check
from jqmagic.core.jqlang.table import Table
from jqmagic.core.jqlang.text import tostring
from jqmagic.core.jqlang.updates import Writer

BUILTINS = Table()


def _tostream(v: Any, path: tuple = ()) -> Iterator[list]:
    """``tostream``: leaves as ``[path, value]``, each container closed by ``[path]``."""
    t = type(v)
    items = list(v.items()) if t is dict else list(enumerate(v)) if t is list else []
    if not items:
        yield [list(path), v]
        return
    for n, (key, x) in enumerate(items):
        if n % CHUNK == CHUNK - 1:
            check()
        yield from _tostream(x, (*path, key))
    yield [[*path, items[-1][0]]]


BUILTINS[("tostream", 0)] = lambda: many(lambda v, e: _tostream(v))


def _fromstream(f: Compiled) -> Compiled:
    """jq's ``fromstream``: the state ``{x, e}`` of its definition, kept in Python."""
    def gen(v, e):
        writer, x, emit = Writer(), None, False
        for n, event in enumerate(f.gen(v, e)):
            if n % CHUNK == CHUNK - 1:
                check()
            if emit:
                writer, x, emit = Writer(), None, False
            if type(event) is not list or not event or type(event[0]) is not list:
                raise NotMine("a stream event of another shape")
            path = event[0]
            if len(event) == 2:
                emit = len(path) == 0
                x = writer.setpath(x, path, event[1])
            else:
                emit = len(path) == 1
            if emit:
                yield x

    return many(gen)


BUILTINS[("fromstream", 1)] = _fromstream


def _truncate_stream(f: Compiled) -> Compiled:
    """``. as $n | null | stream | if (.[0] | length) > $n then .[0] |= .[$n:] ...``."""
    def gen(v, e):
        if type(v) is not int or v < 0:
            raise NotMine("truncate_stream by a depth that is not a whole number")
        for event in f.gen(None, e):
            if type(event) is not list or not event or type(event[0]) is not list:
                raise NotMine("a stream event of another shape")
            if len(event[0]) > v:
                yield [event[0][v:], *event[1:]]

    return many(gen)


BUILTINS[("truncate_stream", 1)] = _truncate_stream


def _walk(f: Compiled) -> Compiled:
    """``def w: if object then map_values(w) elif array then map(w) else . end | f``."""
    def walk(v, e):
        t = type(v)
        if t is dict:
            out = {}
            for k, x in v.items():
                y = next(iter(walk(x, e)), NOTHING)
                if y is not NOTHING:
                    out[k] = y
            v = out
        elif t is list:
            v = [y for x in v for y in walk(x, e)]
        return f.gen(v, e)

    return many(walk)


BUILTINS[("walk", 1)] = _walk


def _skip(n: Compiled, f: Compiled) -> Compiled:
    def gen(v, e):
        for count in n.gen(v, e):
            if type(count) is not int:
                raise NotMine("skip by a count that is not a whole number")
            if count < 0:
                raise error("skip doesn't support negative count")
            for i, x in enumerate(f.gen(v, e)):
                if i >= count:
                    yield x

    return many(gen)


BUILTINS[("skip", 2)] = _skip


def _add(f: Compiled) -> Compiled:
    def one(v, e):
        items = []
        for n, x in enumerate(f.gen(v, e)):
            if n % CHUNK == CHUNK - 1:
                check()
            items.append(x)
        return add_all(items)

    return singular(one)


BUILTINS[("add", 1)] = _add
BUILTINS[("IN", 1)] = lambda s: singular(lambda v, e: any(
    jv.equal(x, v) for x in s.gen(v, e)))
BUILTINS[("IN", 2)] = lambda src, s: singular(lambda v, e: any(  # any(src == s; .)
    jv.equal(x, y) for y in s.gen(v, e) for x in src.gen(v, e)))


def _in(xs: Compiled) -> Compiled:
    return many(lambda v, e: (y for x in xs.gen(v, e)
                              for y in has(_constant(v)).gen(x, e)))


def _constant(value: Any) -> Compiled:
    return singular(lambda v, e: value)


BUILTINS[("in", 1)] = _in


def _bsearch(v: Any, target: Any) -> int:
    if type(v) is not list:
        raise type_error(v, "cannot be searched from")
    key, low, high = jv.sort_key(target), 0, len(v)
    while low < high:
        mid = (low + high) // 2
        other = jv.sort_key(v[mid])
        if other == key:
            return mid
        if key < other:
            high = mid
        else:
            low = mid + 1
    return -1 - low


BUILTINS[("bsearch", 1)] = lambda f: over_arg(f, _bsearch)


def _combinations(v: Any) -> Iterator[list]:
    """``if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $y |
    [$x] + $y end``."""
    if type(v) is not list:
        raise NotMine("combinations of a value that is not an array")
    items = v
    if not items:
        yield []
        return
    for n, x in enumerate(jv.iterate(items[0])):
        if n % CHUNK == CHUNK - 1:
            check()
        for rest in _combinations(items[1:]):
            yield [x, *rest]


BUILTINS[("combinations", 0)] = lambda: many(lambda v, e: _combinations(v))
BUILTINS[("combinations", 1)] = lambda n: many(lambda v, e: (
    c for count in n.gen(v, e) for c in _combinations([v] * _count(count))))


def _count(n: Any) -> int:
    if type(n) is not int:
        raise NotMine("combinations by a count that is not a whole number")
    return max(n, 0)


BUILTINS[("have_decnum", 0)] = lambda: singular(lambda v, e: True)  # libjq 1.8.2 as built
BUILTINS[("have_literal_numbers", 0)] = lambda: singular(lambda v, e: True)


def _index_by(stream: Compiled, key: Compiled) -> Compiled:
    """``INDEX(stream; idx_expr)``: ``reduce stream as $row ({}; .[$row | idx_expr |
    tostring] = $row)``."""
    def one(v, e):
        out: dict = {}
        for row in stream.gen(v, e):
            for k in key.gen(row, e):
                out[tostring(k)] = row
        return out

    return singular(one)


BUILTINS[("INDEX", 2)] = _index_by
BUILTINS[("INDEX", 1)] = lambda key: _index_by(many(lambda v, e: jv.iterate(v)), key)


def _pairs(idx: Any, rows: Iterator, key: Compiled, e: dict) -> Iterator[list]:
    """``[., $idx[idx_expr]]`` for each row, ``$idx`` one value (one array per row, with
    as many lookups as ``idx_expr`` has outputs)."""
    for row in rows:
        yield [row, *(jv.index(idx, k) for k in key.gen(row, e))]


# JOIN($idx; ...): each value of the first argument is a run of its own, as $idx binds
BUILTINS[("JOIN", 2)] = lambda idx, key: many(lambda v, e: (  # [.[] | [., $idx[key]]]
    list(_pairs(i, jv.iterate(v), key, e)) for i in idx.gen(v, e)))
BUILTINS[("JOIN", 3)] = lambda idx, stream, key: many(lambda v, e: (
    pair for i in idx.gen(v, e) for pair in _pairs(i, stream.gen(v, e), key, e)))
BUILTINS[("JOIN", 4)] = lambda idx, stream, key, join: many(lambda v, e: (
    y for i in idx.gen(v, e) for pair in _pairs(i, stream.gen(v, e), key, e)
    for y in join.gen(pair, e)))
