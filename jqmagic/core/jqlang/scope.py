"""What a name means where a node is compiled, and the dispatch of a node to its compiler
through the tables the scope carries (so no compiling module imports another)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import count
from typing import Any

from jqmagic.core.jqlang.compiled import Compiled
from jqmagic.core.jqlang.errors import NotMine

Pair = tuple[tuple, Any]
PathGen = Callable[[Pair, dict], Iterator[Pair]]
"""A path expression compiled: ``(path, value)`` in, ``(path, value)`` pairs out."""


@dataclass(frozen=True)
class Tables:
    """Every compiler, by node kind or builtin signature (see :mod:`.registry`)."""

    compilers: Mapping[str, Callable[[Any, Scope], Compiled]]
    forms: Mapping[tuple[str, int], Callable[[tuple, Scope], Compiled]]
    """Builtins that need their arguments' nodes (``path(f)`` reads ``f`` as a path)."""
    builtins: Mapping[tuple[str, int], Callable[..., Compiled]]
    """Builtins of their arguments compiled."""
    paths: Mapping[str, Callable[[Any, Scope], PathGen]]
    path_builtins: Mapping[tuple[str, int], Callable[..., PathGen]]


class Scope:
    """What a program's names mean where a node is compiled: each ``$name`` in scope and
    its key in the run-time environment (unique, so no binding hides another), each
    function ``(name, arity)`` defined there, and the compilers' tables."""

    __slots__ = ("funcs", "tables", "vars")

    def __init__(self, variables: dict[str, str], funcs: dict[tuple[str, int], Any],
                 tables: Tables):
        self.vars, self.funcs, self.tables = variables, funcs, tables

    def bind(self, name: str) -> tuple[Scope, str]:
        """The scope with ``$name`` bound afresh, and its key."""
        key = f"{name}#{next(_KEYS)}"
        return Scope({**self.vars, name: key}, self.funcs, self.tables), key

    def define(self, signature: tuple[str, int], meaning: Any) -> Scope:
        return Scope(self.vars, {**self.funcs, signature: meaning}, self.tables)


_KEYS = count()


def compile_node(node: Any, scope: Scope) -> Compiled:
    """``node`` compiled in ``scope``; NotMine for a kind the fast path lacks."""
    compiler = scope.tables.compilers.get(node[0])
    if compiler is None:
        raise NotMine(f"{node[0]} expressions")
    return compiler(node, scope)


def compile_path(node: Any, scope: Scope) -> PathGen:
    """``node`` as a path expression in ``scope``."""
    compiler = scope.tables.paths.get(node[0])
    if compiler is None:
        raise NotMine(f"{node[0]} as a path expression")
    return compiler(node, scope)
