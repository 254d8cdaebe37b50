"""Compiling jq's control constructs: ``def`` (filter and ``$value`` parameters, closures,
recursion), ``try``/``catch`` and ``error``, ``label``/``break``, destructuring with
``?//`` alternatives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from jqmagic.core.jqlang import values as jv
from jqmagic.core.jqlang.compiled import Compiled, many
from jqmagic.core.jqlang.errors import Break, JqError, NotMine, labelled, tried
from jqmagic.core.jqlang.runtime import state
from jqmagic.core.jqlang.scope import Scope, compile_node, compile_path
from jqmagic.core.jqlang.syntax import Bind, Call, PVar
from jqmagic.core.jqlang.table import Table

# ---------------------------------------------------------------- functions


def mentions(node: Any, name: str, arity: int) -> bool:
    """Whether ``node`` calls ``name/arity`` anywhere (then a function is recursive)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if item[:2] == ("call", name) and len(item[2]) == arity:
                return True
            stack.extend(item)
    return False


class Argument:
    """A filter parameter of an inlined function: the caller's argument, compiled where
    the caller stands (keys are unique, so the body's bindings cannot hide the caller's)."""

    def __init__(self, node: tuple, scope: Scope):
        self.node, self.scope = node, scope
        self._compiled: Compiled | None = None
        self._paths = None

    def call(self, args: tuple = (), scope: Scope | None = None) -> Compiled:
        if self._compiled is None:
            self._compiled = compile_node(self.node, self.scope)
        return self._compiled

    def paths(self, args: tuple = (), scope: Scope | None = None):
        if self._paths is None:
            self._paths = compile_path(self.node, self.scope)
        return self._paths


class Closure:
    """A filter argument at run time: the :class:`Argument` and the caller's env."""

    __slots__ = ("argument", "env")

    def __init__(self, argument: Argument, env: dict):
        self.argument, self.env = argument, env


class Parameter:
    """A filter parameter of a recursive function: a :class:`Closure` in the env."""

    def __init__(self, key: str):
        self.key = key

    def call(self, args: tuple, scope: Scope) -> Compiled:
        key = self.key

        def gen(v, e):
            closure = e[key]
            return closure.argument.call().gen(v, closure.env)

        return many(gen)

    def paths(self, args: tuple, scope: Scope):
        key = self.key

        def gen(pv, e):
            closure = e[key]
            return closure.argument.paths()(pv, closure.env)

        return gen


INLINED = 32
"""Calls of one function compiled in place; later calls share one compiled body."""


class Function:
    """``def name(params): body;``. A call compiles the body in place (arguments as
    :class:`Argument`), unless the body calls itself: then the body is compiled once and
    each call passes its arguments as closures."""

    def __init__(self, node: tuple, scope: Scope):
        _, self.name, self.params, body, _ = node
        if len({p.lstrip("$") for p in self.params}) < len(self.params):
            raise NotMine("a function with two parameters of one name")
        for param in reversed(self.params):  # def f($a): a as $a | body
            if param.startswith("$"):
                body = Bind(Call(param[1:], ()), param[1:], body)
        self.body_node = body
        self.names = tuple(p.lstrip("$") for p in self.params)
        self.recursive = mentions(body, self.name, len(self.params))
        self.scope = scope.define((self.name, len(self.params)), self)
        self.keys: list[str] = []
        self.body: Compiled | None = None
        self.path_body = None
        self.inlines = 0
        self.started = self.path_started = False

    def inline(self) -> bool:
        """Whether this call compiles the body in place: not for a recursive function, nor
        past :data:`INLINED` calls (nested definitions would grow the program
        exponentially)."""
        if self.recursive or self.inlines >= INLINED:
            return False
        self.inlines += 1
        return True

    def inlined(self, args: tuple, scope: Scope) -> Scope:
        """The scope of the body inlined at a call: parameters mean the arguments."""
        inner = self.scope
        for name, arg in zip(self.names, args, strict=True):
            inner = inner.define((name, 0), Argument(arg, scope))
        return inner

    def parameters(self) -> Scope:
        """The scope of the body compiled once: parameters are closures in the env."""
        if not self.keys:
            self.keys = [f"{name}/0#{id(self)}" for name in (*self.names, "")]
        inner = self.scope
        for name, key in zip(self.names, self.keys, strict=False):
            inner = inner.define((name, 0), Parameter(key))
        return inner

    def env_of(self, args: list[Argument], e: dict) -> dict:
        env = dict(e)
        for key, arg in zip(self.keys, args, strict=False):
            env[key] = Closure(arg, e)
        return env

    def call(self, args: tuple, scope: Scope) -> Compiled:
        if self.inline():
            return compile_node(self.body_node, self.inlined(args, scope))
        arguments = [Argument(arg, scope) for arg in args]
        if not self.started:  # the body's own calls come here again
            self.started = True
            self.body = compile_node(self.body_node, self.parameters())
        function = self
        return many(lambda v, e: function.body.gen(v, function.env_of(arguments, e)))

    def paths(self, args: tuple, scope: Scope):
        if self.inline():
            return compile_path(self.body_node, self.inlined(args, scope))
        arguments = [Argument(arg, scope) for arg in args]
        if self.path_body is None and not self.path_started:
            self.path_started = True
            self.path_body = compile_path(self.body_node, self.parameters())
        function = self
        return lambda pv, e: function.path_body(pv, function.env_of(arguments, e))


