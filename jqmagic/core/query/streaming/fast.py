"""The fast path over a streamed JSON file: F and TAIL compiled by jqlang run on the values
ijson builds (floats as orjson reads them), printed by jqlang's printer with the file's
number facts (``Literals``, read from the file again only when a fact is needed).

It declines (None) wherever the fast path would: a program outside jqlang's subset, any
jq error, a number whose text may print or compare differently; ``answer`` then answers
with libjq from the start. Only one file, whose path streams straight into a container.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

from jqmagic.core import sources
from jqmagic.core.jqlang import JqError, NotMine, compile_subset, runtime, values
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.literals import Literals, file_stamp
from jqmagic.core.jqlang.printer import Printer
from jqmagic.core.query import fastpath
from jqmagic.core.query.protocol import QueryRequest
from jqmagic.core.query.sink import Sink
from jqmagic.core.query.streaming import reader as streamread
from jqmagic.core.query.streaming.forms import Plan
from jqmagic.core.query.streaming.reader import Guarded


def usable(request: QueryRequest, shape: Plan, files: list[str]) -> bool:
    """Whether the fast path may try: its options, one file, a path of keys only."""
    return (fastpath.usable(request) and len(files) == 1 and shape.mode != "value"
            and all(type(step) is str for step in shape.path))


def answer(request: QueryRequest, shape: Plan, path: str, sink: Sink, beat: Any) -> bool:
    """Whether the fast path answered into ``sink`` (False: it declined, and the sink is
    ready for libjq to start again)."""
    env = request.args
    each = _compiled(shape.each, env)
    tail = _compiled(shape.tail, env) if shape.tail not in (None, "length") else None
    if each is None or (tail is None and shape.tail not in (None, "length")):
        return False
    try:
        return _answer(request, shape, path, sink, beat, each, tail)
    except (NotMine, JqError, RecursionError, streamread.Inexact,
            streamread.NotStreamable):
        sink.restart()
        return False


def _answer(request: QueryRequest, shape: Plan, path: str, sink: Sink, beat: Any,
            each: Any, tail: Any) -> bool:
    """The pass, the file's literal facts learnt first where results stream; raises to
    decline."""
    with open(sources.open_file(path), "rb") as handle:
        literals = Literals.of_file(path, file_stamp(os.fstat(handle.fileno())))
        if shape.mode != "collect":  # results leave as they come once no literal is long
            literals.settle()  # (a pass over the text, far quicker than the parse)
        held = not literals.settled or literals.long
        if held:
            sink.hold()
        try:
            return _pass(request, shape, handle, literals, sink, beat, each, tail)
        finally:
            if held:
                sink.release()


def _pass(request: QueryRequest, shape: Plan, handle: Any, literals: Literals, sink: Sink,
          beat: Any, each: Any, tail: Any) -> bool:
    """One pass over the open file: the elements at the plan's path through F and TAIL."""
    env = request.args
    runtime.start(None, literals)
    reader = Guarded(handle, beat)
    found = streamread.target(reader, shape.path)
    reader.settle()
    if found.stand_in is not None:
        return False
    handle.seek(0)
    reader = Guarded(handle, beat)
    elements = streamread.elements(reader, shape.path, found.kind, floats=True)
    printer = Printer(literals, **request.layout)
    for value in _results(shape, each, tail, env, _beating(elements, beat)):
        sink.add(printer.data(value))
    reader.settle()
    runtime.check()  # what jqlang checks at the end of every run (a ?// left early)
    if runtime.state.floats_compared and literals.long:
        raise NotMine("long number literals were compared")
    return True


def _compiled(text: str, env: dict) -> Any:
    return compile_subset(text, frozenset(env))


def _beating(elements: Iterator[Any], beat: Any) -> Iterator[Any]:
    """``elements``, telling ``beat`` every few hundred (each one done is progress)."""
    for count, element in enumerate(elements, 1):
        yield element
        if count % 256 == 0:
            beat()


def _results(shape: Plan, each: Any, tail: Any, env: dict,
             elements: Iterator[Any]) -> Iterator[Any]:
    """The program's results, as ``answer``'s libjq route gives them, on Python values."""
    opt = each.compiled.opt  # at most one output: no generator per element
    if opt is not None:
        outputs = (out for out in (opt(e, env) for e in elements) if out is not NOTHING)
    else:
        outputs = (out for element in elements for out in each.run(element, env))
    if shape.mode in ("first", "limit"):
        wanted = 1 if shape.mode == "first" else shape.count
        outputs = (out for _, out in zip(range(wanted), outputs, strict=False))
    elif shape.mode == "collect":
        if shape.tail == "length":
            yield sum(1 for _ in outputs)
            return
        if shape.tail == "add":  # jq's add is reduce .[] as $x (null; . + $x): a fold
            total, failed = None, None
            for output in outputs:  # jq maps every element before it adds: a later
                if failed is None:  # element's error comes before an addition's
                    try:
                        total = values.add(total, output)
                    except JqError as error:
                        failed = error
            if failed is not None:
                raise failed
            yield total
            return
        # repeated strings (categories, names) are kept once: the gathered list is pointers
        outputs = iter([[sys.intern(o) if type(o) is str else o for o in outputs]])
    if tail is None:
        yield from outputs
        return
    for output in outputs:
        yield from tail.run(output, env)
