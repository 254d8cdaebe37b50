"""What jqlang's parse tree of a stage says before it runs: its context (variables bound,
defs in scope), its text without catch-less trys, a comparison's sides, whether it may be
a path, whether a defined function calls itself."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jqmagic.core.explain import unparse
from jqmagic.core.query import libjq

VALUE_VAR, ENV_VAR = "$__jqm_v", "$__jqm_env"


@dataclass(frozen=True)
class Context:
    """What a stage's text needs around it: variables bound before, defs in scope."""

    args: tuple[tuple[str, Any], ...] = ()
    names: tuple[str, ...] = ()
    defs: tuple[Any, ...] = ()

    def bound(self, *names: str) -> Context:
        kept = tuple(n for n in self.names if n not in names)
        return Context(self.args, kept + names, self.defs)

    def defined(self, node) -> Context:
        return Context(self.args, self.names, (*self.defs, node))

    def program(self, body: str) -> str:
        """``body`` as a whole program: the value is ``[v, env]`` when variables are bound."""
        defs = "".join(f"def {_head(d)}: {unparse.text(d[3])}; " for d in self.defs)
        if not self.names:
            return defs + body
        keys = ", ".join(unparse.var(n) for n in self.names)
        bound = f". as [{VALUE_VAR}, {ENV_VAR}] | {ENV_VAR} as {{{keys}}} | {VALUE_VAR}"
        return f"{bound} | {defs}{body}"

    def find(self, name: str, arity: int):
        for node in reversed(self.defs):
            if node[1] == name and len(node[2]) == arity:
                return node
        return None

    def compile(self, body: str) -> libjq.Program:
        return libjq.compile_program(self.program(body), dict(self.args))


def _head(node) -> str:
    return f"{node[1]}({'; '.join(node[2])})" if node[2] else node[1]


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def bare_text(node) -> str | None:
    """The stage's text with each catch-less ``try`` (``?``) taken away; None if it has
    none."""
    def bare(item):
        if isinstance(item, tuple) and item and item[0] == "try" and len(item) == 2:
            return bare(item[1])
        if isinstance(item, tuple) and hasattr(item, "_fields"):
            return item._replace(**{f: bare(getattr(item, f)) for f in item._fields[1:]})
        if isinstance(item, tuple):
            return tuple(bare(x) for x in item)
        return item

    if not any(n[0] == "try" and len(n) == 2 for n in walk(node)):
        return None
    return unparse.text(bare(node))


def sides_text(node) -> str | None:
    """For a comparison stage, a program giving the types of each side's values."""
    if node[0] != "binop" or node[1] not in COMPARISONS:
        return None
    return (f"[({unparse.text(node[2])}) | type] | unique, "
            f"[({unparse.text(node[3])}) | type] | unique")


def comparison(node) -> dict[str, str]:
    return {"op": node[1], "left_text": unparse.text(node[2]),
            "right_text": unparse.text(node[3])}


def pattern_names(pattern) -> Iterator[str]:
    if pattern[0] == "pvar":
        yield pattern[1]
    elif pattern[0] == "parray":
        for item in pattern[1]:
            yield from pattern_names(item)
    else:
        for _, name, sub in pattern[1]:
            if name is not None:
                yield name
            if sub is not None:
                yield from pattern_names(sub)


def commas(node) -> Iterator:
    if node[0] == "comma":
        yield from commas(node[1])
        yield from commas(node[2])
    else:
        yield node


_PATH_CALLS = {"select", "recurse", "first", "last", "limit", "skip", "nth", "getpath",
               "empty", "error", "objects", "arrays", "strings", "numbers", "booleans",
               "nulls", "values", "scalars", "iterables", "until", "while", "repeat",
               "recurse_down", "paths", "leaf_paths", "input", "debug", "stderr"}


def maybe_path(node, ctx: Context) -> bool:
    """Whether ``node`` may be a path expression (worth asking libjq its paths): no
    constructor, arithmetic or value-making builtin at its top."""
    kind = node[0]
    if kind in ("dot", "recurse", "field", "index", "slice", "iterate", "var", "break"):
        return kind != "var"
    if kind in ("pipe", "comma", "alt"):
        return maybe_path(node[1], ctx) and maybe_path(node[2], ctx)
    if kind == "if":
        arms = [then for _, then in node[1]] + [node[2] or ("dot",)]
        return all(maybe_path(arm, ctx) for arm in arms)
    if kind in ("try", "trycatch", "label"):
        return maybe_path(node[-1] if kind == "label" else node[1], ctx)
    if kind in ("bind", "destructure"):
        return maybe_path(node[3], ctx)
    if kind == "def":
        return maybe_path(node[4], ctx.defined(node))
    if kind == "call":
        return node[1] in _PATH_CALLS or ctx.find(node[1], len(node[2])) is not None
    return kind in ("reduce", "foreach")


def unsplit_call(node, ctx: Context) -> str | None:
    """Why a call to a function defined in the program is shown whole, if it is."""
    defined = ctx.find(node[1], len(node[2]))
    if defined is None:
        return None
    if recursive(defined, ctx):
        return f"not split: {node[1]} calls itself"
    if defined[2]:
        return f"not split: {node[1]} takes parameters"
    return None


def recursive(defined, ctx: Context) -> bool:
    """Whether a defined function calls itself, directly or through other defs."""
    seen, stack = set(), [defined]
    while stack:
        node = stack.pop()
        calls = [n for n in walk(node[3]) if n[0] == "call"]
        for call in calls:
            target = ctx.find(call[1], len(call[2]))
            if target is defined:
                return True
            if target is not None and id(target) not in seen:
                seen.add(id(target))
                stack.append(target)
    return False


def walk(node) -> Iterator:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if item and isinstance(item[0], str) and item[0] in unparse._PRINTERS:
                yield item
            stack.extend(x for x in item if isinstance(x, tuple))
