"""Compile jq's core constructs into Python closures (see :mod:`.compiled`): the table of
compilers by node kind this module exports (merged by :mod:`.registry`)."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from functools import partial
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.columnsum import of_add
from jqmagic.core.jqlang.compiled import IDENTITY, NOTHING, Compiled, many, optional, singular
from jqmagic.core.jqlang.errors import Break, JqError, NotMine, tried
from jqmagic.core.jqlang.fuse import fuse_array
from jqmagic.core.jqlang.fusereduce import fuse_reduce
from jqmagic.core.jqlang.messages import bad_key
from jqmagic.core.jqlang.runtime import CHUNK, check
from jqmagic.core.jqlang.scope import compile_node
from jqmagic.core.jqlang.sortedcut import of_pipe
from jqmagic.core.jqlang.syntax import Array, Dot, Iterate, LiteralNeg, Pipe, Try, Var
from jqmagic.core.jqlang.text import format_of
from jqmagic.core.jqlang.vector import of_length

truthy = jv.truthy


FORMS = {
    ("map", 1): lambda args, bound: fuse_array(
        Array(Pipe(Iterate(Dot()), args[0])), bound),  # jq: [.[] | f]
}
"""Builtins compiled from their arguments' nodes."""


def _dot(node, bound):
    return IDENTITY


def _literal(node, bound):
    value = node[1]
    return singular(lambda v, e: value)


def _var(node, bound):
    key = bound.vars.get(node[1])
    if key is None:
        raise NotMine(f"${node[1]} is not bound")
    return singular(lambda v, e: e[key])


def _pipe(node, bound):
    plain = pipe(compile_node(node[1], bound), compile_node(node[2], bound))
    # a sort_by's few kept items (vector), a sum of products (columnsum), from columns
    return of_pipe(node, bound, plain) or of_add(node, bound, plain) or \
        of_length(node, bound, plain) or plain  # a count of the items a select keeps


def pipe(a: Compiled, b: Compiled) -> Compiled:
    """``a | b``, keeping the fastest entry points both sides allow."""
    if a.one and b.one:
        fa, fb = a.one, b.one
        return singular(lambda v, e: fb(fa(v, e), e))
    if a.opt and b.opt:
        fa, fb = a.opt, b.opt

        def opt(v, e):
            x = fa(v, e)
            return NOTHING if x is NOTHING else fb(x, e)

        return optional(opt)
    ga = a.gen
    if b.one:
        fb = b.one
        return many(lambda v, e: (fb(x, e) for x in ga(v, e)))
    if b.opt:
        fb = b.opt
        return many(lambda v, e: (y for x in ga(v, e) if (y := fb(x, e)) is not NOTHING))
    gb = b.gen
    return many(lambda v, e: (y for x in ga(v, e) for y in gb(x, e)))


def _comma(node, bound):
    ga, gb = compile_node(node[1], bound).gen, compile_node(node[2], bound).gen

    def gen(v, e):  # the right side starts only once the left is done, as in jq
        yield from ga(v, e)
        yield from gb(v, e)

    return many(gen)


def _bind(node, bound):
    _, source, name, body = node
    if body == Try(Iterate(Var(name))):  # X[]?, as the parser writes it: no environment
        return _iterate_each(compile_node(source, bound).gen)
    scope, name = bound.bind(name)
    src, inner = compile_node(source, bound), compile_node(body, scope)
    if src.one and inner.one:
        fs, fb = src.one, inner.one
        return singular(lambda v, e: fb(v, {**e, name: fs(v, e)}))
    gs, gb = src.gen, inner.gen
    return many(lambda v, e: (y for x in gs(v, e) for y in gb(v, {**e, name: x})))


def _field(node, bound):
    names: list[str] = []
    while node[0] == "field":  # .a.b.c: one closure walks the whole chain
        names.insert(0, node[2])
        node = node[1]
    step = singular(_field_chain(tuple(names)))
    if node == Dot():
        return replace(step, chain=tuple(names))
    return pipe(compile_node(node, bound), step)


def _field_chain(names: tuple[str, ...]):
    field = jv.field
    if len(names) == 1:
        name = names[0]
        return lambda v, e: v.get(name) if type(v) is dict else field(v, name)

    def walk(v, e):
        for name in names:
            v = v.get(name) if type(v) is dict else field(v, name)
        return v

    return walk


def _index(node, bound):
    _, target, key = node
    return binary(compile_node(target, bound), compile_node(key, bound), jv.index)


def binary(a: Compiled, b: Compiled, fn) -> Compiled:
    """``fn(x, y)`` for every output ``x`` of ``a`` and ``y`` of ``b``, ``b`` in the outer
    loop as jq runs two operands: ``[(1,2) + (10,20)]`` is ``[11,12,21,22]``."""
    if a.one and b.one:
        fa, fb = a.one, b.one

        def one(v, e):  # the right operand first, as jq (its error comes first)
            y = fb(v, e)
            return fn(fa(v, e), y)

        return singular(one)
    ga, gb = a.gen, b.gen
    return many(lambda v, e: (fn(x, y) for y in gb(v, e) for x in ga(v, e)))


