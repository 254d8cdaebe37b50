"""Fuse the loops analysts write into one generated Python function per loop (``reduce``:
:mod:`.fusereduce`).

The closure compiler (:mod:`.compiler`) calls a Python function per node per value; over
300k objects those calls cost more than the work. ``[S]``, ``map(f)`` and ``reduce S as $x
(init; update)`` are written here as Python source instead, compiled once: the stream ``S``
as nested ``for``/``if`` statements, field chains, comparisons, arithmetic, ``and``/``or``,
``if``, objects, arrays and string interpolation as inline expressions, so that a value
passes through one frame. Any other node stays the closure compiler's and is called from
the source. Inline steps call the helpers the closures call (``jv.field``,
``jv.compare_with``, ``jv.add``, ``tostring``), in the order the closures call them, so the
answers, the errors and the checks of the deadline are the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang import vector
from jqmagic.core.jqlang.columnloop import Loop
from jqmagic.core.jqlang.compiled import Compiled, singular
from jqmagic.core.jqlang.fuseexpr import (
    _PLAIN,
    _chain,
    _direct,
    _expr,
    _first_step,
    _is_builtin,
    _Place,
    _read_chain,
    _Source,
)
from jqmagic.core.jqlang.scope import compile_node
from jqmagic.core.jqlang.syntax import BinOp, Dot


def fuse_array(node: tuple, scope: Any) -> Compiled:
    """``[S]`` (and ``map(f)`` as ``[.[] | f]``) as one generated function."""
    src = _Source()
    _vector_first(vector.of_array(node[1], scope), node[1], src, _Place(scope))
    src.emit(1, "out = []")
    src.emit(1, "append = out.append")
    result, place = _stream(node[1], src, _Place(scope))
    if place.loop is not None and src.lines[-1] == place.loop.header and \
            result in place.loop.reads:  # [.[] | .a.b]: the column, when it is whole
        whole = src.temp()
        src.lines.insert(-1, f"    {whole} = _whole({place.loop.items}, "
                             f"{place.loop.reads[result]!r})")
        src.lines.insert(-1, f"    if {whole} is not None:")
        src.lines.insert(-1, f"        return {whole}")
    src.emit(place.depth, f"append({result})")
    src.emit(1, "return out")
    return singular(src.function())


def _vector_first(plan: vector.Plan | None, stream: tuple, src: _Source,
                  place: _Place) -> None:
    """The function answers with ``plan`` first, when it has one and it answers (see
    :mod:`.vector`); else its loops run."""
    items = None if plan is None else _expr(vector.items_of(stream), src, place, False)
    if items is None:
        return
    answer = src.temp()
    src.emit(1, f"{answer} = {src.constant(plan)}({items}, {place.env})")
    src.emit(1, f"if {answer} is not None:")
    src.emit(2, f"return {answer}")


# ---------------------------------------------------------------- streams: statements


def _stream(node: tuple, src: _Source, place: _Place) -> tuple[str, _Place]:
    """Write the loops and tests that produce ``node``'s outputs; the expression of one
    output and the place (depth) where it is valid."""
    kind = node[0]
    if kind == "pipe":
        first, then = _first_step(node, src, place)
        if first is None:
            first, place = _stream(node[1], src, place)
        if then is None:
            return first, place
        return _stream(then, src, replace(place, input=_named(first, src, place)))
    if kind == "iterate":
        items, place = _stream(node[1], src, place)
        item = src.temp()
        if place.loop is not None or place.depth != 1:
            held = src.temp()
            src.emit(place.depth, f"for {item} in ({held} if type({held} := {items}) is list "
                                  f"and len({held}) <= {SHORT} else _iterate({held})):")
            return item, replace(place, depth=place.depth + 1)
        return _open_loop(_named(items, src, place), item, False, src, place)
    if kind == "field":
        one = _expr(node, src, place, fallback=False)
        if one is not None:
            return one, place
        names, base = _chain(node)
        value, place = _stream(base, src, place)
        return _read_chain(_named(value, src, place), names, src, place), place
    optional = _optional_field(node)
    if optional is not None:
        return _optional_read(*optional, src, place)
    if kind == "try" and node.body[0] != "iterate":
        tried = _tried(node.body, src, place)
        if tried is not None:
            return tried
    if kind == "bind":
        return _bind_stream(node, src, place)
    if kind == "comma" and all(_plain_read(part) for part in _parts(node)):
        return _comma_stream(_parts(node), src, place)
    if kind == "try" and node.body[0] == "iterate" and node.body.target[0] in _PLAIN:
        return _try_iterate(node.body.target, src, place)
    if kind in ("slice", "index") and node.target[0] not in _PLAIN and all(
            part is None or part[0] == "literal" for part in node[2:]):
        # X[:7], X["k"] of each output of a stream X (literal bounds: read of no input)
        value, place = _stream(node.target, src, place)
        each = replace(place, input=_named(value, src, place))
        return _expr(node._replace(target=Dot()), src, each), place
    if _is_builtin(node, "select", place):
        condition = _condition(node[2][0], src, place)
        if condition is not None:
            test = src.temp()
            src.emit(place.depth, f"{test} = {condition}")
            src.emit(place.depth, f"if {test} is not None and {test} is not False:")
            return place.input, replace(place, depth=place.depth + 1)
        return _select_each(node[2][0], src, place)
    if _is_type_filter(node, place):
        value = src.temp()
        src.emit(place.depth, f"if {_TYPE_TESTS[node[1]].format(value, place.input)}:")
        return place.input, replace(place, depth=place.depth + 1)
    one = _expr(node, src, place)
    if one is not None:
        return one, place
    return _closure_stream(node, src, place)


def _condition(node: tuple, src: _Source, place: _Place) -> str | None:
    """A select's condition; ``.a.b op literal`` with the chain read first, as a statement
    of its own (a loop records such a read: :func:`_recording`)."""
    if node[0] == "binop" and node.op in jv.COMPARISONS and node.right[0] == "literal" \
            and node.left[0] == "field":
        chain = _expr(node.left, src, place, fallback=False)
        if chain is not None:
            held = _named(chain, src, place)
            return _expr(BinOp(node.op, Dot(), node.right), src,
                         replace(place, input=held))
    return _expr(node, src, place)


def _optional_field(node: tuple) -> tuple[tuple, str] | None:
    """``X.name?`` (parsed as ``X as $?opt | try $?opt.name``) or ``.name?`` (``try
    .name``): X and the name."""
    if node[0] == "bind" and node.body[0] == "try" and node.body.body[0] == "field" and \
            node.body.body.target == ("var", node.name):
        return node.source, node.body.body.name
    if node[0] == "try" and node.body[0] == "field" and node.body.target == Dot():
        return Dot(), node.body.name
    return None


def _optional_read(source: tuple, name: str, src: _Source,
                   place: _Place) -> tuple[str, _Place]:
    """``X.name?``: X's member, null of null, nothing of any other value (the only error
    the read can give, which ``?`` suppresses); X's own errors are raised."""
    value, at = _stream(source, src, place)
    held = _named(value, src, at)
    src.emit(at.depth, f"if type({held}) is dict or {held} is None:")
    inner = replace(at, depth=at.depth + 1)
    return _read_chain(held, [name], src, inner), inner


