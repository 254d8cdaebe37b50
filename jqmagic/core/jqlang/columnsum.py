"""Sums over whole columns (:mod:`.columns`) at C's speed, each addition jq's, in jq's
order:

- ``reduce ITEMS[] as $x ({}; .[$x.k] += ($x.v // N))`` (or ``+= $x.v``): a sum per key,
  each key's rows in their order, the keys in the order of their first rows;
- ``[ITEMS[] | .a[]? | .x * .y] | add`` (or without ``.a[]?``): the products' sum.

jq adds doubles: a sum of two or more numbers is the doubles folded from -0.0 (the sum of
nothing, so that a lone -0.0 keeps its sign) made :func:`.values.computed`; a lone number
is itself (null + 1.0 is 1.0, printed as written). An answer is given only where no
value could print or fail otherwise: numbers alone (nulls where ``//`` or ``+=`` pass
over them; no booleans: true == 1 in Python), every partial sum within 2^53 (as the
loop's checks hold them), string keys; otherwise the loop runs and says what jq says.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import reduce
from itertools import compress, repeat
from operator import add, is_not, mul
from typing import Any

from jqmagic.core.jqlang import columns, vector
from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import NOTHING, Compiled
from jqmagic.core.jqlang.errors import JqError
from jqmagic.core.jqlang.numbers import MAX_EXACT
from jqmagic.core.jqlang.runtime import check
from jqmagic.core.jqlang.scope import compile_node

_STRINGS = frozenset({str})
_NUMBERS = frozenset({int, float})
_NUMBERS_OR_NULL = frozenset({int, float, type(None)})


def of_reduce(node: tuple, scope: Any) -> vector.Plan | None:
    """The plan of ``reduce ITEMS[] as $x ({}; .[$x.k] += ($x.v // N))``, N an integer
    literal (or ``+= $x.v``), or None."""
    _, source, name, init, update = node
    if vector.items_of(source) is None or len(vector.stages_of(source)) != 1 or \
            init != ("object", ()) or update[0] != "assign" or update.op != "+=" or \
            update.target[0] != "index" or update.target.target != ("dot",):
        return None
    value, default = update.value, None
    if value[0] == "alt" and value.right[0] == "literal" and type(value.right[1]) is int \
            and -MAX_EXACT <= value.right[1] <= MAX_EXACT:
        value, default = value.left, value.right[1]
    key, chain = _of_var(update.target.key, name), _of_var(value, name)
    return _grouped(key, chain, default) if key and chain else None


def _of_var(node: tuple, name: str) -> tuple[str, ...]:
    """``("a", "b")`` for ``$name.a.b``; empty for anything else."""
    names: list[str] = []
    while node[0] == "field":
        names.insert(0, node.name)
        node = node.target
    return tuple(names) if node == ("var", name) else ()


C_GROUPS: Callable[[list, list, Any], list | None] | None = None
"""``_jvbuild.group_sums`` where the extension is built (query/projected.py sets it):
each key's count, first number, sum from -0.0 and sum of magnitudes, in one pass."""


def _grouped(key: tuple[str, ...], chain: tuple[str, ...], default: int | None) -> vector.Plan:
    def plan(items: Any, env: dict) -> dict | None:
        keys = vector.keyed(items, key, _STRINGS)
        found = None if keys is None else columns.column(items, chain)
        if found is None:
            return None
        check()
        if C_GROUPS is not None:
            return _summed(C_GROUPS(keys, found, default))
        if not columns.kinds(items, chain) <= _NUMBERS_OR_NULL:
            return None
        if default is not None:  # v // N: N for a null
            found = list(map({None: default}.get, found, found))
        groups: dict[str, list] = {k: [] for k in dict.fromkeys(keys)}
        deque(map(list.append, map(groups.__getitem__, keys), found), 0)
        sums = {}
        for k, added in groups.items():
            if default is None:  # x + null is x
                added = list(compress(added, map(is_not, added, repeat(None))))
            total = _sum(added)
            if total is NOTHING:
                return None
            sums[k] = total
        return sums
    return plan


def _summed(groups: list | None) -> dict | None:
    """The sums :data:`C_GROUPS` made, as the loop holds them; None where it declined or
    a partial sum may reach 2^53."""
    sums = {}
    for key, count, first, total, bound in groups or ():
        if count < 2:
            sums[key] = first
        elif bound < MAX_EXACT:
            sums[key] = jv.computed(total)
        else:
            return None
    return None if groups is None else sums


def _sum(numbers: list) -> Any:
    """jq's sum of ``numbers`` from null (itself when there is one), or NOTHING where a
    partial sum may reach 2^53 (or a number is not finite)."""
    if len(numbers) < 2:
        return numbers[0] if numbers else None
    try:  # a bound of every partial sum: each int then a double as jq reads it
        if not len(numbers) * max(max(numbers), -min(numbers)) < MAX_EXACT:
            return NOTHING
        return jv.computed(reduce(add, numbers, -0.0))  # a non-finite one: NotMine
    except OverflowError:
        return NOTHING


def of_add(node: tuple, scope: Any, plain: Compiled) -> Compiled | None:
    """``[ITEMS[] | .a[]? | .x * .y] | add | REST`` (``.a[]``, or no list) as ``plain``
    (the pipe compiled) answers it, the products summed from columns; None for any other
    pipe."""
    stages = vector.stages_of(node)
    if len(stages) < 2 or stages[0][0] != "array" or stages[1] != ("call", "add", ()) or \
            ("add", 0) in scope.funcs or vector.items_of(stages[0].body) is None:
        return None
    inner = vector.stages_of(stages[0].body)[1:]
    lists = vector.iterated_chain(inner[0]) if inner else None
    if lists is not None:
        inner = inner[1:]
    if len(inner) != 1 or inner[0][0] != "binop" or inner[0].op != "*":
        return None
    left, right = vector.chain_names(inner[0].left), vector.chain_names(inner[0].right)
    if not left or not right:
        return None
    items = compile_node(vector.items_of(stages[0].body), scope).one
    return vector.answering(_products(items, lists, left, right), plain, stages[2:], scope)


def _products(items_of_input: Callable, lists: tuple | None, left: tuple[str, ...],
              right: tuple[str, ...]) -> Callable[[Any, dict], Any]:
    def answer(v: Any, env: dict) -> Any:
        try:
            items = items_of_input(v, env)
        except JqError:
            return NOTHING  # the pipe raises it
        if lists is None:
            a, b = _numbers(items, left), _numbers(items, right)
        else:  # the lists' items and their two chains in one pass
            column = vector.lists_of(items, *lists)
            if column is not None and C_PRODUCTS is not None:
                return _product_sum(C_PRODUCTS(column, left, right))
            found = None if column is None else columns.joined(column, (left, right))
            a, b = (None, None) if found is None else found[1]
        if a is None or b is None:
            return NOTHING
        if len(a) < 2:
            return jv.multiply(a[0], b[0]) if a else None
        check()
        try:  # jq multiplies doubles: 0 * -3 is -0
            products = list(map(mul, map(float, a), map(float, b)))
        except OverflowError:
            return NOTHING
        return _sum(products)
    return answer


C_PRODUCTS: Callable[[list, tuple, tuple], tuple | None] | None = None
"""``_jvbuild.joined_products`` where the extension is built (query/projected.py sets
it): the count, first factors, sum from -0.0 and sum of magnitudes of the products of
the items of a column's lists, in one pass."""


def _product_sum(found: tuple | None) -> Any:
    """The sum :data:`C_PRODUCTS` made, as the loop holds it; NOTHING where it declined
    or a partial sum may reach 2^53."""
    if found is None:
        return NOTHING
    count, a, b, total, bound = found
    if count < 2:
        return jv.multiply(a, b) if count else None
    return jv.computed(total) if bound < MAX_EXACT else NOTHING


def _numbers(items: Any, chain: tuple[str, ...]) -> list | None:
    """The column of ``chain`` on an owned list when every value is a number, else None."""
    found = columns.column(items, chain)
    return found if found is not None and columns.kinds(items, chain) <= _NUMBERS else None
