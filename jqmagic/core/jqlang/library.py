"""Builtins jq 1.8.2 defines in its own jq library (``range``, ``while``, ``with_entries``,
``paths``, ``contains``...), written out in Python with the same answers."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.builtins import over_arg, to_entries
from jqmagic.core.jqlang.compiled import Compiled, many, singular
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import bad_key, error, type_error, type_error2
from jqmagic.core.jqlang.numbers import MAX_EXACT
from jqmagic.core.jqlang.runtime import CHUNK, check
from jqmagic.core.jqlang.table import Table

BUILTINS = Table()


def _whole(n: Any) -> int:
    """A count or bound the fast path can step through exactly."""
    if type(n) is int and abs(n) <= MAX_EXACT:
        return n
    raise NotMine("a range bound that is not a whole number")


def _range(start: Any, stop: Any, step: Any = 1) -> Iterator[int]:
    start, stop, step = _whole(start), _whole(stop), _whole(step)
    if step == 0:
        raise NotMine("range with a zero step")
    for n, x in enumerate(range(start, stop, step)):
        if n % CHUNK == CHUNK - 1:
            check()
        yield x


def _products(args: list[Compiled], v: Any, e: dict) -> Iterator[tuple]:
    """Every combination of the arguments' outputs, the first argument outermost."""
    if not args:
        yield ()
        return
    for x in args[0].gen(v, e):
        for rest in _products(args[1:], v, e):
            yield (x, *rest)


BUILTINS[("range", 1)] = lambda n: many(lambda v, e: (
    x for (stop,) in _products([n], v, e) for x in _range(0, stop)))
BUILTINS[("range", 2)] = lambda a, b: many(lambda v, e: (
    x for lo, hi in _products([a, b], v, e) for x in _range(lo, hi)))
BUILTINS[("range", 3)] = lambda a, b, c: many(lambda v, e: (
    x for lo, hi, by in _products([a, b, c], v, e) for x in _range(lo, hi, by)))


def _loop(f: Compiled, cond: Compiled, until: bool = False):
    """``while(cond; f)`` and ``until(cond; f)`` on one-output arguments."""
    if f.one is None or cond.one is None:
        raise NotMine("a loop over generators")
    step, test = f.one, cond.one

    def gen(v, e):
        n = 0
        while True:
            n += 1
            if n % CHUNK == 0:
                check()
            done = jv.truthy(test(v, e))
            if until and done:
                yield v
                return
            if not until and not done:
                return
            if not until:
                yield v
            v = step(v, e)

    return many(gen)


BUILTINS[("while", 2)] = lambda c, f: _loop(f, c)
BUILTINS[("until", 2)] = lambda c, f: _loop(f, c, until=True)
def _repeat(f: Compiled) -> Compiled:
    """jq 1.8.2's ``repeat(f)`` (``def _repeat: f, _repeat``): the outputs of ``f`` on the
    same input, again and again."""
    def gen(v, e):
        while True:
            check()
            yield from f.gen(v, e)

    return many(gen)


BUILTINS[("repeat", 1)] = _repeat


