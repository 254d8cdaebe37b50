"""The expressions fused code writes inline, one output each (field chains, comparisons,
arithmetic, ``and``/``or``, ``if``, objects, arrays, string interpolation, calls), and the
generated function they are written into: its source (``_Source``) and the place an
expression stands (``_Place``). The streams around them are :mod:`.fuse`'s."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any

from jqmagic.core.jqlang import columns, runtime
from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.columnloop import Loop
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.dates import iso_reformat
from jqmagic.core.jqlang.errors import JqError, NotMine
from jqmagic.core.jqlang.numbers import number_text
from jqmagic.core.jqlang.printer import tojson
from jqmagic.core.jqlang.regex import tester
from jqmagic.core.jqlang.scope import compile_node
from jqmagic.core.jqlang.syntax import Array, Dot, Iterate, LiteralNeg, Pipe
from jqmagic.core.jqlang.text import format_of


def _field_on_the_left(v: Any, name: str) -> Any:
    """``jv.field`` on the left of ``//``, where an error is the closures' NotMine."""
    try:
        return jv.field(v, name)
    except JqError as exc:
        raise NotMine("error on the left of //") from exc


MEMO_CAP = 1 << 16


def _remember(memo: dict, fn: Any, x: Any, *args: Any) -> Any:
    """``fn(x, *args)``, kept in ``memo`` when ``x`` is a string and there is room."""
    answer = fn(x, *args)
    if type(x) is str and len(memo) < MEMO_CAP:
        memo[x] = answer
    return answer


_HELPERS = {"_field": jv.field, "_iterate": jv.iterate, "_NOTHING": NOTHING,
            "_zipped": columns.zipped, "_whole": columns.whole, "_UNREAD": columns.UNREAD,
            "_repeats": columns.repeats, "_recorded": columns.recorded,
            "_remember": _remember,
            "_field_left": _field_on_the_left,
            "_tojson": tojson, "_add": jv.add, "_computed": jv.computed,
            "_state": runtime.state, "_number_text": number_text, "_JqError": JqError}
_PLAIN = ("dot", "literal", "var")
"""Nodes whose evaluation can neither fail nor depend on order."""


_ENVIRONMENT = re.compile(r"^ *(_t\d+) = \{\*\*", re.MULTILINE)
"""A line that makes an environment with a ``$name`` more (see :func:`_bind_stream`)."""


@dataclass
class _Source:
    """One generated function: its lines, and the objects its text names."""

    names: dict[str, Any] = field(default_factory=lambda: dict(_HELPERS))
    prologue: dict[str, str] = field(default_factory=dict)  # locals set first, in order
    lines: list[str] = field(default_factory=list)
    numbers: count = field(default_factory=count)
    loops: list[Loop] = field(default_factory=list)

    def constant(self, value: Any) -> str:
        name = f"_k{next(self.numbers)}"
        self.names[name] = value
        return name

    def temp(self) -> str:
        return f"_t{next(self.numbers)}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def function(self) -> Any:
        body = "\n".join(self.lines)
        for name in _ENVIRONMENT.findall(body):  # an environment nothing reads: not made
            if len(re.findall(rf"\b{name}\b", body)) == 1:
                self.lines = [line for line in self.lines
                              if not line.lstrip().startswith(f"{name} = {{**")]
        for loop in self.loops:
            loop.zip_columns(self.lines, self)
        first = [f"    {name} = {value}" for name, value in self.prologue.items()]
        text = "def fused(v, e):\n" + "\n".join(first + self.lines) + "\n"
        exec(compile(text, "<jq fused>", "exec"), self.names)  # noqa: S102 - our own text
        return self.names["fused"]


@dataclass(frozen=True)
class _Place:
    """Where an expression is written: the scope of names, the Python names of its input
    and environment, the loop depth, and ``$names`` held in Python locals."""

    scope: Any
    input: str = "v"
    env: str = "e"
    depth: int = 1
    locals: tuple[tuple[str, str], ...] = ()
    loop: Loop | None = None


def _expr(node: tuple, src: _Source, place: _Place, fallback: bool = True) -> str | None:
    """A Python expression for ``node``'s one output, or None when it may have more or
    fewer (``fallback``: a one-output closure is called when no form below fits)."""
    writer = _EXPRESSIONS.get(node[0])
    if writer is not None:
        text = writer(node, src, place)
        if text is not None:
            return text
    if not fallback:
        return None
    one = compile_node(node, place.scope).one
    return None if one is None else f"{src.constant(one)}({place.input}, {place.env})"


def _dot(node, src, place):
    return place.input


