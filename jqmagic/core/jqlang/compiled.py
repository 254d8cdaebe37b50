"""A compiled jq expression: a generator, plus faster entry points when it yields one value."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

NOTHING = object()
"""What an at-most-one-value function returns for "no value"."""

Env = dict
Gen = Callable[[Any, Env], Iterable[Any]]
One = Callable[[Any, Env], Any]


@dataclass(frozen=True)
class Compiled:
    """``gen(input, env)`` yields every output. ``opt`` (at most one output, NOTHING for
    none) and ``one`` (exactly one output) are set when the expression is known to fit."""

    gen: Gen
    opt: One | None = None
    one: One | None = None
    chain: tuple[str, ...] | None = None  # .a.b of the input: a column may answer it


def singular(fn: One) -> Compiled:
    """An expression with exactly one output."""
    return Compiled(gen=lambda v, e: (fn(v, e),), opt=fn, one=fn)


IDENTITY = singular(lambda v, e: v)
"""``.``, one for every program (a builtin may take ``f is IDENTITY`` for the input itself)."""


def optional(fn: One) -> Compiled:
    """An expression with zero or one output (``fn`` returns NOTHING for none)."""

    def gen(v, e):
        out = fn(v, e)
        return () if out is NOTHING else (out,)

    return Compiled(gen=gen, opt=fn)


def many(gen: Gen) -> Compiled:
    return Compiled(gen=gen)
