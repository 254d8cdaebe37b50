"""The jq builtins of the fast path, keyed by (name, arity), each as jq 1.8.2 defines it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import NOTHING, Compiled, many, optional, singular
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import cannot_iterate, error, type_error
from jqmagic.core.jqlang.runtime import CHUNK, check, chunked, depth_first
from jqmagic.core.jqlang.table import Table, direct

BUILTINS = Table()
truthy, sort_key = jv.truthy, jv.sort_key


def _items(v: Any) -> list:
    """The values ``.[]`` yields, as a list."""
    if type(v) is list:
        return v
    if type(v) is dict:
        return list(v.values())
    raise cannot_iterate(v)


# ---------------------------------------------------------------- of the input alone

BUILTINS.unary("length")(jv.length)
BUILTINS.unary("true")(lambda v: True)
BUILTINS.unary("false")(lambda v: False)
BUILTINS.unary("null")(lambda v: None)
BUILTINS.unary("type")(jv.type_name)
BUILTINS.unary("not")(lambda v: not truthy(v))


@BUILTINS.unary("keys")
def _keys(v):
    if type(v) is dict:
        return sorted(v)
    if type(v) is list:
        return list(range(len(v)))
    raise type_error(v, "has no keys")


@BUILTINS.unary("keys_unsorted")
def _keys_unsorted(v):
    if type(v) is dict:
        return list(v)
    return _keys(v)


@BUILTINS.unary("utf8bytelength")
def _utf8bytelength(v):
    if type(v) is str:
        return len(v.encode())
    raise type_error(v, "only strings have UTF-8 byte length")


@BUILTINS.unary("add")
def _add(v):
    return add_all(_items(v))


def add_all(items: list) -> Any:
    """``reduce .[] as $x (null; . + $x)`` in linear time: strings, arrays and objects
    (with nulls among them) are joined once, not added pairwise."""
    types = set(map(type, items))
    kinds = types - {type(None)}
    if types == {int} and len(items) > 1 and sum(map(abs, items)) <= jv.MAX_EXACT:
        check()  # ints whose every partial sum a double holds: the sum at C's speed
        return jv.computed(float(sum(items)))
    if kinds <= {int, float}:  # numbers (and nulls): one tight fold
        return jv.add_numbers(chunked(items) if kinds == types else
                              (x for x in chunked(items) if x is not None))
    if len(kinds) == 1 and kinds <= {str, list, dict}:
        kind = kinds.pop()
        present = [x for x in chunked(items) if x is not None]
        if kind is str:
            return "".join(present)
        if kind is list:
            out: list = []
            for x in present:
                out.extend(x)
                if len(out) > CHUNK:  # items may be long: look at the clock by size
                    check()
            return out
        merged: dict = {}
        for x in chunked(present):
            merged.update(x)
        return merged
    total = None
    for x in chunked(items):
        total = jv.add(total, x)
    return total


@BUILTINS.unary("reverse")
def _reverse(v):
    if v is None:
        return []
    if type(v) is list:
        return v[::-1]
    raise NotMine("reverse of this kind")


@BUILTINS.unary("first")
def _first(v):
    return jv.index(v, 0)


@BUILTINS.unary("last")
def _last(v):
    return jv.index(v, -1)


@BUILTINS.unary("to_entries")
def to_entries(v: Any) -> list:
    if type(v) is dict:
        return [{"key": k, "value": x} for k, x in v.items()]
    if type(v) is list:
        return [{"key": i, "value": x} for i, x in enumerate(v)]
    raise type_error(v, "has no keys")


@BUILTINS.unary("flatten")
def _flatten(v):
    return _flatten_to(v, -1)


def _flatten_to(v: Any, depth: int) -> list:
    out: list = []
    for x in _items(v):
        if type(x) is list and depth != 0:
            out.extend(_flatten_to(x, depth - 1))
        else:
            out.append(x)
    return out


@BUILTINS.unary("ascii_downcase")
def _downcase(v):
    if type(v) is str:  # ASCII text: Python's lower() is jq's, and much faster
        return v.lower() if v.isascii() else v.translate(_LOWER)
    raise error("explode input must be a string")


@BUILTINS.unary("ascii_upcase")
def _upcase(v):
    if type(v) is str:
        return v.upper() if v.isascii() else v.translate(_UPPER)
    raise error("explode input must be a string")


_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}


@BUILTINS.unary("abs")
def _abs(v):
    if type(v) in jv.NUMBER:  # jq 1.8.2: if . < 0 then - . else . end
        return jv.negate(v) if v < 0 else v
    if v is None or type(v) is bool:  # below every number: negated
        raise type_error(v, "cannot be negated")
    return v


@BUILTINS.builtin("empty")
def _empty():
    return many(lambda v, e: ())


@BUILTINS.builtin("recurse")
def _recurse():
    return many(lambda v, e: jv.recurse(v))


def _recurse_by(f: Compiled, cond: Compiled | None = None) -> Compiled:
    """``def r: ., (f | select(cond) | r); r``."""
    def gen(v, e):
        if cond is None:
            return depth_first(v, lambda x: f.gen(x, e))
        return depth_first(v, lambda x: (y for y in f.gen(x, e) for c in cond.gen(y, e)
                                         if truthy(c)))

    return many(gen)


BUILTINS[("recurse", 1)] = _recurse_by
BUILTINS[("recurse", 2)] = _recurse_by
BUILTINS[("nth", 1)] = lambda n: over_arg(n, jv.index)


def _type_filter(name: str, *kinds: str):
    wanted = frozenset(kinds)

    def opt(v, e):
        return v if jv.type_name(v) in wanted else NOTHING

    BUILTINS[(name, 0)] = lambda: optional(opt)


for _name, _kinds in {"nulls": ("null",), "booleans": ("boolean",), "numbers": ("number",),
                      "strings": ("string",), "arrays": ("array",), "objects": ("object",),
                      "iterables": ("array", "object"),
                      "scalars": ("null", "boolean", "number", "string"),
                      "values": ("boolean", "number", "string", "array", "object")}.items():
    _type_filter(_name, *_kinds)


@BUILTINS.builtin("any")
def _any0():
    return singular(lambda v, e: any(truthy(x) for x in _items(v)))


@BUILTINS.builtin("all")
def _all0():
    return singular(lambda v, e: all(truthy(x) for x in _items(v)))


# ---------------------------------------------------------------- with arguments


def _each(f: Compiled, v: Any, e: dict) -> Iterator[Any]:
    """Outputs of ``f`` (a parameter evaluated against the input)."""
    return iter(f.gen(v, e))


@BUILTINS.builtin("select", 1)
def _select(f):
    if f.one:
        fc = f.one

        def opt(v, e):
            c = fc(v, e)
            return NOTHING if c is None or c is False else v

        return optional(opt)
    g = f.gen
    return many(lambda v, e: (v for c in g(v, e) if truthy(c)))


@BUILTINS.builtin("map_values", 1)
def _map_values(f):
    g = f.gen

    def first(x, e):
        return next(iter(g(x, e)), NOTHING)

    def one(v, e):
        if type(v) is dict:
            return {k: y for k, x in v.items() if (y := first(x, e)) is not NOTHING}
        if type(v) is list:
            return [y for x in chunked(v) if (y := first(x, e)) is not NOTHING]
        raise cannot_iterate(v)

    return singular(one)


@BUILTINS.builtin("has", 1)
def has(f: Compiled) -> Compiled:
    def has(v, k):
        if type(v) is dict and type(k) is str:
            return k in v
        if type(v) is list and (type(k) is int or type(k) is float):
            if type(k) is float and k != k:
                raise NotMine("has() with nan")
            return 0 <= int(k) < len(v)
        if v is None:
            return False
        raise error(f"Cannot check whether {jv.type_name(v)} has a {jv.type_name(k)} key")

    return over_arg(f, has)


def over_arg(f: Compiled, fn: Callable[[Any, Any], Any]) -> Compiled:
    """``fn(input, x)`` for each output ``x`` of the argument ``f``."""
    if f.one:
        fa = f.one
        return singular(lambda v, e: fn(v, fa(v, e)))
    g = f.gen
    return many(lambda v, e: (fn(v, x) for x in g(v, e)))


@BUILTINS.builtin("first", 1)
def _first1(f):
    g = f.gen
    return optional(lambda v, e: next(iter(g(v, e)), NOTHING))


@BUILTINS.builtin("last", 1)
def _last1(f):
    g = f.gen

    def opt(v, e):
        out = NOTHING
        for out in g(v, e):  # noqa: B007 - the last one is wanted
            pass
        return out

    return optional(opt)


@BUILTINS.builtin("limit", 2)
def _limit(n, f):
    g, counts = f.gen, n.gen

    def gen(v, e):
        for count in counts(v, e):
            if type(count) is not int:
                raise NotMine("limit with a fraction")
            if count < 0:
                raise error("limit doesn't support negative count")
            if count:  # limit(0; f) never starts f
                yield from islice(g(v, e), count)

    return many(gen)


@BUILTINS.builtin("isempty", 1)
def _isempty(f):
    g = f.gen
    return singular(lambda v, e: next(iter(g(v, e)), NOTHING) is NOTHING)


def _over_items(fold: Callable[[Iterator[bool]], bool]):
    """``any(f)`` or ``all(f)`` (``fold`` is any or all): over ``f`` of each item."""
    def factory(f):
        g = f.gen
        return singular(lambda v, e: fold(truthy(c) for x in _items(v) for c in g(x, e)))
    return factory


def _over_outputs(fold: Callable[[Iterator[bool]], bool]):
    """``any(gen; cond)`` or ``all(gen; cond)``: over ``cond`` of each output of ``gen``."""
    def factory(gen_, cond):
        g, c, one = gen_.gen, cond.gen, cond.one
        if one is not None:
            return singular(lambda v, e: fold(truthy(one(x, e)) for x in g(v, e)))
        return singular(lambda v, e: fold(truthy(y) for x in g(v, e) for y in c(x, e)))
    return factory


for _name, _fold in (("any", any), ("all", all)):
    BUILTINS[(_name, 1)] = _over_items(_fold)
    BUILTINS[(_name, 2)] = _over_outputs(_fold)


@BUILTINS.builtin("flatten", 1)
def _flatten1(f):
    def flatten(v, depth):
        if type(depth) is not int:
            raise NotMine("flatten with a fraction")
        if depth < 0:
            raise error("flatten depth must not be negative")
        return _flatten_to(v, depth)

    return over_arg(f, flatten)


def _strings(name: str, fn: Callable[[str, str], Any], checked_by: str = "") -> None:
    """A string function of the input and one string argument (jq's own definitions
    check their arguments with ``checked_by``, startswith or endswith)."""
    def call(v, x):
        if type(v) is str and type(x) is str:
            return fn(v, x)
        raise error(f"{checked_by or name}() requires string inputs")

    BUILTINS[(name, 1)] = direct(lambda f: over_arg(f, call), call)


_strings("startswith", str.startswith)
_strings("endswith", str.endswith)
_strings("ltrimstr", lambda v, x: v[len(x):] if x and v.startswith(x) else v, "startswith")
_strings("rtrimstr", lambda v, x: v[:-len(x)] if x and v.endswith(x) else v, "endswith")
_strings("trimstr", lambda v, x: _trimstr(v, x), "startswith")


def _trimstr(v: str, x: str) -> str:
    """``ltrimstr($x) | rtrimstr($x)``."""
    v = v[len(x):] if x and v.startswith(x) else v
    return v[:-len(x)] if x and v.endswith(x) else v


def split(v: str, sep: str) -> list[str]:
    """jq's ``jv_string_split``: by characters for an empty separator; [] for ""."""
    if not v:
        return []
    return list(v) if not sep else v.split(sep)


def _split_error(v: Any, sep: Any) -> None:
    raise error("split input and separator must be strings")


BUILTINS[("split", 1)] = lambda f: over_arg(f, lambda v, x: split(v, x) if type(v) is str
                                            and type(x) is str else _split_error(v, x))
