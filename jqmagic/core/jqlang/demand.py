"""What of each input a program reads: the field chains whose values it needs whole.

A question over a JSON Lines log reads a few chains of each line (``.type``,
``.actor.login``); the rest of the line need not be built (:mod:`..query.projected`). This
follows the inputs through the program's tree, abstractly: a value is a set of atoms, each
a chain of an input (``()`` the input itself, ``("actor", "login")`` its login) or
:data:`ITEMS` (an array of inputs, ``[inputs | select(...)]``). Reading a field of an
input's chain extends it; using the value (comparing, printing, passing it to a builtin,
testing it) needs the chain whole; an input passed through ``select``, ``first``, a
variable or an array that is only counted needs nothing of itself. Any use of an input
itself, or a construct this does not follow (``def``, destructuring, ``..``), needs the
whole input: :func:`chains` says None.

>>> sorted(chains('[inputs | select(.type == "Push")] | length', True))
[('type',)]
>>> sorted(chains('reduce inputs as $e ({}; .[$e.actor.login] += 1)', True))
[('actor', 'login')]
>>> chains('first(inputs)', True) is None  # the whole input is printed
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.parser import parse

ITEMS = "items"
"""An array of inputs (jq's ``[inputs]``, ``-s``'s input)."""

Value = frozenset  # of atoms: chains (tuples of names) and ITEMS
NOTHING: Value = frozenset()
INPUT: Value = frozenset({()})


class _Whole(Exception):
    """The program needs whole inputs."""


@lru_cache(maxsize=256)
def chains(text: str, null_input: bool, slurp: bool = False) -> frozenset | None:
    """The chains of each input that ``text`` reads (run with -n when ``null_input``, -s
    when ``slurp``), or None when it needs whole inputs (or cannot be followed)."""
    try:
        tree = parse(text)
    except (NotMine, RecursionError):
        return None
    root = NOTHING if null_input else frozenset({ITEMS}) if slurp else INPUT
    walk = _Walk()
    try:
        walk.use(walk.eval(tree, root, {}))
    except (_Whole, RecursionError):
        return None
    return frozenset(walk.needed)


@lru_cache(maxsize=256)
def stops_early(text: str) -> bool:
    """Whether the program reads ``inputs`` only as the stream of a ``first(...)`` or a
    ``limit(n; ...)`` (``first(inputs | select(.a == 1)) | .id``): jq stops reading at the
    answer, so reading every line first would cost more than jq's whole run.

    >>> stops_early("first(inputs | select(.a)) | .id"), stops_early("[inputs] | first")
    (True, False)
    """
    try:
        tree = parse(text)
    except (NotMine, RecursionError):
        return False
    found: list[bool] = []
    _early(tree, False, found)
    return bool(found) and all(found)


def _early(item: Any, early: bool, found: list[bool]) -> None:
    """Record, for each ``inputs`` call under ``item``, whether it is the head of the
    stream of a ``first``/``limit`` (``early``: ``item`` is that stream's head)."""
    if not isinstance(item, tuple) or not item or not isinstance(item[0], str):
        if isinstance(item, tuple):
            for part in item:
                _early(part, False, found)
        return
    if item[0] == "call" and item.name == "inputs" and not item.args:
        found.append(early)
        return
    if item[0] == "call" and (item.name, len(item.args)) in (("first", 1), ("limit", 2)):
        for arg in item.args[:-1]:
            _early(arg, False, found)
        _early(item.args[-1], True, found)
        return
    if item[0] == "pipe":
        _early(item.left, early, found)
        _early(item.right, False, found)
        return
    for part in item[1:]:
        _early(part, False, found)


class _Walk:
    def __init__(self) -> None:
        self.needed: set[tuple[str, ...]] = set()

    # ------------------------------------------------------------ what a use needs
    def use(self, value: Value) -> Value:
        """``value`` used whole (compared, printed, given to a builtin): its chains whole;
        an input or an array of them whole: the whole input."""
        for atom in value:
            if atom == () or atom == ITEMS:
                raise _Whole
            self.needed.add(atom)
        return NOTHING

    def truth(self, value: Value) -> Value:
        """``value`` tested (``select``, ``if``, ``//``): an input is an object or a value
        kept whole either way, so only its chains are needed."""
        self.needed.update(atom for atom in value if atom != () and atom != ITEMS)
        return NOTHING

    # ------------------------------------------------------------ evaluation
    def eval(self, node: Any, value: Value, env: dict[str, Value]) -> Value:
        kind = node[0]
        method = getattr(self, "_" + kind, None)
        if method is None:
            raise _Whole  # def, destructuring, ..: kept simple
        return method(node, value, env)

    def _dot(self, node, value, env):
        return value

    def _literal(self, node, value, env):
        return NOTHING

    def _var(self, node, value, env):
        return env.get(node.name, NOTHING)

    def _format(self, node, value, env):
        return self.use(value)

    def _string(self, node, value, env):
        for part in node.parts:
            if not isinstance(part, str):
                self.use(self.eval(part, value, env))
        return NOTHING

    def _pipe(self, node, value, env):
        return self.eval(node.right, self.eval(node.left, value, env), env)

    def _comma(self, node, value, env):
        return self.eval(node.left, value, env) | self.eval(node.right, value, env)

    def _field(self, node, value, env):
        return self._step(self.eval(node.target, value, env), node.name)

    def _step(self, target: Value, name: str) -> Value:
        if ITEMS in target:
            raise _Whole
        return frozenset(atom + (name,) for atom in target)

    def _index(self, node, value, env):
        target = self.eval(node.target, value, env)
        key = node.key
        if key[0] == "literal" and type(key.value) is str:
            return self._step(target, key.value)
        self.use(self.eval(key, value, env))
        if target == frozenset({ITEMS}) and key[0] == "literal" and type(key.value) is int:
            return INPUT
        return self.use(target)

    def _slice(self, node, value, env):
        target = self.eval(node.target, value, env)
        for bound in (node.lower, node.upper):
            if bound is not None:
                self.use(self.eval(bound, value, env))
        if target == frozenset({ITEMS}):
            return target
        return self.use(target)

    def _iterate(self, node, value, env):
        target = self.eval(node.target, value, env)
        if target == frozenset({ITEMS}):
            return INPUT
        return self.use(target)

    def _try(self, node, value, env):
        return self.eval(node.body, value, env)

    def _label(self, node, value, env):
        return self.eval(node.body, value, env)

    def _break(self, node, value, env):
        return NOTHING

    def _trycatch(self, node, value, env):
        return self.eval(node.body, value, env) | self.eval(node.handler, NOTHING, env)

    def _neg(self, node, value, env):
        return self.use(self.eval(node.operand, value, env))

    def _binop(self, node, value, env):
        self.use(self.eval(node.left, value, env))
        return self.use(self.eval(node.right, value, env))

    def _and(self, node, value, env):
        self.truth(self.eval(node.left, value, env))
        return self.truth(self.eval(node.right, value, env))

    _or = _and

    def _alt(self, node, value, env):
        left = self.eval(node.left, value, env)
        self.truth(left)
        return left | self.eval(node.right, value, env)

    def _array(self, node, value, env):
        if node.body is None:
            return NOTHING
        body = self.eval(node.body, value, env)
        if ITEMS in body:
            raise _Whole
        if () in body:  # an array of inputs: only counted, sorted or iterated again
            self.use(body - INPUT)
            return frozenset({ITEMS})
        return self.use(body)

    def _object(self, node, value, env):
        for key, val in node.entries:
            self.use(self.eval(key, value, env))
            self.use(self.eval(val, value, env))
        return NOTHING

    def _if(self, node, value, env):
        out = NOTHING
        for condition, then in node.branches:
            self.truth(self.eval(condition, value, env))
            out |= self.eval(then, value, env)
        return out | (value if node.otherwise is None else
                      self.eval(node.otherwise, value, env))

    def _bind(self, node, value, env):
        bound = self.eval(node.source, value, env)
        return self.eval(node.body, value, {**env, node.name: bound})

    def _reduce(self, node, value, env):
        inner = {**env, node.name: self.eval(node.source, value, env)}
        state = self.eval(node.init, value, env)
        for _ in range(4):  # the atoms are few: a fixed point within a few rounds
            new = state | self.eval(node.update, state, inner)
            if new == state:
                return state
            state = new
        raise _Whole

    def _foreach(self, node, value, env):
        inner = {**env, node.name: self.eval(node.source, value, env)}
        state = self.eval(node.init, value, env)
        for _ in range(4):
            new = state | self.eval(node.update, state, inner)
            if new == state:
                break
            state = new
        else:
            raise _Whole
        return state if node.extract is None else self.eval(node.extract, state, inner)

    def _assign(self, node, value, env):
        self.use(value)  # an input changed: needed whole (the state of a reduce is not one)
        self.eval(node.target, value, env)  # the path's keys
        return self.use(self.eval(node.value, value, env))

    def _call(self, node, value, env):
        name, args = node.name, node.args
        special = _CALLS.get((name, len(args)))
        if special is not None:
            return special(self, args, value, env)
        self.use(value)
        for arg in args:
            self.use(self.eval(arg, value, env))
        return NOTHING

    # ------------------------------------------------------------ builtins followed
    def _inputs(self, args, value, env):
        return INPUT

    def _select(self, args, value, env):
        self.truth(self.eval(args[0], value, env))
        return value

    def _empty(self, args, value, env):
        return NOTHING

    def _not(self, args, value, env):
        return self.truth(value)

    def _length(self, args, value, env):
        return NOTHING if value == frozenset({ITEMS}) else self.use(value)

    def _first_of(self, args, value, env):
        if value == frozenset({ITEMS}):
            return INPUT
        return self.use(value)

    def _generator(self, args, value, env):  # first(f), last(f), limit(n; f)
        for arg in args[:-1]:
            self.use(self.eval(arg, value, env))
        return self.eval(args[-1], value, env)

    def _has(self, args, value, env):
        key = args[0]
        if key[0] == "literal" and type(key.value) is str and ITEMS not in value:
            return self.use(self._step(value, key.value))
        return self._call_plain(args, value, env)

    def _call_plain(self, args, value, env):
        self.use(value)
        for arg in args:
            self.use(self.eval(arg, value, env))
        return NOTHING

    def _map(self, args, value, env):
        if value == frozenset({ITEMS}):
            body = self.eval(args[0], INPUT, env)
            if ITEMS in body:
                raise _Whole
            if () in body:
                self.use(body - INPUT)
                return frozenset({ITEMS})
            return self.use(body)
        return self._call_plain(args, value, env)

    def _any(self, args, value, env):  # any(gen; cond), all(gen; cond)
        return self.truth(self.eval(args[1], self.eval(args[0], value, env), env))

    def _reverse(self, args, value, env):
        return value if value == frozenset({ITEMS}) else self._call_plain(args, value, env)

    def _unread(self, args, value, env):  # a builtin that reads no input
        return NOTHING


def _by(keep: Value):
    """``sort_by(f)`` and its kin over an array of inputs: ``f`` of each, and ``keep``."""
    def by(walk: _Walk, args, value, env):
        if value != frozenset({ITEMS}):
            return walk._call_plain(args, value, env)
        walk.use(walk.eval(args[0], INPUT, env))
        return keep
    return by


_CALLS: dict[tuple[str, int], Any] = {
    ("inputs", 0): _Walk._inputs, ("input", 0): _Walk._inputs,
    ("select", 1): _Walk._select, ("empty", 0): _Walk._empty, ("not", 0): _Walk._not,
    ("length", 0): _Walk._length, ("first", 0): _Walk._first_of,
    ("last", 0): _Walk._first_of, ("reverse", 0): _Walk._reverse,
    ("first", 1): _Walk._generator, ("last", 1): _Walk._generator,
    ("limit", 2): _Walk._generator, ("has", 1): _Walk._has, ("map", 1): _Walk._map,
    ("any", 2): _Walk._any, ("all", 2): _Walk._any,
    ("sort_by", 1): _by(frozenset({ITEMS})), ("unique_by", 1): _by(frozenset({ITEMS})),
    ("min_by", 1): _by(INPUT), ("max_by", 1): _by(INPUT),
    **{(name, 0): _Walk._unread for name in (
        "input_filename", "input_line_number", "now", "env", "builtins", "null", "true",
        "false")},
}
