"""jq 1.8.2's ``getpath``/``setpath``/``delpaths`` (src/jv_aux.c) and the assignments
``=``, ``|=``, ``+=`` ... ``//=`` (``_assign``/``_modify`` in src/builtin.jq), editing
shared trees copy-on-write: each container is copied once per assignment, then edited
in place, so ``.[] |= f`` stays linear."""

from __future__ import annotations

import math
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import NOTHING, Compiled, many
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.messages import cannot_index, error, kind
from jqmagic.core.jqlang.runtime import CHUNK, check
from jqmagic.core.jqlang.scope import compile_node, compile_path
from jqmagic.core.jqlang.syntax import Alt, BinOp, Dot, Var
from jqmagic.core.jqlang.table import Table

_GROWTH = 1 << 20
"""Past this many new array slots the fast path declines (libjq would fill them)."""


def _slice_bounds(length: int, key: dict) -> tuple[int, int]:
    if "start" not in key or "end" not in key:
        raise NotMine("a slice object without start and end")
    return jv.slice_bounds(length, key["start"], key["end"])


def get(t: Any, k: Any) -> Any:
    """jq's ``jv_get``, slices included."""
    if type(k) is dict:
        if type(t) is list or type(t) is str:
            start, end = _slice_bounds(len(t), k)
            if type(t) is list:
                jv.state.sliced = True
            return t[start:end]
        if t is None:
            return None
        raise cannot_index(t, k)
    return jv.index(t, k)


MAX_DEPTH = 10000


def _checked(path: Any, text: str = "Path must be specified as an array") -> list:
    if type(path) is not list:
        raise error(text)
    if len(path) > MAX_DEPTH:
        raise error("Path too deep")
    return path


def getpath(t: Any, path: Any) -> Any:
    _checked(path)
    for key in path:
        t = get(t, key)
    return t


class Writer:
    """Edits of one assignment: containers it copied are its own to change in place
    (kept alive here, so their ids cannot be reused)."""

    def __init__(self):
        self.owned: dict[int, Any] = {}

    def own(self, c: Any) -> Any:
        if id(c) in self.owned:
            return c
        c = list(c) if type(c) is list else dict(c)
        self.owned[id(c)] = c
        return c

    def set(self, t: Any, k: Any, v: Any) -> Any:
        """jq's ``jv_set``."""
        tk = type(k)
        if tk is str and (type(t) is dict or t is None):
            t = {} if t is None else self.own(t)
            t[k] = v
            return t
        if (tk is int or tk is float) and (type(t) is list or t is None):
            if tk is float and not math.isfinite(k):
                raise NotMine("an index that is not finite")
            t = [] if t is None else self.own(t)
            index = int(k)  # jq casts first: -0.5 is index 0, not len - 0.5
            if index < 0:
                index += len(t)
            if index < 0:
                raise error("Out of bounds negative array index")
            if index >= len(t):
                if index - len(t) > _GROWTH:
                    raise NotMine("an array grown past a million slots")
                t.extend([None] * (index + 1 - len(t)))
            t[index] = v
            return t
        if tk is dict and (type(t) is list or t is None):
            t = [] if t is None else t
            start, end = _slice_bounds(len(t), k)
            if type(v) is not list:
                raise error("A slice of an array can only be assigned another array")
            t = self.own(t)
            t[start:end] = v
            return t
        if tk is dict and type(t) is str:
            raise error("Cannot update string slices")
        raise error(f"Cannot update field at {kind(k)} index of {kind(t)}")

    def setpath(self, root: Any, path: Any, value: Any) -> Any:
        _checked(path)
        return self._setpath(root, path, 0, value)

    def _setpath(self, root: Any, path: list, at: int, value: Any) -> Any:
        if at == len(path):
            return value
        key = path[at]
        return self.set(root, key, self._setpath(get(root, key), path, at + 1, value))


def delpaths(t: Any, paths: Any, ours: bool = False) -> Any:
    """jq's ``jv_delpaths``; ``ours``: the paths came from ``path(f)`` (fresh arrays, so
    no array slice among them to compare)."""
    if type(paths) is not list:
        raise error("Paths must be specified as an array")
    for p in paths:
        _checked(p, f"Path must be specified as array, not {kind(p)}")
    paths = sorted(paths, key=_order if ours else jv.sort_key)
    if not paths:
        return t
    if not paths[0]:
        return None
    return _delpaths_sorted(t, paths, 0)


def _order(v: Any) -> tuple:
    """jq's order of path keys (numbers, strings, slice objects of numbers)."""
    t = type(v)
    if t is str:
        return (4, v)
    if t is int or t is float:
        return (3, v)
    if t is list:
        return (5, tuple(map(_order, v)))
    if t is dict:
        keys = sorted(v)
        return (6, tuple(keys), tuple(_order(v[k]) for k in keys))
    return (0,) if v is None else (2,) if v else (1,)


