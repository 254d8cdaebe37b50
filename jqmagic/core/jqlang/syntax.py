"""The parsed program: one NamedTuple per construct of jq 1.8.2's grammar.

Each node is a tuple whose first item is its ``kind`` (filled in by the class: ``Pipe(a, b)``
is ``("pipe", a, b)``), so the compilers dispatch on ``node[0]`` and a node equals the plain
tuple of its items.

>>> Pipe(Dot(), Field(Dot(), "a"))
Pipe(kind='pipe', left=Dot(kind='dot'), right=Field(kind='field', target=Dot(kind='dot'), name='a'))
>>> Field(Dot(), "a") == ("field", ("dot",), "a")
True
"""

from __future__ import annotations

from typing import Any, NamedTuple, Union

Node = Union["Dot", "Recurse", "Literal", "Var", "Pipe", "Comma", "Bind", "Destructure",
             "Field", "Index", "Slice", "Iterate", "Try", "TryCatch", "Neg", "BinOp", "And",
             "Or", "Alt", "Array", "Object", "If", "Call", "String", "Format", "Reduce",
             "Foreach", "Def", "Label", "Break", "Assign"]
Pattern = Union["PVar", "PArray", "PObject"]


def _kind(name: str):
    """Fill in the first field, ``kind``, with ``name`` when the class is called."""
    def fill(cls):
        make = cls.__new__

        def new(klass, *fields, **named):
            return make(klass, name, *fields, **named)

        cls.__new__ = staticmethod(new)
        cls.__getnewargs__ = lambda self: tuple(self)[1:]  # copy and pickle call the class
        return cls
    return fill


# ---------------------------------------------------------------- terms


@_kind("dot")
class Dot(NamedTuple):
    """``.``"""

    kind: str


@_kind("recurse")
class Recurse(NamedTuple):
    """``..``"""

    kind: str


@_kind("literal")
class Literal(NamedTuple):
    """A constant: ``null``, ``true``, a number, a string without interpolation."""

    kind: str
    value: Any


@_kind("var")
class Var(NamedTuple):
    """``$name``"""

    kind: str
    name: str


@_kind("format")
class Format(NamedTuple):
    """``@name`` alone (``@csv``)."""

    kind: str
    name: str


@_kind("string")
class String(NamedTuple):
    """An interpolated string: texts and nodes in ``parts``, ``@fmt "..."`` when ``fmt``."""

    kind: str
    fmt: str | None
    parts: tuple[str | Node, ...]


@_kind("array")
class Array(NamedTuple):
    """``[body]``; ``[]`` when body is None."""

    kind: str
    body: Node | None


@_kind("object")
class Object(NamedTuple):
    """``{k: v, ...}`` as ``(key node, value node)`` entries."""

    kind: str
    entries: tuple[tuple[Node, Node], ...]


@_kind("call")
class Call(NamedTuple):
    """``name(arg; ...)``: a builtin or a function defined in scope."""

    kind: str
    name: str
    args: tuple[Node, ...]


# ---------------------------------------------------------------- postfix steps


@_kind("field")
class Field(NamedTuple):
    """``target.name``"""

    kind: str
    target: Node
    name: str


@_kind("index")
class Index(NamedTuple):
    """``target[key]``"""

    kind: str
    target: Node
    key: Node


@_kind("slice")
class Slice(NamedTuple):
    """``target[lower:upper]`` (a missing bound is None)."""

    kind: str
    target: Node
    lower: Node | None
    upper: Node | None


@_kind("iterate")
class Iterate(NamedTuple):
    """``target[]``"""

    kind: str
    target: Node


@_kind("try")
class Try(NamedTuple):
    """``try body`` or ``body?``: errors end the body's outputs."""

    kind: str
    body: Node


# ---------------------------------------------------------------- operators


@_kind("pipe")
class Pipe(NamedTuple):
    """``left | right``"""

    kind: str
    left: Node
    right: Node


@_kind("comma")
class Comma(NamedTuple):
    """``left, right``"""

    kind: str
    left: Node
    right: Node


@_kind("neg")
class Neg(NamedTuple):
    """``-operand``"""

    kind: str
    operand: Node


@_kind("neg")
class LiteralNeg(NamedTuple):
    """``-operand`` where the operand's numbers are literals (of the inputs, of the
    program, of ``$name`` arguments): jq 1.8.2 negates their digits, ``-(0)`` is ``0``
    where a computed zero's negation is ``-0`` (:mod:`.provenance` finds them). Equal to
    its :class:`Neg` as a tuple: compilers tell them apart by their class."""

    kind: str
    operand: Node


@_kind("binop")
class BinOp(NamedTuple):
    """``left op right`` for ``+ - * / %`` and the comparisons."""

    kind: str
    op: str
    left: Node
    right: Node


@_kind("and")
class And(NamedTuple):
    """``left and right``"""

    kind: str
    left: Node
    right: Node


@_kind("or")
class Or(NamedTuple):
    """``left or right``"""

    kind: str
    left: Node
    right: Node


@_kind("alt")
class Alt(NamedTuple):
    """``left // right``"""

    kind: str
    left: Node
    right: Node


@_kind("assign")
class Assign(NamedTuple):
    """``target op value`` for ``= |= += -= *= /= %= //=``."""

    kind: str
    op: str
    target: Node
    value: Node


# ---------------------------------------------------------------- control


@_kind("if")
class If(NamedTuple):
    """``if c then t elif ... else otherwise end`` (``otherwise`` None: ``.``)."""

    kind: str
    branches: tuple[tuple[Node, Node], ...]
    otherwise: Node | None


@_kind("trycatch")
class TryCatch(NamedTuple):
    """``try body catch handler``"""

    kind: str
    body: Node
    handler: Node


@_kind("bind")
class Bind(NamedTuple):
    """``source as $name | body``"""

    kind: str
    source: Node
    name: str
    body: Node


@_kind("destructure")
class Destructure(NamedTuple):
    """``source as PATTERN ?// PATTERN ... | body``"""

    kind: str
    source: Node
    patterns: tuple[Pattern, ...]
    body: Node


@_kind("reduce")
class Reduce(NamedTuple):
    """``reduce source as $name (init; update)``"""

    kind: str
    source: Node
    name: str
    init: Node
    update: Node


@_kind("foreach")
class Foreach(NamedTuple):
    """``foreach source as $name (init; update; extract)`` (``extract`` None: ``.``)."""

    kind: str
    source: Node
    name: str
    init: Node
    update: Node
    extract: Node | None = None


@_kind("def")
class Def(NamedTuple):
    """``def name(params): body; rest``; a parameter is ``f`` or ``$a``."""

    kind: str
    name: str
    params: tuple[str, ...]
    body: Node
    rest: Node


@_kind("label")
class Label(NamedTuple):
    """``label $name | body``"""

    kind: str
    name: str
    body: Node


@_kind("break")
class Break(NamedTuple):
    """``break $name``"""

    kind: str
    name: str


# ---------------------------------------------------------------- patterns


@_kind("pvar")
class PVar(NamedTuple):
    """``$name`` as a pattern."""

    kind: str
    name: str


@_kind("parray")
class PArray(NamedTuple):
    """``[p0, p1, ...]``"""

    kind: str
    items: tuple[Pattern, ...]


@_kind("pobject")
class PObject(NamedTuple):
    """``{key: p, $name, $name: p, ...}`` as ``(key node, $name or None, pattern or None)``."""

    kind: str
    entries: tuple[tuple[Node, str | None, Pattern | None], ...]
