"""The table of builtins a module exports, keyed by ``(name, arity)`` (merged by
:mod:`.registry`, as jaq's ``funs()``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jqmagic.core.jqlang.compiled import Compiled, singular


class Table(dict[tuple[str, int], Callable[..., Compiled]]):
    """``(name, arity)`` -> a factory taking the arguments compiled, giving the call."""

    def builtin(self, name: str, arity: int = 0):
        """Add the decorated factory as ``name/arity``."""
        def add(factory):
            self[(name, arity)] = factory
            return factory
        return add

    def unary(self, name: str):
        """Add the decorated function of the input alone as ``name/0``."""
        def add(fn: Callable[[Any], Any]):
            self[(name, 0)] = direct(lambda: singular(lambda v, e: fn(v)), fn)
            return fn
        return add


def direct(factory: Callable[..., Compiled], fn: Callable[..., Any]) -> Callable[..., Compiled]:
    """``factory``, marked as calling ``fn(input, *arguments' values)`` once per input and
    value of each argument, so that a fused loop may call ``fn`` itself."""
    factory.direct = fn  # type: ignore[attr-defined]
    return factory