def _literal(node, src, place):
    value = node[1]
    return repr(value) if value is None or type(value) in (bool, int, str) else \
        src.constant(value)


def _var(node, src, place):
    key = place.scope.vars.get(node[1])
    if key is None:
        return None
    return dict(place.locals).get(key) or f"{place.env}[{key!r}]"


def _chain(node: tuple) -> tuple[list[str], tuple]:
    names: list[str] = []
    while node[0] == "field":
        names.insert(0, node[2])
        node = node[1]
    return names, node


def _read_chain(value: str, names: list[str], src: _Source, place: _Place,
                other: str = "_field") -> str:
    """``value.a.b...``: from its column when ``value`` is the item of a loop that has
    them, else :func:`_fields`."""
    plain = _fields(value, names, other)
    return plain if place.loop is None else place.loop.read(value, names, plain, src)


def _fields(value: str, names: list[str], other: str = "_field") -> str:
    """``value.a.b...``: ``other`` (``jv.field``) unless the value is an object or null."""
    for name in names:
        if value.isidentifier():
            value = f"({value}.get({name!r}) if type({value}) is dict else None if {value} " \
                    f"is None else {other}({value}, {name!r}))"
        else:
            value = f"(_f.get({name!r}) if type(_f := {value}) is dict else None if _f is " \
                    f"None else {other}(_f, {name!r}))"
    return value


def _field_expr(node, src, place):
    names, base = _chain(node)
    value = _expr(base, src, place)
    return None if value is None else _read_chain(value, names, src, place)


def _pipe(node, src, place):
    first, rest = _first_step(node, src, place)
    if first is None:
        first = _expr(node[1], src, place)
    if first is None or rest is None:
        return first
    held = src.temp()
    if place.loop is not None:
        place.loop.hold(held, first)
    then = _expr(rest, src, replace(place, input=held))
    return None if then is None else f"({held} := {first}, {then})[1]"


def _first_step(node: tuple, src: _Source, place: _Place) -> tuple[str | None, Any]:
    """The expression of a pipe's first steps taken together, and the rest of the pipe
    (None: nothing more); else no expression, and the pipe's right-hand side. The steps
    taken together: ``fromdate | strftime(F)`` of a format of dates' fields alone
    (:func:`.dates.iso_reformat`)."""
    right = node[2]
    second, rest = (right[1], right[2]) if right[0] == "pipe" else (right, None)
    if any(_is_builtin(node[1], name, place, 0) for name in ("fromdate", "fromdateiso8601")) \
            and _is_builtin(second, "strftime", place) and second[2][0][0] == "literal" \
            and type(second[2][0][1]) is str:
        joined = iso_reformat(second[2][0][1])
        if joined is not None:
            return f"{src.constant(joined)}({place.input})", rest
    return None, right


def _binop(node, src, place):
    _, op, left, right = node
    a = _expr(left, src, place)
    if a is None:
        return None
    if right[0] == "literal" and op in ("==", "!=") and (
            right[1] is None or type(right[1]) is bool):  # each equals itself alone
        return f"({a} {'is' if op == '==' else 'is not'} {right[1]!r})"
    if right[0] == "literal" and op in jv.COMPARISONS:
        test = src.constant(jv.compare_with(op, right[1]))
        held = src.temp()
        if type(right[1]) is str:
            return f"({held} {op} {right[1]!r} if type({held} := {a}) is str else {test}({held}))"
        if type(right[1]) not in (int, float):
            return f"{test}({a})"
        # a number against a number, inline: ints as they are (exact below 2^53), floats
        # when no literal of the inputs is long (else the test notes the comparison)
        limit, c = jv.MAX_EXACT, src.constant(float(right[1]))
        src.prologue["plain"] = "None"
        return f"({held} {op} {c} if (type({held} := {a}) is float and (plain or " \
               f"(plain := not _state.literals.long))) or (type({held}) is int and " \
               f"-{limit} <= {held} <= {limit}) else {test}({held}))"
    b = _expr(right, src, place)
    if b is None:
        return None
    fn = src.constant(jv.COMPARISONS.get(op) or jv.ARITHMETIC[op])
    if op in _INT_OPS:
        return _int_arithmetic(op, a, b, fn, src, right[0] in _PLAIN)
    if left[0] in _PLAIN or right[0] in _PLAIN:
        return f"{fn}({a}, {b})"
    held = src.temp()  # the right operand first, as jq
    return f"({held} := {b}, {fn}({a}, {held}))[1]"


_INT_OPS = ("+", "-", "*")


