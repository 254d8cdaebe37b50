"""``[ITEMS[] | {k: .a.b, ...}] | sort_by(.k) | .[m:n]`` (or ``[ITEMS[]] | sort_by(.a.b)``,
or ``.[N]``) from columns (:mod:`.vector`): the key column ordered, the kept items alone
made; over :class:`.boundinputs.Hollow` inputs whose lines are all objects, only the key's
column is made and the kept lines are read whole."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jqmagic.core.jqlang import columns, sorting
from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.boundinputs import Hollow, listed
from jqmagic.core.jqlang.compiled import NOTHING, Compiled
from jqmagic.core.jqlang.errors import JqError
from jqmagic.core.jqlang.runtime import state
from jqmagic.core.jqlang.scope import compile_node
from jqmagic.core.jqlang.vector import answering, chain_names, items_of, stages_of


def of_pipe(node: tuple, scope: Any, plain: Compiled) -> Compiled | None:
    """``[ITEMS[] | {k: .a.b, ...}] | sort_by(.k) | CUT | REST``, CUT a slice or an index
    of literal numbers, as ``plain`` (the pipe compiled) answers it but for the items
    made: only the kept ones are, from whole columns (``[ITEMS[]]`` and ``sort_by(.a.b)``:
    the kept items themselves); ``plain`` runs where a column is missing or not whole, or
    its keys are not ordered by Python as jq orders them. None for any other pipe."""
    stages = stages_of(node)
    form = sorted_form(stages)
    if form is None or ("sort_by", 1) in scope.funcs:
        return None
    bounds = _cut(stages[2], scope)
    if bounds is None:
        return None
    items = compile_node(items_of(stages[0].body), scope).one
    return answering(_sorted_cut(items, *form, *bounds), plain, stages[3:], scope)


def sorted_form(stages: list[tuple]) -> tuple | None:
    """``(names, chains, key)`` of stages ``[ITEMS[] | {names: chains...}] | sort_by(.k)``
    (key: the chain named k) or ``[ITEMS[]] | sort_by(.a.b)`` (names None), followed by
    a third stage; None for others."""
    if len(stages) < 3 or stages[0][0] != "array" or stages[0].body is None:
        return None
    made, by = stages[:2]
    if by[0] != "call" or by.name != "sort_by" or len(by.args) != 1 or \
            items_of(made.body) is None or not chain_names(by.args[0]):
        return None
    key, inner = chain_names(by.args[0]), stages_of(made.body)
    if len(inner) == 1:  # [ITEMS[]]
        return None, (key,), key
    if len(inner) != 2 or inner[1][0] != "object" or len(key) != 1:
        return None
    entries = [(k[1] if k[0] == "literal" else None, chain_names(value))
               for k, value in inner[1].entries]
    names, chains = tuple(k for k, _ in entries), tuple(c for _, c in entries)
    if not all(type(k) is str for k in names) or len(set(names)) < len(names) or \
            not all(chains) or key[0] not in names:
        return None
    return names, chains, chains[names.index(key[0])]


def _constant(node: Any) -> bool:
    """A number literal, or its negation."""
    if node[0] == "neg":
        return _constant(node[1])
    return node[0] == "literal" and type(node[1]) in (int, float)


def _cut(node: tuple, scope: Any) -> tuple[bool, Any, Any] | None:
    """``.[m:n]`` as (True, m, n), ``.[N]`` as (False, N, None), each bound compiled
    (None when absent); None for anything else."""
    if node[0] == "slice" and node.target == ("dot",) and \
            all(b is None or _constant(b) for b in (node.lower, node.upper)):
        return True, *(None if b is None else compile_node(b, scope).one
                       for b in (node.lower, node.upper))
    if node[0] == "index" and node.target == ("dot",) and _constant(node.key):
        return False, compile_node(node.key, scope).one, None
    return None


def _sorted_cut(items_of_input: Callable, names: tuple[str, ...] | None,
                chains: tuple[tuple[str, ...], ...], key: tuple[str, ...],
                is_slice: bool, lower: Callable | None, upper: Callable | None) -> Callable:
    """``answer(v, env)``: the kept items of :func:`of_pipe`, or NOTHING."""
    def answer(v: Any, env: dict) -> Any:
        try:
            items = items_of_input(v, env)
        except JqError:
            return NOTHING  # the pipe raises it
        picked = type(items) is Hollow and names is not None and items.objects and \
            all(len(chain) == 1 for chain in chains if chain != key)
        found = [columns.column(items, chain) for chain in ((key,) if picked else chains)]
        if type(items) not in (list, Hollow) or None in found:
            return NOTHING
        start, stop = (None if b is None else b(items, env) for b in (lower, upper))
        if is_slice:
            first, last = jv.slice_bounds(len(items), start, stop)
        elif type(start) is not int:
            return NOTHING
        else:
            first = start + len(items) if start < 0 else start
            first, last = (first, first + 1) if 0 <= first < len(items) else (0, 0)
        places = sorting.sorted_places(found[0 if picked else chains.index(key)], first, last)
        if places is None:
            return NOTHING
        if picked:  # every line an object (.id no error anywhere): the kept lines read
            lines = items.lines(places)
            kept = columns.objects(names, tuple(columns.read_chain(lines, chain)
                                                for chain in chains))
        elif names is None:
            kept = list(map(listed(items).__getitem__, places))
        else:
            kept = columns.objects(names, tuple(list(map(column.__getitem__, places))
                                                for column in found))
        if is_slice:
            state.sliced = True
            return kept
        return kept[0] if kept else None
    return answer
