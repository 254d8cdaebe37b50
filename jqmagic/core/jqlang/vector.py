"""Answers over a whole column at C's speed: the loops of a fused function (:mod:`.fuse`)
that are a function of one field chain of each item.

A column (:mod:`.columns`) holds ``.actor.login`` for every event of a log; a question over
it, ``[.[] | .actor.login | ascii_downcase | select(startswith("zo"))]``, is a function of
that value alone. When the chain's values repeat (6,000 logins over 111k events), the rest
of the question runs once per distinct value, and the answer is a lookup per item made by
``map``, ``compress`` and ``Counter``, in C:

- ``[ITEMS[] | .a.b | f]``: each item's outputs of ``f`` on its value;
- ``[ITEMS[] | select(.a.b | f)]`` and ``select(.a.b op $x)``: the items ``f`` keeps;
- ``reduce ITEMS[] as $x ({}; .[$x.a.b] += 1)``: the count of each string;
- ``[ITEMS[] | {k: .a.b, ...}]``: objects zipped from whole columns, in C;
- ``[ITEMS[] | .a.b[]?]``: the column's lists joined, in C;
- ``[ITEMS[] | {k: .a.b, ...}] | sort_by(.k) | .[m:n]``: :mod:`.sortedcut`.

The rest of the question is computed in the order of the values' first items, so its first
error is the first item's error, as jq raises it. A value is a dict key only where Python's
equality is jq's (no floats: 1.0 == 1 == true; no booleans beside ints), and the question
may read nothing but its input and the program's constants (no ``break``, no input
readers, no function of the program's own). Otherwise, or when the list has no column of
the chain, the plan answers None and the fused loop runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import chain as chained
from itertools import compress, repeat
from typing import Any

from jqmagic.core.jqlang import columns
from jqmagic.core.jqlang.boundinputs import Hollow, listed
from jqmagic.core.jqlang.compiled import IDENTITY, NOTHING, Compiled, many, singular
from jqmagic.core.jqlang.dates import iso_reformat, reformat_column
from jqmagic.core.jqlang.errors import JqError, NotMine
from jqmagic.core.jqlang.runtime import check, chunked
from jqmagic.core.jqlang.scope import compile_node
from jqmagic.core.jqlang.syntax import Array, BinOp, Dot, Iterate, Pipe

Plan = Callable[[Any, dict], Any]
"""``plan(items, env)``: the answer, or None when the fused loop must compute it."""

_READERS = frozenset({"input", "inputs", "input_filename", "input_line_number", "debug",
                      "stderr", "now", "halt", "halt_error"})
_KEYABLE = frozenset({str, type(None), int, bool})


def items_of(stream: tuple) -> tuple | None:
    """``ITEMS`` of a stream ``ITEMS[] | ...`` where ITEMS is ``.``, a ``$name`` or a
    field chain on either (``.orders``, ``$__inputs``)."""
    if stream is None:  # [] has no stream
        return None
    first = stages_of(stream)[0]
    if first[0] == "iterate" and _chain(first.target)[1][0] in ("dot", "var"):
        return first.target
    return None


def of_array(stream: tuple, scope: Any) -> Plan | None:
    """The plan of ``[stream]``, or None when it is not one of the forms above."""
    stages = stages_of(stream)
    if items_of(stream) is None or len(stages) < 2:
        return None
    second, rest = stages[1], stages[2:]
    names = chain_names(second)
    if names and rest:
        after = _pure(_piped(rest), scope)
        plan = None if after is None else _mapped(names, after)
        fmt = _iso_format(rest, scope)
        return plan if fmt is None else _dated(names, fmt, plan)
    flattened = iterated_chain(second)
    if flattened is not None:  # [ITEMS[] | .a[]? | REST]: REST fused over the joined lists
        each = _pure(Pipe(Iterate(Dot()), _piped(rest)), scope) if rest else None
        return None if rest and each is None else _flattened(*flattened, each)
    if second[0] == "object" and not rest:
        return _objects(second)
    picked = chain_names(rest[0]) if len(rest) == 1 else None
    if second[0] == "call" and second.name == "select" and len(second.args) == 1 and \
            ("select", 1) not in scope.funcs and (picked or not rest):
        names, test = _function_of_chain(second.args[0], scope)
        return None if test is None else _kept(names, test, of=picked)
    return None


def of_reduce(node: tuple, scope: Any) -> Plan | None:
    """The plan of ``reduce ITEMS[] as $x ({}; .[$x.a.b] += 1)``, or None."""
    _, source, name, init, update = node
    if items_of(source) is None or len(stages_of(source)) != 1 or init != ("object", ()):
        return None
    one = update[0] == "assign" and update.value[0] == "literal" and \
        type(update.value[1]) is int and update.value[1] == 1  # not true, which == 1
    if not one or update.op != "+=":
        return None
    target = update.target
    if target[0] != "index" or target.target != ("dot",):
        return None
    names, base = _chain(target.key)
    if not names or base != ("var", name):
        return None
    return _counted(tuple(names))


def of_length(node: tuple, scope: Any, plain: Compiled) -> Compiled | None:
    """``[ITEMS[] | select(.a.b | f)] | length | REST`` as ``plain`` (the pipe compiled)
    answers it, the items kept counted, not gathered; None for any other pipe."""
    stages = stages_of(node)
    if len(stages) < 2 or stages[0][0] != "array" or stages[0].body is None or \
            stages[1] != ("call", "length", ()) or ("length", 0) in scope.funcs or \
            ("select", 1) in scope.funcs:
        return None
    made = stages_of(stages[0].body)
    if items_of(stages[0].body) is None or len(made) != 2 or made[1][0] != "call" or \
            made[1].name != "select" or len(made[1].args) != 1:
        return None
    names, test = _function_of_chain(made[1].args[0], scope)
    if test is None:
        return None
    count, items_of_input = _kept(names, test, True), compile_node(
        items_of(stages[0].body), scope).one

    def answer(v: Any, env: dict) -> Any:
        try:
            items = items_of_input(v, env)
        except JqError:
            return NOTHING  # the pipe raises it
        found = count(items, env)
        return NOTHING if found is None else found
    return answering(answer, plain, stages[2:], scope)


def answering(answer: Callable[[Any, dict], Any], plain: Compiled, rest: list[tuple],
              scope: Any) -> Compiled:
    """A pipe's first stages as ``answer(v, env)`` gives them (NOTHING: ``plain``, the
    whole pipe compiled, answers instead), then its ``rest``."""
    after = compile_node(_piped(rest), scope) if rest else IDENTITY
    if plain.one and after.one:
        first, then = plain.one, after.one
        return singular(lambda v, e: first(v, e) if (kept := answer(v, e)) is NOTHING
                        else then(kept, e))
    gen_plain, gen_after = plain.gen, after.gen
    return many(lambda v, e: gen_plain(v, e) if (kept := answer(v, e)) is NOTHING
                else gen_after(kept, e))


def stages_of(node: tuple) -> list[tuple]:
    if node[0] == "pipe":
        return [*stages_of(node.left), *stages_of(node.right)]
    return [node]


def _piped(stages: list[tuple]) -> tuple:
    node = stages[-1]
    for stage in reversed(stages[:-1]):
        node = Pipe(stage, node)
    return node


def _chain(node: tuple) -> tuple[list[str], tuple]:
    names: list[str] = []
    while node[0] == "field":
        names.insert(0, node.name)
        node = node.target
    return names, node


def chain_names(node: tuple) -> tuple[str, ...]:
    """``("a", "b")`` for ``.a.b`` (on ``.``); empty for anything else."""
    names, base = _chain(node)
    return tuple(names) if base == ("dot",) else ()


def _function_of_chain(node: tuple, scope: Any) -> tuple[tuple[str, ...], Any]:
    """A condition that reads only a chain of the item: ``.a.b | f`` or ``.a.b op X``
    (X not reading ``.``), as the chain and ``f`` compiled (None when it is neither)."""
    stages = stages_of(node)
    names = chain_names(stages[0])
    if names and len(stages) > 1:
        return names, _pure(_piped(stages[1:]), scope)
    if node[0] == "binop" and node.op in ("==", "!=", "<", "<=", ">", ">=") and \
            chain_names(node.left) and node.right[0] in ("literal", "var"):
        return chain_names(node.left), _pure(BinOp(node.op, Dot(), node.right), scope)
    return (), None


def _pure(node: tuple, scope: Any) -> Compiled | None:
    """``node`` compiled, when it reads nothing but its input, literals and ``$names``
    (the same for every item), else None. Its ``gen`` is ``[node]`` fused (:mod:`.fuse`):
    a list of its outputs, as fast as a loop makes them."""
    stack = [node]
    while stack:
        part = stack.pop()
        if type(part) is str or not isinstance(part, tuple) or not part:
            continue
        kind = part[0]
        if kind == "break" or kind == "call" and (
                part[1] in _READERS or (part[1], len(part[2])) in scope.funcs) or \
                kind == "var" and part[1].startswith("__jqmagic_"):
            return None
        stack.extend(p for p in part[1:] if isinstance(p, tuple))
    try:
        alone = compile_node(node, scope)
        return Compiled(compile_node(Array(node), scope).one, alone.opt, alone.one)
    except NotMine:  # outside the subset: the loop, compiled next, decides
        return None


def keyed(items: Any, names: tuple[str, ...], allowed: frozenset = _KEYABLE) -> list | None:
    """The column of ``names`` when its values are dict keys as jq compares them (of the
    ``allowed`` types) and repeat (see :func:`.columns.repeats`), else None. It is built
    when a loop has read the chain before (as loops build theirs, see
    :func:`.columns.zipped`)."""
    if not columns.repeats(items, names) or columns.column(
            items, names, build=columns.asked(items, names)) is None:
        return None  # a first loop reads it itself: cheaper than a pass, a share, a table
    kinds = columns.kinds(items, names)
    if not kinds <= allowed or {int, bool} <= kinds:
        return None
    return columns.shared(items, names)


def _table(column: list, fn: Callable[[Any], Any]) -> dict | None:
    """``fn`` of each distinct value, in the order of their first items (the deadline
    checked as a loop over them checks it); None when the values do not repeat after all
    (a sample said they did): the loop is then cheaper."""
    distinct = list(dict.fromkeys(column))
    if 2 * len(distinct) > len(column):
        return None
    return {value: fn(value) for value in chunked(distinct)}


def _mapped(names: tuple[str, ...], after: Compiled) -> Plan:
    def plan(items: Any, env: dict) -> list | None:
        column = keyed(items, names)
        if column is None:
            return _unkeyed(items, names, after.gen, env)
        if after.opt is None:  # outputs of each value, in a list
            table = _table(column, lambda value: after.gen(value, env))
            return None if table is None else \
                list(chained.from_iterable(map(table.__getitem__, column)))
        table = _table(column, lambda value: after.opt(value, env))
        if table is None:
            return None
        found = {value: out for value, out in table.items() if out is not NOTHING}
        if len(found) == len(table):
            return list(map(table.__getitem__, column))
        return list(map(found.__getitem__, filter(found.__contains__, column)))
    return plan


def _unkeyed(items: Any, names: tuple[str, ...], outputs: Callable[[Any, dict], list],
             env: dict) -> list | None:
    """The ``outputs`` of each value of the column of ``names``, in order, where its values
    do not repeat (no table of them) and the items are :class:`.Hollow` (a loop would have
    them made); else None."""
    column = columns.column(items, names) if type(items) is Hollow else None
    if column is None:
        return None
    return list(chained.from_iterable(map(outputs, chunked(column), repeat(env))))


def _kept(names: tuple[str, ...], test: Compiled, counted: bool = False,
          of: tuple[str, ...] | None = None) -> Plan:
    """``[ITEMS[] | select(.a.b | f)]``; ``counted``: its length alone; ``of``: ``.c.d``
    of the kept items (``[ITEMS[] | select(.a.b | f) | .c.d]``), from its column when it
    is whole (no item's chain an error, kept or not)."""
    def plan(items: Any, env: dict) -> Any:
        times = _times(items, names, test, env)
        if times is None:
            return None
        if counted:
            return sum(times)
        source = listed(items) if of is None else columns.column(items, of)
        if source is None:
            return None
        if max(times, default=0) <= 1:
            return list(compress(source, times))
        return list(chained.from_iterable(map(repeat, source, times)))
    return plan


def _times(items: Any, names: tuple[str, ...], test: Compiled, env: dict) -> list | None:
    """How many times ``select(.a.b | f)`` keeps each item: f run once per distinct value
    where they repeat (:func:`keyed`), else once per value of a Hollow list's column
    (:func:`_unkeyed`); None when neither."""
    column = keyed(items, names)
    if column is None:
        return _unkeyed(items, names, lambda v, e: [sum(map(_true, test.gen(v, e)))], env)
    if test.one is not None:
        table = _table(column, lambda value: _true(test.one(value, env)))
    else:
        table = _table(column, lambda value: sum(map(_true, test.gen(value, env))))
    return None if table is None else list(map(table.__getitem__, column))


def _iso_format(stages: list[tuple], scope: Any) -> str | None:
    """F of ``fromdate | strftime(F)`` (or ``fromdateiso8601``) when the dates' own
    fields make it (:func:`.dates.iso_reformat`); None for other stages."""
    if len(stages) != 2 or stages[0][:3] not in (("call", "fromdate", ()),
                                                  ("call", "fromdateiso8601", ())):
        return None
    by = stages[1]
    if by[0] != "call" or by.name != "strftime" or len(by.args) != 1 or \
            by.args[0][0] != "literal" or type(by.args[0][1]) is not str or \
            {(stages[0].name, 0), ("strftime", 1)} & set(scope.funcs):
        return None
    return by.args[0][1] if iso_reformat(by.args[0][1]) is not None else None


def _dated(names: tuple[str, ...], fmt: str, otherwise: Plan | None) -> Plan:
    """``[ITEMS[] | .a.b | fromdate | strftime(F)]`` cut from the column's dates at C's
    speed (:func:`.dates.reformat_column`); else ``otherwise``'s answer."""
    def plan(items: Any, env: dict) -> list | None:
        column = columns.column(items, names)
        found = None if column is None else reformat_column(fmt, column)
        return found if found is not None or otherwise is None else otherwise(items, env)
    return plan


def _objects(node: tuple) -> Plan | None:
    """``[ITEMS[] | {k: .a.b, ...}]`` (literal keys, each value a chain of the item): the
    objects made from the chains' columns at C's speed, when every item's chains are
    whole (no error to raise); None for any other object."""
    keys, chains = [], []
    for key, value in node.entries:
        names = chain_names(value)
        if key[0] != "literal" or type(key[1]) is not str or not names:
            return None
        keys.append(key[1])
        chains.append(names)
    named = tuple(keys)

    def plan(items: Any, env: dict) -> list | None:
        found = []
        for names in chains:
            column = columns.column(items, names)
            if column is None:
                return None
            found.append(column)
        return columns.objects(named, tuple(found))
    return plan


def iterated_chain(node: tuple) -> tuple[tuple[str, ...], bool] | None:
    """``.a.b[]`` (the chain, False), ``.a.b[]?`` or ``try .a.b[]`` (the chain, True)."""
    if node[0] == "iterate" and chain_names(node.target):
        return chain_names(node.target), False
    if node[0] == "try" and node.body[0] == "iterate" and chain_names(node.body.target):
        return chain_names(node.body.target), True
    if node[0] == "bind" and chain_names(node.source) and node.body[0] == "try" and \
            node.body.body[0] == "iterate" and node.body.body.target == ("var", node.name):
        return chain_names(node.source), True
    return None


_LISTS, _OPTIONAL_LISTS = frozenset({list}), frozenset({list, type(None)})


def _flattened(names: tuple[str, ...], optional: bool, each: Compiled | None) -> Plan:
    """``[ITEMS[] | .a.b[]]`` (``[]?``): the items of the column's lists, in C, when every
    value of it is a list (or null, which ``[]?`` passes over); else None. ``each``: the
    rest of the stream, ``[.[] | REST]`` over them (one fused loop over the lists' items,
    their outputs and first error in the order of a loop over the rows)."""
    def plan(items: Any, env: dict) -> list | None:
        found = joined(items, names, optional)
        return None if found is None else found[0] if each is None else \
            each.gen(found[0], env)
    return plan


def joined(items: Any, names: tuple[str, ...], optional: bool,
           chains: tuple[tuple[str, ...], ...] = ()) -> tuple[list, list] | None:
    """``[ITEMS[] | .a.b[]]`` (``[]?``: nulls passed over) from the column, in C, with
    the number columns of ``chains`` over its items (:func:`.columns.joined`); None when
    there is no column or a value of it is not a list (nor null, for ``[]?``)."""
    column = lists_of(items, names, optional)
    return None if column is None else columns.joined(column, chains)


def lists_of(items: Any, names: tuple[str, ...], optional: bool) -> list | None:
    """The column of ``.a.b`` when every value of it is a list (or null, ``optional``)."""
    column = columns.column(items, names)
    return column if column is not None and columns.kinds(items, names) <= (
        _OPTIONAL_LISTS if optional else _LISTS) else None


def _true(value: Any) -> bool:
    return value is not None and value is not False


def _counted(names: tuple[str, ...]) -> Plan:
    def plan(items: Any, env: dict) -> dict | None:
        column = keyed(items, names, frozenset({str}))
        if column is None:
            return None
        check()
        return dict(Counter(column))
    return plan