def _int_arithmetic(op: str, a: str, b: str, fn: str, src: _Source, b_plain: bool) -> str:
    """``a op b`` inline when both are ints below 2^53 and so is the result (a zero
    product of a negative number is -0: the function's), else the function ``fn``."""
    x, r, limit = src.temp(), src.temp(), jv.MAX_EXACT
    in_range = f"-{limit} <= {{}} <= {limit} and "
    if b_plain and _exact_int(b):  # a literal: read as it is
        y, first, y_exact = b, f"type({x} := {a}) is int", ""
    elif b_plain and b.isidentifier():
        y, first = b, f"type({x} := {a}) is int"
        y_exact = f"type({y}) is int and " + in_range.format(y)
    else:  # b evaluated first, as jq does, then a (``&``: both, whatever the first is)
        y = src.temp()
        first = f"(type({y} := {b}) is int) & (type({x} := {a}) is int)"
        y_exact = in_range.format(y)
    # a zero product of a negative number is -0: the function's
    nonzero = f" and ({r} or {x} >= 0 <= {y})" if op == "*" and not (
        _exact_int(y) and int(y) > 0) else ""
    return f"({r} if {first} and {y_exact}{in_range.format(x)}" \
           f"-{limit} <= ({r} := {x} {op} {y}) <= {limit}{nonzero} else {fn}({x}, {y}))"


def _exact_int(text: str) -> bool:
    """Whether ``text`` is an int literal jq holds exactly."""
    return text.lstrip("-").isdigit() and abs(int(text)) <= jv.MAX_EXACT


def _alt(node, src, place):
    """``a // b`` where ``a`` is a field chain on ``.`` or a ``$name`` (one output; its
    error is the closures' NotMine) and ``b`` has one output."""
    names, base = _chain(node[1])
    value = _expr(base, src, place) if base[0] in ("dot", "var") else None
    default = _expr(node[2], src, place)
    if value is None or default is None:
        return None
    value = _read_chain(value, names, src, place, "_field_left")
    held = src.temp()
    return f"({held} if ({held} := {value}) is not None and {held} is not False else {default})"


def _truth(value: str, src: _Source) -> str:
    held = src.temp()
    return f"(({held} := {value}) is not None and {held} is not False)"


def _and(node, src, place):
    a, b = _expr(node[1], src, place), _expr(node[2], src, place)
    if a is None or b is None:
        return None
    return f"({_truth(a, src)} and {_truth(b, src)})"


def _or(node, src, place):
    a, b = _expr(node[1], src, place), _expr(node[2], src, place)
    if a is None or b is None:
        return None
    return f"({_truth(a, src)} or {_truth(b, src)})"


def _neg(node, src, place):
    inner = _expr(node[1], src, place)
    negate = jv.negate_literal if type(node) is LiteralNeg else jv.negate
    return None if inner is None else f"{src.constant(negate)}({inner})"


def _if(node, src, place):
    _, branches, otherwise = node
    text = place.input if otherwise is None else _expr(otherwise, src, place)
    for condition, then in reversed(branches):
        c, t = _expr(condition, src, place), _expr(then, src, place)
        if text is None or c is None or t is None:
            return None
        text = f"({t} if {_truth(c, src)} else {text})"
    return text


def _object(node, src, place):
    entries = []
    for key, value in node[1]:
        v = _expr(value, src, place)
        if key[0] != "literal" or type(key[1]) is not str or v is None:
            return None
        entries.append(f"{key[1]!r}: {v}")
    return "{" + ", ".join(entries) + "}"


def _array(node, src, place):
    if node[1] is None:
        return "[]"
    one = _expr(node[1], src, place, fallback=False)
    if one is not None:
        return f"[{one}]"
    if node[1][0] == "comma":  # [.[0], length]: a list of one expression each, in order
        at, parts = len(src.lines), _comma_parts(node[1])
        written = [_expr(part, src, place) for part in parts]
        if None not in written and len(src.lines) == at:
            return f"[{', '.join(written)}]"
        del src.lines[at:]  # a part that is no one expression, or one that wrote a statement
    inner = compile_node(node, place.scope).one  # the compiler fuses it: fuse_array
    return f"{src.constant(inner)}({place.input}, {place.env})"


def _comma_parts(node: tuple) -> list[tuple]:
    return [*_comma_parts(node.left), *_comma_parts(node.right)] if node[0] == "comma" \
        else [node]


def _reduce(node, src, place):  # fused where it can be (compiler -> fusereduce)
    one = compile_node(node, place.scope).one
    return None if one is None else f"{src.constant(one)}({place.input}, {place.env})"