def _contains(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        return all(k in a and _contains(a[k], x) for k, x in b.items())
    if ta is list and tb is list:
        return all(any(_contains(x, y) for x in a) for y in b)
    if ta is str and tb is str:
        return b in a
    return _kind(a) == _kind(b) and jv.equal(a, b)  # true and false: two kinds here


def _contains_checked(a: Any, b: Any) -> bool:
    """``contains``: an error for two kinds at the top, false below it."""
    if _kind(a) != _kind(b):
        raise type_error2(a, b, "cannot have their containment checked")
    return _contains(a, b)


def _kind(v: Any) -> str:
    return ("true" if v else "false") if type(v) is bool else jv.type_name(v)


BUILTINS[("contains", 1)] = lambda f: over_arg(f, _contains_checked)
BUILTINS[("inside", 1)] = lambda f: over_arg(f, lambda v, x: _contains_checked(x, v))


def _indices(v: Any, x: Any) -> Any:
    """jq 1.8.2's ``indices($i)``: ``.[$i]`` of an array (``.[[$i]]`` for a non-array),
    ``_strindices`` of two strings, else ``.[$i]`` (``null | indices(null)`` errors)."""
    if type(v) is list:
        return jv.index(v, x if type(x) is list else [x])
    if type(v) is str and type(x) is str:
        return _find_all(v, x) if x else []  # jq 1.8.2: code points
    return jv.index(v, x)


def _find_all(text: str, part: str) -> list[int]:
    """Where ``part`` starts in ``text``, overlaps included."""
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        if len(found) % CHUNK == 0:
            check()
        at = text.find(part, at + 1)
    return found


def _first_index(v: Any, x: Any) -> Any:
    """``indices($i) | .[0]``."""
    return jv.index(_indices(v, x), 0)


def _last_index(v: Any, x: Any) -> Any:
    """``indices($i) | .[-1:][0]``."""
    return jv.index(jv.slice_of(_indices(v, x), -1, None), 0)


BUILTINS[("indices", 1)] = lambda f: over_arg(f, _indices)


def _strindices(v: Any, x: Any) -> list[int]:
    if type(v) is not str:
        raise type_error(v, "cannot be searched, as it is not a string")
    if type(x) is not str:
        raise type_error(x, "is not a string")
    return _indices(v, x)


BUILTINS[("_strindices", 1)] = lambda f: over_arg(f, _strindices)
BUILTINS[("index", 1)] = lambda f: over_arg(f, _first_index)
BUILTINS[("rindex", 1)] = lambda f: over_arg(f, _last_index)


def _rounding(name: str, fn):
    @BUILTINS.unary(name)
    def call(v):
        if type(v) is int and abs(v) <= MAX_EXACT:
            return v
        if type(v) is int or type(v) is float:  # past 2^53 jq rounds the int to a double
            return jv.computed(math.copysign(float(fn(float(v))), v))  # ceil(-0.5): -0
        raise type_error(v, "number required")

    call.numbers_only = True  # any other input is a jq error: a fused ? tests the type first


_rounding("floor", math.floor)
_rounding("ceil", math.ceil)


@BUILTINS.unary("sqrt")
def _sqrt(v):
    if type(v) in jv.NUMBER and v >= 0:
        return jv.computed(math.sqrt(v))
    raise NotMine("sqrt of this value")


# what jq 1.8.2's trim takes off: ASCII and Unicode spaces (not \x1c-\x1f, as Python would)
_WHITESPACE = ("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
               "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def _trimmer(name: str, fn):
    @BUILTINS.unary(name)
    def call(v):
        if type(v) is str:
            return fn(v)
        raise error("trim input must be a string")


_trimmer("trim", lambda s: s.strip(_WHITESPACE))
_trimmer("ltrim", lambda s: s.lstrip(_WHITESPACE))
_trimmer("rtrim", lambda s: s.rstrip(_WHITESPACE))


@BUILTINS.unary("explode")
def _explode(v):
    if type(v) is str:
        return [ord(c) for c in v]
    raise error("explode input must be a string")


@BUILTINS.unary("implode")
def _implode(v):
    """Code points to text; one outside Unicode or a surrogate becomes U+FFFD."""
    if type(v) is not list:
        raise error("implode input must be an array")
    chars = []
    for c in v:
        if type(c) is not int and type(c) is not float or c != c:
            raise type_error(c, "can't be imploded, unicode codepoint needs to be numeric")
        if type(c) is float and not math.isfinite(c):
            raise NotMine("implode of an infinite code point")
        c = int(c)
        chars.append(chr(c) if 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF else "\ufffd")
    return "".join(chars)


@BUILTINS.unary("transpose")
def _transpose(v):
    if type(v) is list and all(type(row) is list for row in v):
        width = max((len(row) for row in v), default=0)
        return [[row[i] if i < len(row) else None for row in v] for i in range(width)]
    raise NotMine("transpose of this value")


_NONE = object()


@BUILTINS.unary("from_entries")
def from_entries(v):
    """``map({(.key // .Key // .name // .Name): if has("value") then .value else .Value
    end}) | add // {}``."""
    out = {}
    for item in jv.iterate(v):
        key = next((k for k in (jv.field(item, n) for n in ("key", "Key", "name"))
                    if jv.truthy(k)), _NONE)
        key = jv.field(item, "Name") if key is _NONE else key
        if type(key) is not str:
            raise bad_key(key)
        out[key] = jv.field(item, "value" if type(item) is dict and "value" in item
                            else "Value")
    return out


def _with_entries(f: Compiled) -> Compiled:
    """``to_entries | map(f) | from_entries``."""
    g = f.gen
    return singular(lambda v, e: from_entries(
        [y for x in to_entries(v) for y in g(x, e)]))


BUILTINS[("with_entries", 1)] = _with_entries


def _paths(v: Any, prefix: tuple = ()) -> Iterator[tuple[list, Any]]:
    """``path(..)`` without the empty path, with each value, depth first."""
    t = type(v)
    items = v.items() if t is dict else enumerate(v) if t is list else ()
    for key, x in items:
        path = (*prefix, key)
        yield list(path), x
        yield from _paths(x, path)


BUILTINS[("paths", 0)] = lambda: many(lambda v, e: (p for p, _ in _paths(v)))
def _paths_where(f: Compiled) -> Compiled:
    """``path(recurse | select(f)) | select(length > 0)``: f runs on the input too."""
    def gen(v, e):
        for _ in f.gen(v, e):
            pass
        for p, x in _paths(v):
            for ok in f.gen(x, e):
                if jv.truthy(ok):
                    yield p

    return many(gen)


BUILTINS[("paths", 1)] = _paths_where


def _nth(n: Compiled, f: Compiled) -> Compiled:
    def gen(v, e):
        for count in n.gen(v, e):
            count = _whole(count)
            if count < 0:
                raise error("nth doesn't support negative indices")
            for i, x in enumerate(f.gen(v, e)):
                if i == count:
                    yield x
                    break

    return many(gen)


BUILTINS[("nth", 2)] = _nth
