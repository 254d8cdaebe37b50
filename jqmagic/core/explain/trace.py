"""A program split into stages (from jqlang's parse) and run stage by stage in libjq,
counting what goes in and out of each, with a few samples, never keeping the stream."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.explain import unparse
from jqmagic.core.explain.nodes import (
    ENV_VAR,
    Context,
    bare_text,
    commas,
    comparison,
    maybe_path,
    pattern_names,
    recursive,
    sides_text,
    unsplit_call,
)
from jqmagic.core.explain.values import KIND_NULL, Owned, pair, preview, truthy
from jqmagic.core.query import libjq

SAMPLES = 3  # values kept per stage and side
CHILD_INPUTS = 20  # inputs of a stage also run through its branches (a sample)
PATH_INPUTS = 20  # inputs of a stage whose outputs' paths are followed
PATH_OUTPUTS = 20  # ... for their first outputs
MAX_DEPTH = 3  # nested branches shown
BRANCH_STEPS = 20_000  # values a branch's stages take at most (its counts then a sample)
_PATH_ERRORS = ("Invalid path expression",)


class _Enough(Exception):
    """A branch has seen enough values (BRANCH_STEPS): its counts are a sample."""


class StageFailure(Exception):
    """A stage raised an uncaught error (``args[0]``: jq's message); ``halt`` ends all."""

    def __init__(self, message: str, halt: bool = False):
        super().__init__(message)
        self.halt = halt


def _key(name: str) -> str:
    return json.dumps(unparse.var(name)[1:])


@dataclass
class Item:
    """A value on its way through a pipeline, the variables bound so far, its path."""

    value: Owned
    env: Owned | None = None
    path: list | None = None

    def input(self) -> libjq.jv:
        return self.value.copy() if self.env is None else pair(self.value, self.env)


@dataclass
class Stats:
    inputs: int = 0
    outputs: int = 0
    errors: int = 0
    dropped: int = 0
    nulls: int = 0
    samples_in: list = field(default_factory=list)
    samples_out: list = field(default_factory=list)
    dropped_samples: list = field(default_factory=list)
    error: dict | None = None
    null_example: dict | None = None
    swallowed: int = 0  # inputs dropped because a try or ? swallowed an error
    swallowed_error: dict | None = None
    mismatched: int = 0  # inputs on which a comparison met two different types
    mismatch: dict | None = None


class Stage:
    """One step of a pipeline; ``binds`` names the variables a ``SOURCE as $x`` step adds."""

    def __init__(self, node, ctx: Context, depth: int, label: str | None = None,
                 binds: tuple[str, ...] = (), pattern: str | None = None,
                 note: str | None = None):
        self.node, self.ctx, self.depth, self.binds = node, ctx, depth, binds
        self.text = unparse.text(node) if label is None else label
        self.label = self.text + (f" as {pattern}" if pattern else "")
        self.note = note
        self.stats = Stats()
        self.children: list[tuple[str, Pipeline]] = []
        self.pathless = bool(binds) or node is None or not maybe_path(node, ctx)
        self.path_seen = False  # whether a run of path(STAGE) answered
        self._path_program: libjq.Program | None = None
        self.pattern = pattern
        self._program: libjq.Program | None = None
        # the stage without its catch-less trys (what an error there would have been),
        # and a comparison's sides' types (== between types is never true)
        self._bare = bare_text(node) if node is not None and not binds else None
        self._sides = sides_text(node) if node is not None and not binds else None
        if depth == 0:  # a top-level stage jq cannot compile: the program is not split
            self.program  # noqa: B018 - compiled now
        if depth < MAX_DEPTH and note is None:
            self.children = branches(node, ctx, depth + 1)
        if note is None and node is not None and node[0] == "call":
            self.note = unsplit_call(node, ctx)

    @property
    def program(self) -> libjq.Program:
        """The stage's compiled text (branches compile theirs when first fed)."""
        if self._program is None:
            if self.binds:
                env = ENV_VAR if self.ctx.names else "{}"
                adds = ", ".join(f"{_key(n)}: {unparse.var(n)}" for n in self.binds)
                body = f"{self._source()} as {self.pattern} | ({env} + {{{adds}}})"
            else:
                body = self.text
            self._program = self.ctx.compile(body)
        return self._program

    def _source(self) -> str:
        return self.text if self.node is None else unparse._text(self.node, 10)

    # ------------------------------------------------------------ running

    def apply(self, item: Item) -> Iterator[Item]:
        stats = self.stats
        stats.inputs += 1
        sampled = stats.inputs <= CHILD_INPUTS
        if sampled:
            for _, child in self.children:
                child.feed(item)
        relative = self._paths(item) if stats.inputs <= PATH_INPUTS else None
        if len(stats.samples_in) < SAMPLES:
            stats.samples_in.append(preview(item.value))
        count = 0
        try:
            for result in libjq.results(self.program, item.input()):
                out = Owned(result)
                stats.outputs += 1
                if self.binds:
                    following = Item(item.value, out, item.path)
                else:
                    path = None
                    if relative is not None and count < len(relative):
                        path = item.path + relative[count]
                    following = Item(out, item.env, path)
                    if out.kind() == KIND_NULL and item.value.kind() != KIND_NULL:
                        stats.nulls += 1
                        if stats.null_example is None:
                            stats.null_example = preview(item.value)
                            if path is not None:
                                stats.null_example["null_at"] = path
                count += 1
                if len(stats.samples_out) < SAMPLES:
                    stats.samples_out.append(self._sample(following))
                yield following
        except libjq.RunError as exc:
            self._failed(item, str(exc))
            raise StageFailure(str(exc)) from None
        except libjq.Halt as exc:
            self._failed(item, str(exc))
            raise StageFailure(str(exc), halt=True) from None
        if self._sides is not None and stats.inputs <= PATH_INPUTS:
            self._compare_types(item)
        if count == 0:
            stats.dropped += 1
            if len(stats.dropped_samples) < SAMPLES:
                stats.dropped_samples.append(preview(item.value))
            if self._bare is not None:
                self._swallowed(item)

    def _swallowed(self, item: Item) -> None:
        """Whether the input was dropped by a try or ``?`` swallowing an error: the stage
        without them raises one."""
        try:
            for _ in libjq.results(self.ctx.compile(self._bare), item.input()):
                pass
        except libjq.RunError as exc:
            self.stats.swallowed += 1
            if self.stats.swallowed_error is None:
                self.stats.swallowed_error = {"message": str(exc)[:300],
                                              "on": preview(item.value)}
        except (libjq.CompileError, libjq.Halt):
            self._bare = None

    def _compare_types(self, item: Item) -> None:
        """A comparison whose sides have different types (not null) on this input."""
        try:
            left, right = (json.loads(libjq.dump(r)) for r in itertools.islice(
                libjq.results(self.ctx.compile(self._sides), item.input()), 2))
        except (libjq.CompileError, libjq.RunError, libjq.Halt, ValueError):
            self._sides = None
            return
        pairs = [(a, b) for a in left for b in right if a != b and "null" not in (a, b)]
        if pairs:
            self.stats.mismatched += 1
            if self.stats.mismatch is None:
                self.stats.mismatch = {"left": pairs[0][0], "right": pairs[0][1],
                                       "on": preview(item.value)}

    def _sample(self, item: Item) -> dict:
        shown = preview(item.env if self.binds else item.value)
        if item.path is not None and not self.binds:
            shown["path"] = item.path
        return shown

    def _failed(self, item: Item, message: str) -> None:
        self.stats.errors += 1
        if self.stats.error is None:
            self.stats.error = {"message": message[:300], "on": preview(item.value)}

    def _paths(self, item: Item) -> list | None:
        """The paths of this stage's outputs within its input, when it is a path expression."""
        if self.pathless or item.path is None:
            return None
        try:
            if self._path_program is None:
                self._path_program = self.ctx.compile(f"path({self.text})")
            found = [json.loads(libjq.dump(p)) for p in itertools.islice(
                libjq.results(self._path_program, item.input()), PATH_OUTPUTS)]
            self.path_seen = True
            return found
        except (libjq.CompileError, libjq.RunError, libjq.Halt) as exc:
            if any(m in str(exc) for m in _PATH_ERRORS) or isinstance(exc, libjq.CompileError):
                self.pathless = True
            return None

    # ------------------------------------------------------------ report

    def report(self) -> dict[str, Any]:
        s = self.stats
        out: dict[str, Any] = {"stage": self.label, "in": s.inputs, "out": s.outputs}
        if self.binds:
            out["binds"] = [unparse.var(n) for n in self.binds]
        nulls = "nulls_made" if self.pathless else "nulls_read"  # computed, or found in it
        for key, value in (("errors", s.errors), ("dropped", s.dropped), (nulls, s.nulls)):
            if value:
                out[key] = value
        out["samples_in"], out["samples_out"] = s.samples_in, s.samples_out
        if s.dropped_samples:
            out["dropped_samples"] = s.dropped_samples
        if s.error:
            out["error"] = s.error
        if s.swallowed:
            out["swallowed"] = s.swallowed
            out["swallowed_error"] = s.swallowed_error
        if s.mismatched:
            out["mismatched"] = s.mismatched
            out["mismatch"] = {**s.mismatch, **comparison(self.node)}
        if s.null_example:
            out["null_from"] = s.null_example
        if self.pathless and not self.binds or self.path_seen:
            out["path_expression"] = not self.pathless
        if self.note:
            out["note"] = self.note
        if self.children:
            out["branches"] = [{"name": name, "sampled_inputs": min(s.inputs, CHILD_INPUTS),
                                "stages": child.report()} for name, child in self.children]
            for branch, (_, child) in zip(out["branches"], self.children, strict=True):
                if child.partial:
                    branch["partial"] = (f"stopped after {BRANCH_STEPS:,} values: its "
                                         "counts are of the values before")
        return out


class Pipeline:
    """A chain of stages; ``flow`` runs an item through it lazily."""

    def __init__(self, node, ctx: Context, depth: int = 0, note: str | None = None,
                 text: str | None = None):
        self.stages = chain(node, ctx, depth) if node is not None else \
            [Stage(None, ctx, depth, label=text, note=note)]
        self.steps = 0  # values given to a stage, counted in a branch
        self.partial = False  # a branch stopped at BRANCH_STEPS

    def flow(self, item: Item, start: int = 0) -> Iterator[Item]:
        if start == len(self.stages):
            yield item
            return
        self.steps += 1
        if self.steps > BRANCH_STEPS and self.stages[0].depth > 0:
            raise _Enough
        for out in self.stages[start].apply(item):
            yield from self.flow(out, start + 1)

    def feed(self, item: Item) -> tuple[int, int]:
        """Run ``item`` through (a branch, sampled): how many outputs were truthy, falsy."""
        yes = no = 0
        try:
            for out in self.flow(Item(item.value, item.env, item.path)):
                if truthy(out.value):
                    yes += 1
                else:
                    no += 1
        except (StageFailure, libjq.CompileError):
            pass
        except _Enough:
            self.partial = True
        return yes, no

    def report(self) -> list[dict[str, Any]]:
        return [stage.report() for stage in self.stages]


class Routed(Pipeline):
    """A branch fed only the inputs its guards let through: ``if``'s branches (an earlier
    condition falsy, its own truthy) and ``//``'s right side (the left gave nothing truthy)."""

    def __init__(self, node, ctx: Context, depth: int, guards: list[tuple[Any, str]]):
        super().__init__(node, ctx, depth)
        self.ctx = ctx
        self.guards: list[tuple[Any, str]] = [(unparse.text(g), mode) for g, mode in guards]

    def feed(self, item: Item) -> tuple[int, int]:
        for i, (program, mode) in enumerate(self.guards):
            try:
                if isinstance(program, str):
                    program = self.ctx.compile(program)
                    self.guards[i] = (program, mode)
                kinds = [truthy(Owned(r)) for r in libjq.results(program, item.input())]
            except libjq.CompileError:
                return 0, 0
            except (libjq.RunError, libjq.Halt):
                kinds = []
            passed = {"truthy": any(kinds), "falsy": not all(kinds) and bool(kinds),
                      "none": not any(kinds)}[mode]
            if not passed:
                return 0, 0
        return super().feed(item)


# ---------------------------------------------------------------- splitting


def chain(node, ctx: Context, depth: int) -> list[Stage]:
    """The stages of a pipe: ``a | b``, ``SOURCE as $x | ...``, ``def f: ...; ...``."""
    kind = node[0]
    if kind == "pipe":
        left = node[1]
        head = chain(left, ctx, depth) if left[0] not in _SCOPED else [Stage(left, ctx, depth)]
        return head + chain(node[2], ctx, depth)
    if kind == "bind" and not node[2].startswith("?opt"):
        _, source, name, body = node
        stage = Stage(source, ctx, depth, binds=(name,), pattern=unparse.var(name))
        return [stage, *chain(body, ctx.bound(name), depth)]
    if kind == "destructure" and len(node[2]) == 1:
        _, source, patterns, body = node
        names = tuple(pattern_names(patterns[0]))
        stage = Stage(source, ctx, depth, binds=names, pattern=unparse._pattern(patterns[0]))
        return [stage, *chain(body, ctx.bound(*names), depth)]
    if kind == "def":
        return chain(node[4], ctx.defined(node), depth)
    if kind == "label":
        return [Stage(node, ctx, depth, note="not split: label/break jumps across stages")]
    if kind == "destructure":
        return [Stage(node, ctx, depth, note="not split: ?// retries the body on an error")]
    return [Stage(node, ctx, depth)]


_SCOPED = {"bind", "destructure", "def", "label"}


def branches(node, ctx: Context, depth: int) -> list[tuple[str, Pipeline]]:
    """The parts of one stage worth their own pipeline: ``,`` branches, ``if``'s condition
    and branches, ``//``'s sides, ``select``/``map``'s filter, ``[...]``'s body, a
    reduce/foreach's source and states, a defined function's body."""
    kind = node[0]
    if kind == "comma":
        parts = list(commas(node))
        return [(f"branch {i + 1} of ,", Pipeline(p, ctx, depth)) for i, p in enumerate(parts)]
    if kind == "if":
        return _if_branches(node, ctx, depth)
    if kind == "alt":
        left = Pipeline(node[1], ctx, depth)
        right = Routed(node[2], ctx, depth, [(node[1], "none")])
        return [("left of // (its truthy outputs win)", left),
                ("right of // (inputs whose left side gave nothing truthy)", right)]
    if kind == "array" and node[1] is not None:
        return [("inside [...]", Pipeline(node[1], ctx, depth))]
    if kind in ("try", "trycatch"):
        return [("try body", Pipeline(node[1], ctx, depth))]
    if kind in ("reduce", "foreach"):
        _, source, name, init, update, *_ = node
        states = ("foreach", source, name, init, update, None)
        return [(f"{kind} source", Pipeline(source, ctx, depth)),
                ("state after each update", Pipeline(states, ctx, MAX_DEPTH))]
    if kind == "call":
        return _call_branches(node, ctx, depth)
    return []


def _if_branches(node, ctx: Context, depth: int) -> list[tuple[str, Pipeline]]:
    _, arms, otherwise = node
    out: list[tuple[str, Pipeline]] = []
    guards: list[tuple[Any, str]] = []
    for i, (cond, then) in enumerate(arms):
        word = "if" if i == 0 else "elif"
        out.append((f"{word} condition", Pipeline(cond, ctx, depth)))
        out.append((f"then {i + 1} (inputs its condition let through)",
                    Routed(then, ctx, depth, [*guards, (cond, "truthy")])))
        guards.append((cond, "falsy"))
    if otherwise is not None:
        out.append(("else", Routed(otherwise, ctx, depth, list(guards))))
    return out


def _call_branches(node, ctx: Context, depth: int) -> list[tuple[str, Pipeline]]:
    _, name, args = node
    defined = ctx.find(name, len(args))
    if defined is not None:
        if defined[2] or recursive(defined, ctx):
            return []
        return [(f"body of {name}", Pipeline(defined[3], ctx, depth))]
    if name in ("select", "any", "all", "recurse") and len(args) == 1:
        return [(f"{name}'s filter", Pipeline(args[0], ctx, depth))]
    if name in ("map", "map_values") and len(args) == 1:
        return [(f"{name}'s filter on each element",
                 Pipeline(("pipe", ("iterate", ("dot",)), args[0]), ctx, depth))]
    return []