def _tried(body: tuple, src: _Source, place: _Place) -> tuple[str, _Place] | None:
    """``try X`` (``X?``) of an X of one output: X in a Python ``try`` whose jq error
    gives no output, the rest of the stream outside it (its errors are not X's); None
    (nothing written) where X is not one expression."""
    at, depth, out = len(src.lines), place.depth, src.temp()
    src.emit(depth, "try:")
    one = _expr(body, src, replace(place, depth=depth + 1))
    if one is None:
        del src.lines[at:]
        return None
    if body[0] == "call" and getattr(_direct(body, place), "numbers_only", False):  # floor?
        kind = src.temp()
        one = f"({one} if ({kind} := type({place.input})) is int or {kind} is float " \
              "else _NOTHING)"
    src.emit(depth + 1, f"{out} = {one}")
    src.emit(depth, "except _JqError:")
    src.emit(depth + 1, f"{out} = _NOTHING")
    src.emit(depth, f"if {out} is not _NOTHING:")
    return out, replace(place, depth=depth + 1)


def _parts(node: tuple) -> list[tuple]:
    """``A, B, C`` as its parts."""
    return [*_parts(node.left), *_parts(node.right)] if node[0] == "comma" else [node]


def _plain_read(node: tuple) -> bool:
    """``.``, a literal, ``$name`` or a field chain on one of them: one output each."""
    while node[0] == "field":
        node = node.target
    return node[0] in _PLAIN


def _comma_stream(parts: list[tuple], src: _Source, place: _Place) -> tuple[str, _Place]:
    """``.a, .b``: a loop over the parts' places, each part read in its turn (the first
    part's outputs go through the rest of the stream before the second part is read, as
    jq reads them, its errors included)."""
    turn, out, depth = src.temp(), src.temp(), place.depth
    src.emit(depth, f"for {turn} in range({len(parts)}):")
    for number, part in enumerate(parts):
        test = "else:" if number == len(parts) - 1 else \
            f"{'if' if number == 0 else 'elif'} {turn} == {number}:"
        src.emit(depth + 1, test)
        src.emit(depth + 2, f"{out} = {_expr(part, src, replace(place, depth=depth + 2))}")
    return out, replace(place, depth=depth + 1)


