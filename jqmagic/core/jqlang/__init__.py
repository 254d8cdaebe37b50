"""The fast path's jq: parse a program, compile the subset it knows, or say "not mine".

>>> program = compile_subset("[.[] | select(.n > 1) | .n]")
>>> list(program.run([{"n": 1}, {"n": 2}], {}))
[[2]]
>>> compile_subset("input") is None  # outside the subset: libjq decides
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jqmagic.core.jqlang.compiled import Compiled
from jqmagic.core.jqlang.errors import JqError, NotMine
from jqmagic.core.jqlang.parser import parse
from jqmagic.core.jqlang.registry import compile_tree

__all__ = ["JqError", "NotMine", "Program", "compile_subset", "variables"]


@dataclass(frozen=True)
class Program:
    """A compiled program; ``run(input, env)`` yields its outputs (``env``: ``$name`` -> value)."""

    text: str
    compiled: Compiled

    def run(self, value: Any, env: dict[str, Any]) -> Iterator[Any]:
        return iter(self.compiled.gen(value, env))


@lru_cache(maxsize=256)
def compile_subset(text: str, names: frozenset[str] = frozenset()) -> Program | None:
    """The program compiled when it is in the fast path's subset (``names`` bound from
    outside), else None: libjq answers it (``query.libjq.compile_program`` compiles there)."""
    try:
        return Program(text, compile_tree(parse(text), names))
    except (NotMine, RecursionError):
        return None


@lru_cache(maxsize=256)
def variables(text: str) -> frozenset[str]:
    """The ``$name``s a program refers to (empty when it does not parse)."""
    try:
        tree = parse(text)
    except (NotMine, RecursionError):
        return frozenset()
    found: set[str] = set()
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            if node[:1] == ("var",):
                found.add(node[1])
            stack.extend(node)
    return frozenset(found)