def _string(node, src, place):
    """An interpolation: the last piece is evaluated first, as in jq."""
    _, fmt, parts = node
    convert = None if fmt in (None, "text") else src.constant(format_of(fmt))
    steps, pieces = [], []  # evaluated last piece first; joined first piece first
    for part in reversed(parts):
        if type(part) is str:
            pieces.append(part.replace("{", "{{").replace("}", "}}"))
            continue
        value = _expr(part, src, place)
        if value is None:
            return None
        held, text = src.temp(), src.temp()
        steps.append(f"{text} := ({held} if type({held} := {value}) is str else "
                     f"texts.get({held}) or _number_text({held}, literals) if type({held}) "
                     f"is float or "
                     f"type({held}) is int else _tojson({held}))" if convert is None
                     else f"{text} := {convert}({value})")
        pieces.append(f"{{{text}}}")
        src.prologue["literals"] = "_state.literals"
        src.prologue["texts"] = "literals.fraction_texts"
    joined = "f" + repr("".join(reversed(pieces)))  # one string built, not one a piece
    return f"({', '.join([*steps, joined])},)[-1]"


def _call(node, src, place):
    direct = _direct(node, place)
    if direct is not None:  # a builtin of the input and literal arguments: called itself
        args = "".join(f", {_literal(arg, src, place)}" for arg in node[2])
        if node[1] in _REMEMBERED:
            return _remembered(src.constant(direct), args, src, place)
        return f"{src.constant(direct)}({place.input}{args})"
    if _is_builtin(node, "map", place):
        return _array(Array(Pipe(Iterate(Dot()), node[2][0])), src, place)
    args = node[2]
    if 1 <= len(args) <= 2 and _is_builtin(node, "test", place, len(args)) and all(
            arg[0] == "literal" for arg in args) and type(args[0][1]) is str and \
            (len(args) == 1 or args[1][1] is None or type(args[1][1]) is str):
        try:  # test(re) and test(re; flags), flags a string or null
            found = tester(*(arg[1] for arg in args))
        except NotMine:  # outside the subset: the closure declines when it runs
            return None
        return _remembered(src.constant(found), "", src, place)
    return None


_REMEMBERED = frozenset({
    "ascii_downcase", "ascii_upcase", "ltrimstr", "rtrimstr", "startswith", "endswith",
    "trim", "ltrim", "rtrim", "utf8bytelength", "test"})
"""Builtins of a string whose answer is a string, a boolean or a number, that depends on
nothing but the string and literal arguments: each distinct string is computed once a
run (logins, names and types repeat across a log's events)."""


def _remembered(fn: str, args: str, src: _Source, place: _Place) -> str:
    """A call of ``fn`` on the input (with literal ``args``): through a memo of the run
    when the input is a chain a loop reads from a list whose values of it repeat (see
    :func:`.columns.repeats`), else at once."""
    value = place.input
    chain = None if place.loop is None else place.loop.chain_of(value)
    if chain is None:
        return f"{fn}({value}{args})"
    memo, repeats = f"_m{next(src.numbers)}", f"_r{next(src.numbers)}"
    held, answer = src.temp(), src.temp()
    src.prologue[memo] = "{}"
    place.loop.repeats[repeats] = chain
    return f"({answer} if type({held} := {value}) is str and {repeats} and ({answer} := " \
           f"{memo}.get({held}, _NOTHING)) is not _NOTHING else _remember({memo}, {fn}, " \
           f"{held}{args}) if {repeats} else {fn}({held}{args}))"


def _direct(node: tuple, place: _Place) -> Any:
    """The function a call of jq's own builtin with only literal arguments comes to (see
    :func:`.table.direct`), or None."""
    signature = (node[1], len(node[2]))
    if signature in place.scope.funcs or any(arg[0] != "literal" for arg in node[2]):
        return None
    return getattr(place.scope.tables.builtins.get(signature), "direct", None)


def _is_builtin(node: tuple, name: str, place: _Place, arity: int = 1) -> bool:
    """Whether ``node`` calls jq's own ``name/arity`` (not a definition of the program's)."""
    return node[0] == "call" and node[1] == name and len(node[2]) == arity and \
        (name, arity) not in place.scope.funcs


_EXPRESSIONS = {
    "dot": _dot, "literal": _literal, "var": _var, "field": _field_expr, "pipe": _pipe,
    "binop": _binop, "and": _and, "or": _or, "neg": _neg, "if": _if, "object": _object,
    "array": _array, "reduce": _reduce, "string": _string, "call": _call, "alt": _alt,
}
