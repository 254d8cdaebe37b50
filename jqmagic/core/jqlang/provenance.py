"""Which negations take a literal: jq 1.8.2 prints ``-(0)`` of a literal zero (of the
inputs, of the program, of a ``$name`` argument) as ``0`` and of a computed one as ``-0``,
and the fast path holds both as the int 0. A negation whose operand yields only values
read from the inputs or written in the program is marked (:class:`.syntax.LiteralNeg`);
anything the analysis does not know counts as maybe computed.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core.jqlang.syntax import LiteralNeg

_OF_INPUT = frozenset({"select", "empty", "values", "nulls", "numbers", "first", "last",
                       "recurse"})
"""Builtins whose outputs are their input or items of it (without arguments, or with a
filter that only selects)."""
_OF_LAST = frozenset({"first", "last", "limit"})
"""Builtins with arguments whose outputs are their last argument's."""
_SAME_DOT = frozenset({"array", "comma", "alt", "and", "or", "binop", "neg", "try", "field",
                       "index", "slice", "iterate", "string", "format", "if"})
"""Nodes whose children see the node's own ``.``; any other's (a reduce's update, a
catch's handler, a definition's body) may see computed values."""


def literal_negations(tree: Any, names: frozenset[str]) -> Any:
    """``tree`` with each negation of literal numbers marked; ``names``: the ``$name``s
    bound from outside (arguments, the inputs), whose values are literal."""
    defined: set[str] = set()
    _definitions(tree, defined)
    return _Marker(names, frozenset(defined)).mark(tree, True)


def _definitions(node: Any, found: set[str]) -> None:
    if isinstance(node, tuple):
        if node[:1] == ("def",):
            found.add(node[1])
        for item in node:
            _definitions(item, found)


class _Marker:
    def __init__(self, names: frozenset[str], defined: frozenset[str]):
        self.names, self.defined = names, defined

    def mark(self, node: Any, dot: bool) -> Any:
        """``node`` with its literal negations marked; ``dot``: whether ``.`` here holds
        literal values only."""
        if not hasattr(node, "_fields"):  # a name, or a tuple of parameters or entries
            return node
        kind = node[0]
        if kind == "pipe":
            return type(node)(self.mark(node[1], dot), self.mark(node[2], self.literal(
                node[1], dot)))
        inner = dot and kind in _SAME_DOT
        children = type(node)(*(self.mark(item, inner) for item in node[1:]))
        if kind == "neg" and self.literal(node[1], dot):
            return LiteralNeg(children[1])
        return children

    def literal(self, node: Any, dot: bool) -> bool:
        """Whether every number ``node`` outputs is a literal."""
        kind = node[0]
        if kind == "dot" or kind == "recurse":
            return dot
        if kind == "literal":
            return True
        if kind == "var":
            return node[1] in self.names
        if kind in ("field", "index", "slice", "iterate"):
            return self.literal(node[1], dot)
        if kind == "try":
            return self.literal(node[1], dot)
        if kind in ("alt", "comma"):
            return self.literal(node[1], dot) and self.literal(node[2], dot)
        if kind == "pipe":
            return self.literal(node[2], self.literal(node[1], dot))
        if kind == "if":
            return all(self.literal(then, dot) for _, then in node[1]) and (
                node[2] is None and dot or node[2] is not None and self.literal(node[2], dot))
        if kind == "call" and node[1] not in self.defined:
            name, args = node[1], node[2]
            if name in _OF_LAST and args:
                return self.literal(args[-1], dot)
            if name in _OF_INPUT and (not args or name == "select"):
                return dot
        return False