def _select_each(condition: tuple, src: _Source, place: _Place) -> tuple[str, _Place]:
    """``select(f)`` where ``f`` may give no output or many (``.id | strings | test(..)``):
    ``f``'s outputs written as a stream, the input passed on for each true one, in the
    order jq passes it on."""
    test, at = _stream(condition, src, place)
    held = _named(test, src, at)
    src.emit(at.depth, f"if {held} is not None and {held} is not False:")
    return place.input, replace(place, depth=at.depth + 1)


_TYPE_TESTS = {"strings": "type({1}) is str", "objects": "type({1}) is dict",
               "arrays": "type({1}) is list", "nulls": "{1} is None",
               "booleans": "type({1}) is bool",
               "numbers": "(({0} := type({1})) is int or {0} is float)"}
"""jq's type filters as tests of the input's Python type (bool is no number)."""


def _is_type_filter(node: tuple, place: _Place) -> bool:
    return node[0] == "call" and node[1] in _TYPE_TESTS and not node[2] and \
        (node[1], 0) not in place.scope.funcs


def _bind_stream(node: tuple, src: _Source, place: _Place) -> tuple[str, _Place]:
    """``S as $name | body``: each output of ``S`` in a local (and in the environment the
    closures read), then the body on the same input."""
    value, at = _stream(node.source, src, place)
    inner, key = place.scope.bind(node.name)
    local, env = src.temp(), src.temp()
    src.emit(at.depth, f"{local} = {value}")
    _alias(local, value, at)
    src.emit(at.depth, f"{env} = {{**{place.env}, {key!r}: {local}}}")
    body = replace(at, scope=inner, input=place.input, env=env,
                   locals=(*place.locals, (key, local)))  # the body's input is S's own
    return _stream(node.body, src, body)


def _alias(name: str, value: str, place: _Place) -> None:
    """``name`` holds ``value``: the loop's item too when ``value`` is."""
    if place.loop is not None and value in (place.loop.item, *place.loop.names):
        place.loop.names.add(name)


def _try_iterate(target: tuple, src: _Source, place: _Place) -> tuple[str, _Place]:
    """``X[]?`` on a plain ``X``: nothing when ``X`` is not an array or an object (the
    only error iterating can give)."""
    value, item = src.temp(), src.temp()
    if place.loop is None and place.depth == 1:
        src.emit(1, f"{value} = {_expr(target, src, place)}")
        return _open_loop(value, item, True, src, place)
    src.emit(place.depth, f"for {item} in ({value} if type({value} := "
                          f"{_expr(target, src, place)}) is list and len({value}) <= {SHORT} "
                          f"else _iterate({value}) if type({value}) is list or "
                          f"type({value}) is dict else ()):")
    return item, replace(place, depth=place.depth + 1)


SHORT = 8
"""An inner list this short is iterated as it is (a row's ``.items[]``): the loop over the
rows checks the deadline, counting them, every :data:`.runtime.CHUNK` rows."""


def _open_loop(items: str, item: str, optional: bool, src: _Source,
               place: _Place) -> tuple[str, _Place]:
    """The function's outermost loop, over the value named ``items``: its chains may
    come from columns (see :class:`Loop`)."""
    loop = Loop(items, item, optional)
    src.loops.append(loop)
    src.lines.append(loop.header)
    return item, replace(place, depth=2, loop=loop)


def _closure_stream(node: tuple, src: _Source, place: _Place) -> tuple[str, _Place]:
    compiled = compile_node(node, place.scope)
    out = src.temp()
    if compiled.opt is not None:
        src.emit(place.depth, f"{out} = {src.constant(compiled.opt)}({place.input}, {place.env})")
        src.emit(place.depth, f"if {out} is not _NOTHING:")
    else:
        src.emit(place.depth,
                 f"for {out} in {src.constant(compiled.gen)}({place.input}, {place.env}):")
    return out, replace(place, depth=place.depth + 1)


def _named(value: str, src: _Source, place: _Place) -> str:
    """``value`` held in a local name (so it can be read more than once)."""
    if value.isidentifier():
        return value
    name = src.temp()
    src.emit(place.depth, f"{name} = {value}")
    if place.loop is not None:
        place.loop.hold(name, value)
    return name


# ---------------------------------------------------------------- one output: expressions
