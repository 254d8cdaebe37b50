"""Programs whose inputs are read by plans of their columns alone (:mod:`.vector`): over a
JSON Lines file held as spans, such a question makes the columns it reads and no value
(:class:`.boundinputs.Hollow`)."""

from __future__ import annotations

from typing import Any

from jqmagic.core.jqlang.sortedcut import sorted_form
from jqmagic.core.jqlang.syntax import Iterate
from jqmagic.core.jqlang.vector import chain_names, items_of, iterated_chain, stages_of


def reads_columns(tree: tuple, name: str) -> bool:
    """Whether a program reads ``$name`` (jq's ``inputs``, bound: every input) only as
    the items of a first stage whose plans read their columns alone: ``[$name[] | .a.b
    ...]``, ``[$name[] | .a.b[]? ...]``, ``[$name[] | {k: .a.b, ...}] ...``,
    ``[$name[] | select(f)] | length``, ``[$name[] | select(f) | .c.d] ...`` or
    ``reduce $name[] as $x (...)``, run once before
    any output (a plan that declines at run time has the items made then)."""
    if _mentions(tree, name) != 1:
        return False
    stages = stages_of(tree)
    first = stages[0]
    if first[0] == "reduce":
        return stages_of(first.source) == [Iterate(("var", name))] and \
            first.init == ("object", ()) and first.update[0] == "assign" and \
            first.update.op == "+="
    if first[0] != "array" or first.body is None or items_of(first.body) != ("var", name):
        return False
    inner = stages_of(first.body)
    if len(inner) < 2 or stages_of(inner[0]) != [Iterate(("var", name))]:
        return False
    second = inner[1]
    if chain_names(second) or iterated_chain(second) is not None:
        return True
    if second[0] == "object":
        return len(inner) == 2
    if second[0] != "call" or second.name != "select":
        return False
    return len(inner) == 3 and bool(chain_names(inner[2])) or \
        len(inner) == 2 and stages[1:2] == [("call", "length", ())]


def _mentions(node: Any, name: str) -> int:
    """How many times ``$name`` is read in ``node``."""
    if not isinstance(node, tuple) or not node:
        return 0
    if node[0] == "var" and node[1:] == (name,):
        return 1
    parts = node[1:] if type(node[0]) is str else node  # a node, or a tuple of nodes
    return sum(_mentions(part, name) for part in parts if isinstance(part, tuple))


def whole_chains(tree: tuple) -> frozenset | None:
    """The chains whose whole columns a program's plan reads, where fewer than all it
    reads: the key alone of ``[$name[] | {k: .a.b, id: .id}] | sort_by(.k) | CUT`` whose
    other chains are members (:mod:`.sortedcut` reads the kept lines whole); else None."""
    form = sorted_form(stages_of(tree))
    if form is None or form[0] is None:
        return None
    _, chains, key = form
    return frozenset({key}) if all(len(chain) == 1 for chain in chains if chain != key) \
        else None
