"""Per-run state of the fast path: the deadline it checks as it goes, and what it noticed."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.state import Cautious, state
from jqmagic.core.words import term

CHUNK = 4096
"""Long loops look at the clock once per this many items."""


def start(timeout: float | None, literals: Any = None,
          waited: Callable[[], float] = lambda: 0.0) -> None:
    """Begin a run that must end within ``timeout`` seconds (None: no limit) on inputs
    whose number literals ``literals`` describes (None: anything may be there); ``waited``
    counts the seconds its results waited on a slow reader (``| less``), which are not the
    program's: its clock stands still while they wait."""
    state.literals = Cautious() if literals is None else literals
    state.timeout = timeout or 0.0
    state.waited = waited
    state.deadline = None if timeout is None else time.monotonic() - waited() + timeout
    state.floats_compared = False
    state.held = {}
    state.big_compared = state.big_computed = False
    state.alternatives_waiting = 0
    state.alternative_abandoned = False
    state.sliced = False
    state.pending = 0


def unclocked() -> None:
    """Forget every earlier run: what runs next (reading a file, a shape, idle work) has
    no deadline until its own run starts one. Each call's clock is its own: a deadline
    left by an earlier call must never stop a later one."""
    start(None)


@contextmanager
def off_the_clock() -> Iterator[None]:
    """What runs inside (a file's values made when a run first asks for them, as a parse
    before the run would be) is not the program's time: the deadline moves by it."""
    began = time.monotonic()
    try:
        yield
    finally:
        if state.deadline is not None:
            state.deadline += time.monotonic() - began


def check() -> None:
    """Raise TIMEOUT, worded as the worker words it, once the deadline has passed; NotMine
    once a ``?//`` destructuring was left early (jq's break would try its next pattern:
    every caller checks at the end of a run)."""
    if state.deadline is not None and time.monotonic() - state.waited() > state.deadline:
        raise timeout_error(state.timeout)
    if state.alternative_abandoned:
        raise NotMine("a ?// destructuring was left early")


def timeout_error(timeout: float) -> JqMagicError:
    return JqMagicError(
        "TIMEOUT", f"The jq program ran longer than {timeout:g} s and was stopped.",
        "Narrow the input (e.g. .items[:100]) or raise the limit with "
        f"{term('timeout')}.")


def chunked(items: list[Any]) -> Iterator[Any]:
    """Iterate ``items``, checking the deadline every :data:`CHUNK` items, counted across
    calls (many short lists add up)."""
    state.pending += len(items)
    if state.pending > CHUNK:
        state.pending = 0
        check()
    if len(items) <= CHUNK:
        return iter(items)
    return _in_chunks(items)


def _in_chunks(items: list[Any]) -> Iterator[Any]:
    return chain.from_iterable(_checked_slices(items))  # no Python frame per item


def _checked_slices(items: list[Any]) -> Iterator[list[Any]]:
    for start_at in range(0, len(items), CHUNK):
        check()
        yield items[start_at:start_at + CHUNK]


_END = object()


def depth_first(root: Any, children: Callable[[Any], Iterable[Any]]) -> Iterator[Any]:
    """``root``, then the values ``children`` gives of each value, depth first (jq's
    ``def r: ., (f | r); r``) without Python recursion, checking the deadline every
    :data:`CHUNK` values."""
    stack, count = [iter((root,))], 0
    while stack:
        x = next(stack[-1], _END)
        if x is _END:
            stack.pop()
            continue
        yield x
        count += 1
        if count % CHUNK == 0:
            check()
        stack.append(iter(children(x)))
