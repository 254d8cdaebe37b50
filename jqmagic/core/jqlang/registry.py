"""The one place the fast path's tables are put together: each module's compilers and
builtins merged (as jaq's ``defs()``/``funs()``), and the root scope a program compiles in."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from jqmagic.core.jqlang import (
    builtins,
    compiler,
    control,
    dates,
    library,
    maths,
    paths,
    regex,
    sorting,
    structural,
    text,
    updates,
)
from jqmagic.core.jqlang.compiled import Compiled
from jqmagic.core.jqlang.provenance import literal_negations
from jqmagic.core.jqlang.scope import Scope, Tables, compile_node


def merged(*tables: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """One read-only table of ``tables``; a key two of them define is a mistake."""
    out: dict = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise ValueError(f"defined twice: {sorted(map(str, twice))}")
        out.update(table)
    return MappingProxyType(out)


TABLES = Tables(
    compilers=merged(compiler.COMPILERS, control.COMPILERS, updates.COMPILERS),
    forms=merged(compiler.FORMS, updates.FORMS),
    builtins=merged(builtins.BUILTINS, control.BUILTINS, dates.BUILTINS, library.BUILTINS,
                    maths.BUILTINS, regex.BUILTINS, sorting.BUILTINS, structural.BUILTINS,
                    text.BUILTINS, updates.BUILTINS),
    paths=MappingProxyType(paths.PATHS),
    path_builtins=MappingProxyType(paths.PATH_BUILTINS),
)


def compile_tree(tree: Any, names: frozenset[str]) -> Compiled:
    """``tree`` compiled with ``names`` bound from outside (any other ``$name``: NotMine),
    its negations of literals marked (:mod:`.provenance`)."""
    return compile_node(literal_negations(tree, names),
                        Scope({name: name for name in names}, {}, TABLES))