def _slice(node, bound):
    _, target, lower, upper = node
    bounds = [compile_node(b, bound) if b is not None else None for b in (lower, upper)]
    slice_of = jv.slice_of
    t = compile_node(target, bound)
    if any(b is not None and b.one is None for b in bounds):
        gl, gh = (b.gen if b is not None else (lambda v, e: (None,)) for b in bounds)
        gt = t.gen
        return many(lambda v, e: (slice_of(x, start, stop) for start in gl(v, e)
                                  for stop in gh(v, e) for x in gt(v, e)))
    lo, hi = (b.one if b is not None else (lambda v, e: None) for b in bounds)
    if t.one:
        ft = t.one

        def one(v, e):  # the bounds first, then the target, as jq
            start, stop = lo(v, e), hi(v, e)
            return slice_of(ft(v, e), start, stop)

        return singular(one)
    gt = t.gen

    def gen(v, e):
        start, stop = lo(v, e), hi(v, e)
        return (slice_of(x, start, stop) for x in gt(v, e))

    return many(gen)


def _iterate(node, bound):
    iterate = jv.iterate
    step = many(lambda v, e: iterate(v))
    return step if node[1] == Dot() else pipe(compile_node(node[1], bound), step)


def _recurse(node, bound):
    recurse = jv.recurse
    return many(lambda v, e: recurse(v))


def _try(node, bound):
    if node[1][0] == "iterate":
        return _try_iterate(node[1], bound)
    body = compile_node(node[1], bound)
    if body.opt:
        fb = body.opt

        def opt(v, e):
            try:
                return fb(v, e)
            except JqError:
                return NOTHING
            except Break as exc:
                raise NotMine("break inside try") from exc

        return optional(opt)
    gb = body.gen
    return many(partial(tried, gb, None))


def _iterate_each(outputs):
    """``X as $x | try $x[]``: the items of each output of X that can be iterated (an
    error of X itself is not caught)."""
    iterable = (list, dict, jv.Stream, jv.Hollow)

    def gen(v, e):
        for x in outputs(v, e):
            if type(x) in iterable:
                yield from jv.iterate(x)

    return many(gen)


def _try_iterate(node, bound):
    """``X[]?``: each output of X iterated, until one that cannot be (or an error of X)
    ends them all, as ``try`` ends its body; no error is made for it (``.commits[]?`` over
    200k events whose commits are null made and dropped 200k messages)."""
    target = compile_node(node[1], bound).gen
    iterable = (list, dict, jv.Stream, jv.Hollow)

    def gen(v, e):
        try:
            for x in target(v, e):
                if type(x) not in iterable:
                    return
                yield from jv.iterate(x)
        except JqError:
            return
        except Break as exc:
            raise NotMine("break inside try") from exc

    return many(gen)


def _neg(node, bound):
    inner = compile_node(node[1], bound)
    negate = jv.negate_literal if type(node) is LiteralNeg else jv.negate
    if inner.one:
        f = inner.one
        return singular(lambda v, e: negate(f(v, e)))
    g = inner.gen
    return many(lambda v, e: (negate(x) for x in g(v, e)))


def _binop(node, bound):
    _, op, left, right = node
    fn = jv.COMPARISONS.get(op) or jv.ARITHMETIC[op]
    a, b = compile_node(left, bound), compile_node(right, bound)
    if a.one and right[0] == "literal" and op in jv.COMPARISONS:
        fa, test = a.one, jv.compare_with(op, right[1])
        return singular(lambda v, e: test(fa(v, e)))
    return binary(a, b, fn)


def _and(node, bound):
    return _logic(node, bound, lambda x: not truthy(x), False)


def _or(node, bound):
    return _logic(node, bound, truthy, True)


def _logic(node, bound, decided, outcome: bool):
    a, b = compile_node(node[1], bound), compile_node(node[2], bound)
    if a.one and b.one:
        fa, fb = a.one, b.one
        return singular(lambda v, e: outcome if decided(fa(v, e)) else truthy(fb(v, e)))
    ga, gb = a.gen, b.gen

    def gen(v, e):
        for x in ga(v, e):
            if decided(x):
                yield outcome
            else:
                for y in gb(v, e):
                    yield truthy(y)

    return many(gen)


def _alt(node, bound):
    a, b = compile_node(node[1], bound), compile_node(node[2], bound)
    ga, gb = a.gen, b.gen

    def gen(v, e):
        found = False
        try:
            for x in ga(v, e):
                if truthy(x):
                    found = True
                    yield x
        except JqError as exc:
            raise NotMine("error on the left of //") from exc
        if not found:
            yield from gb(v, e)

    return many(gen)


def _array(node, bound):
    if node[1] is None:
        return singular(lambda v, e: [])
    return fuse_array(node, bound)


