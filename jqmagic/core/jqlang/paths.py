"""Path expressions: ``path(f)`` as jq 1.8.2 tracks it, each output a ``(path, value)``
pair; what is not a path expression (``path(1)``, ``path(. as $x | $x)``) is NotMine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.control import Function
from jqmagic.core.jqlang.errors import NotMine, labelled, tried
from jqmagic.core.jqlang.messages import cannot_iterate
from jqmagic.core.jqlang.parser import OPTIONAL
from jqmagic.core.jqlang.runtime import CHUNK, check, depth_first
from jqmagic.core.jqlang.scope import Pair, PathGen, Scope, compile_node, compile_path
from jqmagic.core.jqlang.syntax import Call, Dot, Index, Literal, Pipe
from jqmagic.core.jqlang.updates import getpath

PATHS: dict[str, Callable[[tuple, Scope], PathGen]] = {}
"""Path compilers by node kind."""
PATH_BUILTINS: dict[tuple[str, int], Callable[..., PathGen]] = {}
"""Builtins as path expressions, by ``(name, arity)``."""
_PATH = "/path"  # env key suffix: the path of a variable bound by a ``?`` step


def _paths(kind: str):
    def register(fn):
        PATHS[kind] = fn
        return fn
    return register


@_paths("dot")
def _dot(node, scope):
    return lambda pv, e: (pv,)


@_paths("field")
def _field(node, scope):
    target, name = compile_path(node[1], scope), node[2]
    return lambda pv, e: ((p + (name,), jv.field(v, name)) for p, v in target(pv, e))


@_paths("index")
def _index(node, scope):
    target, keys = compile_path(node[1], scope), compile_node(node[2], scope).gen
    return lambda pv, e: ((p + (k,), jv.index(v, k)) for k in keys(pv[1], e)
                          for p, v in target(pv, e))


@_paths("slice")
def _slice(node, scope):
    target = compile_path(node[1], scope)
    bounds = [compile_node(b, scope).gen if b is not None else None for b in node[2:]]

    def gen(pv, e):
        for lo in bounds[0](pv[1], e) if bounds[0] else (None,):
            for hi in bounds[1](pv[1], e) if bounds[1] else (None,):
                for p, v in target(pv, e):
                    yield p + ({"start": lo, "end": hi},), jv.slice_of(v, lo, hi)

    return gen


def children(p: tuple, v: Any) -> Iterator[Pair]:
    """``path(.[])`` with the values."""
    if type(v) is list:
        return ((p + (i,), x) for i, x in enumerate(v))
    if type(v) is dict:
        return ((p + (k,), x) for k, x in v.items())
    raise cannot_iterate(v)


@_paths("iterate")
def _iterate(node, scope):
    target = compile_path(node[1], scope)
    return lambda pv, e: (c for p, v in target(pv, e) for c in children(p, v))


def descend(pv: Pair) -> Iterator[Pair]:
    """``path(..)``: the value, then everything inside it, depth first."""
    stack, count = [pv], 0
    while stack:
        p, v = stack.pop()
        yield p, v
        if type(v) is list or type(v) is dict:
            stack.extend(reversed(list(children(p, v))))
        count += 1
        if count % CHUNK == 0:
            check()


PATHS["recurse"] = lambda node, scope: lambda pv, e: descend(pv)


@_paths("pipe")
def _pipe(node, scope):
    a, b = compile_path(node[1], scope), compile_path(node[2], scope)
    return lambda pv, e: (y for x in a(pv, e) for y in b(x, e))


@_paths("comma")
def _comma(node, scope):
    a, b = compile_path(node[1], scope), compile_path(node[2], scope)

    def gen(pv, e):
        yield from a(pv, e)
        yield from b(pv, e)

    return gen


@_paths("if")
def _if(node, scope):
    _, branches, otherwise = node
    steps = [(compile_node(c, scope).gen, compile_path(t, scope)) for c, t in branches]
    rest = compile_path(otherwise, scope) if otherwise is not None else _dot(None, scope)

    def gen(pv, e, i=0):
        if i == len(steps):
            yield from rest(pv, e)
            return
        cond, then = steps[i]
        for c in cond(pv[1], e):
            yield from then(pv, e) if jv.truthy(c) else gen(pv, e, i + 1)

    return gen


@_paths("alt")
def _alt(node, scope):
    a, b = compile_path(node[1], scope), compile_path(node[2], scope)

    def gen(pv, e):
        found = False
        for p, v in a(pv, e):
            if jv.truthy(v):
                found = True
                yield p, v
        if not found:
            yield from b(pv, e)

    return gen


@_paths("try")
def _try(node, scope):
    body = compile_path(node[1], scope)
    return partial(tried, body, None)


@_paths("bind")
def _bind(node, scope):
    _, source, name, body = node
    inner, key = scope.bind(name)
    rest = compile_path(body, inner)
    if name == OPTIONAL:  # TERM STEP? : TERM is read as a path too
        src = compile_path(source, scope)
        return lambda pv, e: (y for p, v in src(pv, e)
                              for y in rest(pv, {**e, key: v, key + _PATH: p}))
    values = compile_node(source, scope).gen
    return lambda pv, e: (y for x in values(pv[1], e) for y in rest(pv, {**e, key: x}))


@_paths("var")
def _var(node, scope):
    key = scope.vars.get(node[1])
    if key is None:
        raise NotMine(f"${node[1]} is not bound")

    def gen(pv, e):
        if key + _PATH not in e:
            raise NotMine("a variable as a path expression")
        return ((e[key + _PATH], e[key]),)

    return gen


@_paths("label")
def _label(node, scope):
    inner, key = scope.bind("*label-" + node[1])
    return labelled(compile_path(node[2], inner), key)


@_paths("break")
def _break(node, scope):
    compiled = compile_node(node, scope).gen
    return lambda pv, e: compiled(pv[1], e)


@_paths("def")
def _def(node, scope):
    return compile_path(node[4], scope.define((node[1], len(node[2])), Function(node, scope)))


@_paths("call")
def _call(node, scope):
    _, name, args = node
    defined = scope.funcs.get((name, len(args)))
    if defined is not None:
        return defined.paths(args, scope)
    factory = PATH_BUILTINS.get((name, len(args)))
    if factory is None:
        raise NotMine(f"{name}/{len(args)} as a path expression")
    return factory(*args, scope=scope)


# ---------------------------------------------------------------- builtins as paths


def _builtin(name: str, arity: int = 0):
    def register(fn):
        PATH_BUILTINS[(name, arity)] = fn
        return fn
    return register


PATH_BUILTINS[("empty", 0)] = lambda scope: lambda pv, e: ()
PATH_BUILTINS[("recurse", 0)] = lambda scope: lambda pv, e: descend(pv)
PATH_BUILTINS[("first", 0)] = lambda scope: _index(Index(Dot(), Literal(0)), scope)
PATH_BUILTINS[("last", 0)] = lambda scope: _index(Index(Dot(), Literal(-1)), scope)


@_builtin("error", 0)
@_builtin("error", 1)
def _error(*args, scope):
    raiser = compile_node(Call("error", args), scope).gen
    return lambda pv, e: raiser(pv[1], e)


@_builtin("select", 1)
def _select(f, scope):
    cond = compile_node(f, scope).gen
    return lambda pv, e: (pv for c in cond(pv[1], e) if jv.truthy(c))


def _type_select(*kinds: str):
    wanted = frozenset(kinds)
    return lambda scope: lambda pv, e: (pv,) if jv.type_name(pv[1]) in wanted else ()


for _name, _kinds in {"nulls": ("null",), "booleans": ("boolean",), "numbers": ("number",),
                      "strings": ("string",), "arrays": ("array",), "objects": ("object",),
                      "iterables": ("array", "object"),
                      "scalars": ("null", "boolean", "number", "string"),
                      "values": ("boolean", "number", "string", "array", "object")}.items():
    PATH_BUILTINS[(_name, 0)] = _type_select(*_kinds)


@_builtin("recurse", 2)
def _recurse_while(f, cond, scope):
    """``def r: ., (f | select(cond) | r); r``."""
    return _recurse(Pipe(f, Call("select", (cond,))), scope)


@_builtin("recurse", 1)
def _recurse(f, scope):
    step = compile_path(f, scope)

    def gen(pv, e):  # def r: ., (f | r); r
        return depth_first(pv, lambda x: step(x, e))

    return gen


@_builtin("first", 1)
def _first(f, scope):
    body = compile_path(f, scope)
    return lambda pv, e: _head(body(pv, e))


def _head(outputs: Iterator[Pair]) -> Iterator[Pair]:
    for x in outputs:
        yield x
        return


@_builtin("limit", 2)
def _limit(n, f, scope):
    counts, body = compile_node(n, scope).gen, compile_path(f, scope)

    def gen(pv, e):
        for count in counts(pv[1], e):
            if type(count) is not int or count < 0:
                raise NotMine("limit by a count that is not a whole number")
            if not count:  # never starts f
                continue
            for i, x in enumerate(body(pv, e)):
                if i >= count:
                    break
                yield x

    return gen


@_builtin("getpath", 1)
def _getpath(f, scope):
    paths = compile_node(f, scope).gen

    def gen(pv, e):
        for p in paths(pv[1], e):
            value = getpath(pv[1], p)
            yield pv[0] + tuple(p), value

    return gen
