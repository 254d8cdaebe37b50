"""``reduce S as $x (init; update)`` fused into one generated Python function (see
:mod:`.fuse`, whose streams and expressions it writes): the update in place on the object
the reduction owns (``.[K] op= V``), or as a raw sum of doubles (``. + f``)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from jqmagic.core.jqlang import columnsum, vector
from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import Compiled, singular
from jqmagic.core.jqlang.fuse import _alias, _stream, _vector_first
from jqmagic.core.jqlang.fuseexpr import (
    _INT_OPS,
    _exact_int,
    _expr,
    _int_arithmetic,
    _Place,
    _Source,
)
from jqmagic.core.jqlang.scope import compile_node


def fuse_reduce(node: tuple, scope: Any) -> Compiled | None:
    """``reduce S as $x (init; update)`` with one init and one-output update as one
    function; None for other reductions (the closure compiler's)."""
    _, source, name, init, update = node
    src = _Source()
    place = _Place(scope)
    _vector_first(vector.of_reduce(node, scope) or columnsum.of_reduce(node, scope), source,
                  src, place)
    first = _expr(init, src, place)
    inner, key = scope.bind(name)
    keyed = _keyed_update(update)
    if first is None or compile_node(update, inner).one is None and keyed is None:
        return None
    src.emit(1, f"acc = {first}")
    src.emit(1, "env = dict(e)")
    item, at = _stream(source, src, place)
    at = replace(at, scope=inner, env="env", locals=((key, "x"),))
    binding = f"x = env[{key!r}] = {item}"
    src.emit(at.depth, binding)
    _alias("x", item, at)
    addend = _sum_step(update, src, replace(at, input="acc"))
    if keyed is not None:
        _write_keyed_update(keyed, update, src, replace(at, input="acc"),
                            f"{{**env, {key!r}: x}}")
        if sum(len(re.findall(r"\benv\b", line)) for line in src.lines) == 3:
            at_binding = src.lines.index("    " * at.depth + binding)  # only the fallback
            src.lines[at_binding] = "    " * at.depth + f"x = {item}"  # reads $x: bound there
    elif addend is None:
        src.emit(at.depth, f"acc = {_expr(update, src, replace(at, input='acc'))}")
    else:  # acc + addend as raw doubles while both are numbers, then as jv.add
        src.emit(at.depth, f"y = {addend}")
        src.emit(at.depth, "if type(y) is float and (type(acc) is float or type(acc) is int):")
        src.emit(at.depth + 1, "acc = acc + y")
        src.emit(at.depth + 1, "floats = True")
        src.emit(at.depth, "else:")
        src.emit(at.depth + 1,  # a raw sum held as jq holds it; a lone literal (null + 12.0) as is
                 "acc = _add(_computed(acc) if floats and type(acc) is float else acc, y)")
        src.lines.insert(0, "    floats = False")
        src.emit(1, "if floats and type(acc) is float:  # a raw double: held as jv.computed")
        src.emit(2, "acc = _computed(acc)")
    src.emit(1, "return acc")
    return singular(src.function())


_KEYED_OPS = ("+=", "-=", "*=", "/=", "%=")


def _keyed_update(update: tuple) -> tuple | None:
    """For an update ``.[K] op= V`` (an arithmetic ``op``; ``K`` and ``V`` not reading
    ``.``): ``(op, K, V)``."""
    if update[0] != "assign" or update.op not in _KEYED_OPS:
        return None
    target = update.target
    if target[0] != "index" or target.target != ("dot",) or _reads_input(target.key) or \
            _reads_input(update.value):
        return None
    return update.op[:-1], target.key, update.value


def _write_keyed_update(keyed: tuple, update: tuple, src: _Source, place: _Place,
                        fallback_env: str) -> None:
    """``acc = acc | .[K] op= V``: in place on an object the reduction owns (copied once,
    on its first write); any other case is the closure's (jq's ``_modify``), as are the
    errors (the closure given ``fallback_env``). V is evaluated first, then K, as the
    closure does."""
    op, key_node, value_node = keyed
    fn = src.constant(jv.ARITHMETIC[op])
    whole = src.constant(compile_node(update, place.scope).gen)  # V one value: one output
    depth = place.depth
    src.lines.insert(0, "    owned = False")
    y = _expr(value_node, src, place)
    if not _exact_int(y):  # a literal is read where it is used
        src.emit(depth, f"y = {y}")
        y = "y"
    key, otherwise = _expr(key_node, src, place), "else:"
    if key is None:  # a key no expression writes (f? // "x"): its closure's one output
        outputs = src.constant(compile_node(key_node, place.scope).gen)
        key = f"{src.constant(_single)}({outputs}({place.input}, {fallback_env}))"
        otherwise = f"elif k is not {src.constant(_NO_KEY)}:"  # .[empty] += 1 changes nothing
    src.emit(depth, f"k = {key}")
    src.emit(depth, "if type(k) is str and (type(acc) is dict or acc is None):")
    src.emit(depth + 1, "if not owned:")
    src.emit(depth + 2, "acc, owned = ({} if acc is None else dict(acc)), True")
    new = _int_arithmetic(op, "acc.get(k)", y, fn, src, True) if op in _INT_OPS else \
        f"{fn}(acc.get(k), {y})"
    src.emit(depth + 1, f"acc[k] = {new}")
    src.emit(depth, otherwise)
    src.emit(depth + 1, f"acc, owned = next(iter({whole}(acc, {fallback_env}))), False")


_NO_KEY = object()  # a key stream with no value: nothing to update
_KEYS = object()  # several: the closure updates at each, as jq does


def _single(outputs: Any) -> Any:
    """The one value of ``outputs``, :data:`_NO_KEY` when there is none, :data:`_KEYS`
    when there are several."""
    outputs = iter(outputs)
    found = next(outputs, _NO_KEY)
    return found if found is _NO_KEY or next(outputs, _NO_KEY) is _NO_KEY else _KEYS


def _sum_step(update: tuple, src: _Source, place: _Place) -> str | None:
    """For an update ``. + f`` where ``f`` does not read ``.``: ``f`` as an expression."""
    if update[:2] != ("binop", "+") or update[2] != ("dot",) or _reads_input(update[3]):
        return None
    return _expr(update[3], src, place)


def _reads_input(node: Any) -> bool:
    """Whether ``node`` may read its input (anything but literals, ``$names``, field
    chains on them, ``A // B`` of those, ``B`` a literal or a ``$name``, and such a value
    piped through :func:`_of_its_input` filters: one value)."""
    if node[0] == "field":
        return _reads_input(node[1])
    if node[0] == "alt":
        return _reads_input(node.left) or node.right[0] not in ("literal", "var")
    if node[0] == "pipe":
        return _reads_input(node.left) or not _of_its_input(node.right)
    return node[0] not in ("literal", "var")


_OWN_INPUT_CALLS = frozenset({"tostring", "tojson", "ascii_downcase", "ascii_upcase", "type",
                              "length", "trim", "ltrim", "rtrim", "utf8bytelength"})


def _of_its_input(node: Any) -> bool:
    """Whether ``node`` reads nothing but its own input, one value out of one in (a key
    piped through ``tostring`` or ``ascii_downcase``: ``.[$e.a // "none" | tostring]``)."""
    if node[0] == "field":
        return _of_its_input(node[1])
    if node[0] == "pipe":
        return _of_its_input(node.left) and _of_its_input(node.right)
    if node[0] == "alt":  # f // "x": one value when f gives at most one
        return _of_its_input(node.left) and node.right[0] in ("literal", "var")
    if node[0] == "try":  # f? (no catch: try_catch is its own kind): at most one
        return _of_its_input(node.body)
    return node[0] == "dot" or node[0] == "call" and not node.args and \
        node.name in _OWN_INPUT_CALLS