def _object(node, bound):
    entries = [(compile_node(k, bound), compile_node(val, bound)) for k, val in node[1]]
    if all(k.one and val.one for k, val in entries):
        pairs = [(k.one, val.one) for k, val in entries]

        def one(v, e):  # each key, then its value, then the key's kind is checked
            out = {}
            for fk, fv in pairs:
                key = fk(v, e)
                value = fv(v, e)
                out[_key(key)] = value
            return out

        return singular(one)

    def gen(v, e, i=0, pairs=()):
        if i == len(entries):  # the first entry varies slowest, as in jq
            yield dict(pairs)
            return
        k, val = entries[i]
        for key in k.gen(v, e):
            for x in val.gen(v, e):
                yield from gen(v, e, i + 1, (*pairs, (_key(key), x)))

    return many(gen)


def _key(k: Any) -> str:
    if type(k) is str:
        return k
    raise bad_key(k)


def _if(node, bound):
    _, branches, otherwise = node
    compiled = [(compile_node(c, bound), compile_node(t, bound)) for c, t in branches]
    rest = compile_node(otherwise, bound) if otherwise is not None else _dot(None, bound)
    if all(c.one and t.one for c, t in compiled) and rest.one:
        steps, fr = [(c.one, t.one) for c, t in compiled], rest.one

        def one(v, e):
            for fc, ft in steps:
                if truthy(fc(v, e)):
                    return ft(v, e)
            return fr(v, e)

        return singular(one)

    def gen(v, e, i=0):
        if i == len(compiled):
            yield from rest.gen(v, e)
            return
        cond, then = compiled[i]
        for c in cond.gen(v, e):
            yield from then.gen(v, e) if truthy(c) else gen(v, e, i + 1)

    return many(gen)


def _call(node, bound):
    _, name, args = node
    defined = bound.funcs.get((name, len(args)))
    if defined is not None:
        return defined.call(args, bound)
    form = bound.tables.forms.get((name, len(args)))
    if form is not None:
        return form(args, bound)
    factory = bound.tables.builtins.get((name, len(args)))
    if factory is None:
        raise NotMine(f"{name}/{len(args)}")
    return factory(*(compile_node(a, bound) for a in args))


def _string(node, bound):
    """An interpolated string; the last interpolation varies slowest, as in jq."""
    _, fmt, parts = node
    convert = format_of(fmt or "text")
    pieces = [p if type(p) is str else compile_node(p, bound) for p in parts]
    if all(type(p) is str or p.one for p in pieces):
        steps = [(p, None) if type(p) is str else ("", p.one) for p in reversed(pieces)]
        return singular(lambda v, e: "".join(reversed([  # the last piece first, as jq
            text if f is None else convert(f(v, e)) for text, f in steps])))

    last_piece = len(pieces) - 1

    def gen(v, e, i=last_piece, tail=""):
        if i < 0:
            yield tail
            return
        piece = pieces[i]
        if type(piece) is str:
            yield from gen(v, e, i - 1, piece + tail)
            return
        for x in piece.gen(v, e):
            yield from gen(v, e, i - 1, convert(x) + tail)

    return many(gen)


def _format(node, bound):
    convert = format_of(node[1])
    return singular(lambda v, e: convert(v))


def _reduce(node, bound):
    fused = fuse_reduce(node, bound)
    if fused is not None:
        return fused
    _, source, name, init, update = node
    gs, gi = compile_node(source, bound).gen, compile_node(init, bound).gen
    scope, name = bound.bind(name)
    step = compile_node(update, scope)

    def gen(v, e):
        for state in gi(v, e):
            for n, x in enumerate(gs(v, e)):
                if n % CHUNK == 0:
                    check()
                state = deque(step.gen(state, {**e, name: x}), maxlen=1)  # the last output
                state = state[0] if state else None
            yield state
            v = None  # jq 1.8.2's DUPN: the source runs on null for every later init

    if step.one is None:
        return many(gen)
    one = step.one

    def gen_one(v, e):  # one output per step: no generator, one environment reused
        env = dict(e)
        for state in gi(v, e):
            for n, x in enumerate(gs(v, e)):
                if n % CHUNK == 0:
                    check()
                env[name] = x
                state = one(state, env)
            yield state
            v = None  # as in gen

    return many(gen_one)


def _foreach(node, bound):
    gs, gi = compile_node(node.source, bound).gen, compile_node(node.init, bound).gen
    inner, name = bound.bind(node.name)
    gu = compile_node(node.update, inner).gen
    gx = compile_node(node.extract, inner).gen if node.extract is not None else None

    def gen(v, e):
        for state in gi(v, e):
            for n, x in enumerate(gs(v, e)):
                if n % CHUNK == 0:
                    check()
                env, last = {**e, name: x}, None
                for last in gu(state, env):  # the last output carries on; none: null
                    if gx is None:
                        yield last
                    else:
                        yield from gx(last, env)
                state = last

    return many(gen)


COMPILERS = {
    "dot": _dot, "literal": _literal, "var": _var, "pipe": _pipe, "comma": _comma,
    "bind": _bind, "field": _field, "index": _index, "slice": _slice, "iterate": _iterate,
    "recurse": _recurse, "try": _try, "neg": _neg, "binop": _binop, "and": _and, "or": _or,
    "alt": _alt, "array": _array, "object": _object, "if": _if, "call": _call,
    "string": _string, "format": _format, "reduce": _reduce, "foreach": _foreach,
}