def _delpaths_sorted(t: Any, paths: list, start: int) -> Any:
    keys, i, writer = [], 0, Writer()
    while i < len(paths):
        key = paths[i][start]
        j = i + 1
        while j < len(paths) and _order(key) == _order(paths[j][start]):
            j += 1
        if len(paths[i]) == start + 1:
            keys.append(key)
        else:
            sub = get(t, key)
            if sub is not None:
                t = writer.set(t, key, _delpaths_sorted(sub, paths[i:j], start + 1))
        i = j
    return _delete(t, keys)


def _delete(t: Any, keys: list) -> Any:
    """jq's ``jv_dels`` (keys sorted)."""
    if t is None or not keys:
        return t
    if type(t) is list:
        gone, ranges = set(), []
        for k in keys:
            if type(k) is int or type(k) is float:
                if k != k:
                    continue
                gone.add(int(k) + len(t) if k < 0 else int(k))
            elif type(k) is dict:
                ranges.append(_slice_bounds(len(t), k))
            else:
                raise error(f"Cannot delete {kind(k)} element of array")
        return [x for i, x in enumerate(t)
                if i not in gone and not any(a <= i < b for a, b in ranges)]
    if type(t) is dict:
        for k in keys:
            if type(k) is not str:
                raise error(f"Cannot delete {kind(k)} field of object")
        drop = set(keys)
        return {k: x for k, x in t.items() if k not in drop}
    raise error(f"Cannot delete fields from {kind(t)}")


# ---------------------------------------------------------------- assignments


def _paths_of(lhs: Any, v: Any, e: dict):
    """``path(lhs)`` on ``v``, as lists."""
    for n, (p, _) in enumerate(lhs(((), v), e)):
        if n % CHUNK == CHUNK - 1:
            check()
        yield list(p)


def modify(lhs: Any, update: Compiled, v: Any, e: dict) -> Any:
    """jq 1.8.2's ``_modify(paths; update)``: each path set to the first output of
    ``update`` on its value; the paths where it has none are deleted at the end."""
    writer, doc, dels = Writer(), v, []
    first = update.opt or (lambda x, env: next(iter(update.gen(x, env)), NOTHING))
    for p in _paths_of(lhs, v, e):
        out = first(getpath(doc, p), e)
        if out is NOTHING:
            dels.append(p)
        else:
            doc = writer.setpath(doc, p, out)
    return delpaths(doc, dels, ours=True) if dels else doc


def _assign(node, bound):
    _, op, left, right = node
    lhs, rhs = compile_path(left, bound), compile_node(right, bound)
    if op == "|=":
        return many(lambda v, e: (modify(lhs, rhs, v, e),))
    if op == "=":
        def assign(v, e):
            for value in rhs.gen(v, e):
                writer, doc = Writer(), v
                for p in _paths_of(lhs, v, e):
                    doc = writer.setpath(doc, p, value)
                yield doc

        return many(assign)
    scope, key = bound.bind("?rhs")
    operand = Var("?rhs")
    body = Alt(Dot(), operand) if op == "//=" else BinOp(op[:-1], Dot(), operand)
    update = compile_node(body, scope)
    return many(lambda v, e: (modify(lhs, update, v, {**e, key: x}) for x in rhs.gen(v, e)))


COMPILERS = {"assign": _assign}


# ---------------------------------------------------------------- path builtins


def products(gens: list, v: Any, e: dict):
    """Every combination of the arguments' outputs, the last argument outermost."""
    if not gens:
        yield ()
        return
    for last in gens[-1](v, e):
        for rest in products(gens[:-1], v, e):
            yield (*rest, last)


def _with_values(fn, arity: int):
    """A builtin of the input and ``arity`` value arguments (CFUNC-like)."""
    def factory(*args):
        gens = [a.gen for a in args]
        return many(lambda v, e: (fn(v, *xs) for xs in products(gens, v, e)))
    return factory


BUILTINS = Table()
BUILTINS[("getpath", 1)] = _with_values(getpath, 1)
BUILTINS[("setpath", 2)] = _with_values(lambda v, p, x: Writer().setpath(v, p, x), 2)
BUILTINS[("delpaths", 1)] = _with_values(delpaths, 1)


FORMS: dict[tuple[str, int], Any] = {}
"""Builtins compiled from their arguments' nodes: ``path``, ``del``, ``pick``."""


def _form(name: str, arity: int):
    def register(fn):
        FORMS[(name, arity)] = fn
        return fn
    return register


@_form("path", 1)
def _path(args, scope):
    paths = compile_path(args[0], scope)
    return many(lambda v, e: _paths_of(paths, v, e))


@_form("del", 1)
def _del(args, scope):
    paths = compile_path(args[0], scope)
    return many(lambda v, e: (delpaths(v, list(_paths_of(paths, v, e)), ours=True),))


@_form("pick", 1)
def _pick(args, scope):
    paths = compile_path(args[0], scope)

    def pick(v, e):
        writer, out = Writer(), None
        for p in _paths_of(paths, v, e):
            out = writer.setpath(out, p, getpath(v, p))
        return out

    return many(lambda v, e: (pick(v, e),))