def _def(node, bound):
    return compile_node(node[4], bound.define((node[1], len(node[2])), Function(node, bound)))


# ---------------------------------------------------------------- errors


def _trycatch(node, bound):
    body, handler = compile_node(node[1], bound).gen, compile_node(node[2], bound).gen
    return many(partial(tried, body, handler))


def _raise(v, e):
    raise JqError(v)
    yield  # a generator: nothing happens until its output is asked for


BUILTINS = Table()
BUILTINS[("error", 0)] = lambda: many(_raise)
BUILTINS[("error", 1)] = lambda f: many(lambda v, e: (y for x in f.gen(v, e) for y in _raise(x, e)))


# ---------------------------------------------------------------- label and break


def _label(node, bound):
    scope, key = bound.bind("*label-" + node[1])
    return many(labelled(compile_node(node[2], scope).gen, key))


def _break(node, bound):
    key = bound.vars.get("*label-" + node[1])
    if key is None:
        raise NotMine("break without its label")

    def gen(v, e):
        raise Break(e[key])

    return many(gen)


# ---------------------------------------------------------------- destructuring

Matcher = Callable[[Any, dict], Iterator[dict]]


def pattern_names(pattern: tuple) -> list[str]:
    """The ``$name``s a pattern binds, in order of appearance."""
    kind = pattern[0]
    if kind == "pvar":
        return [pattern[1]]
    if kind == "parray":
        return [n for p in pattern[1] for n in pattern_names(p)]
    names = []
    for _, name, sub in pattern[1]:
        names += ([name] if name else []) + (pattern_names(sub) if sub else [])
    return names


def _matcher(pattern: tuple, scope: Scope, bound: set[str]) -> Matcher:
    """Match ``pattern`` in jq 1.8.2's order: an array's elements from the last (its
    error names the last index), an object's entries from the first; a name bound twice
    keeps the value matched first (``bound``: the names matched so far)."""
    kind = pattern[0]
    if kind == "pvar":
        if pattern[1] in bound:
            return _chain([])
        bound.add(pattern[1])
        key = scope.vars[pattern[1]]

        def bind(x, env):
            yield {**env, key: x}

        return bind
    if kind == "parray":
        steps = [(i, _matcher(p, scope, bound)) for i, p in reversed(list(enumerate(pattern[1])))]
        return _chain([(lambda x, env, i=i: (jv.index(x, i),), m) for i, m in steps])
    steps = []
    for key_node, name, sub in pattern[1]:
        keys = compile_node(key_node, scope).gen
        parts = ([_matcher(PVar(name), scope, bound)] if name else []) + \
            ([_matcher(sub, scope, bound)] if sub else [])
        steps.append((lambda x, env, keys=keys: (jv.index(x, k) for k in keys(x, env)),
                      _chain([(lambda x, env: (x,), m) for m in parts])))
    return _chain(steps)


def _chain(steps: list) -> Matcher:
    """Match each part in turn: ``(values of x, matcher)`` pairs, every combination."""
    def match(x, env, i=0):
        if i == len(steps):
            yield env
            return
        values, matcher = steps[i]
        for value in values(x, env):
            for bound_env in matcher(value, env):
                yield from match(x, bound_env, i + 1)

    return match


def _destructure(node, bound):
    _, source, patterns, body = node
    scope, keys = bound, []
    for name in dict.fromkeys(n for p in patterns for n in pattern_names(p)):
        scope, key = scope.bind(name)
        keys.append(key)
    src, inner = compile_node(source, bound).gen, compile_node(body, scope).gen
    matchers = [_matcher(p, scope, set()) for p in patterns]
    blank = dict.fromkeys(keys)
    last = len(matchers) - 1

    def gen(v, e):
        for x in src(v, e):
            for i, matcher in enumerate(matchers):
                try:
                    for env in matcher(x, {**e, **blank}):
                        for y in inner(v, env):
                            state.alternatives_waiting += 1
                            try:
                                yield y
                            except GeneratorExit:  # jq would break through it
                                state.alternative_abandoned = True
                                raise
                            finally:
                                state.alternatives_waiting -= 1
                except JqError:
                    if i == last:
                        raise
                    continue
                except Break as exc:  # jq takes a break for an error: next pattern
                    raise NotMine("a break inside a ?// destructuring") from exc
                break

    def plain(v, e):
        for x in src(v, e):
            for env in matchers[0](x, {**e, **blank}):
                yield from inner(v, env)

    return many(plain if len(matchers) == 1 else gen)


COMPILERS = {"def": _def, "trycatch": _trycatch, "label": _label, "break": _break,
             "destructure": _destructure}
