"""``--reduce R``: a program run once on the array of every result of a fan-out, as ``jq -s
R`` would run on the map's output, computed where the reducer allows it from partial
reductions, one per partition (a file or a byte range), so that a cluster carries a value a
partition, not a message a result.

A :class:`Plan` pairs a ``partial`` program (on the array of one partition's results) with
a ``combine`` program (on the array of the partials, in input order) whose answer is R's,
text for text: ``add`` (numbers only while every sum is exact: numbers written without a
point or an exponent, whose count times the largest magnitude stays within 2**53 over all
partitions, so that no grouping rounds differently), ``length``, ``min``,
``max``, ``min_by(F)``, ``max_by(F)`` (jq keeps the first least and the last greatest, so
the partials' order decides ties as the inputs' would), ``group_by(F) | map(G) | ...``
where G reads a group only by ``.[0]``, ``first`` and ``length`` (counts: one row a group
and a partition), and ``group_by(F) | ...`` otherwise (the groups merged by key, every
value crossing once). A partial or a combine that fails (an inexact sum raises on purpose)
makes the caller ask again for every result and run R on all of them, so that an error
reads as the serial run's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from jqmagic.core import payloads
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import tokenize
from jqmagic.core.jqlang.parser import parse
from jqmagic.core.options import Formats, Source
from jqmagic.core.query import protocol
from jqmagic.core.query.fanout.join import Reply, joined
from jqmagic.core.query.request import Request, for_worker, timeout
from jqmagic.core.query.supervisor import Supervisor, shared_worker

# A map that reads where its input is (or more input), or prints beside its results, gives
# other answers under -s: its partial is made from its results instead.
_PLACED = re.compile(r"\$__loc__|\b(input\w*|debug|stderr|halt\w*)\b")
_EXACT = 9007199254740992  # 2**53: whole doubles up to here add exactly in any order
_OPEN, _CLOSE = "([{", ")]}"


class Part(NamedTuple):
    """A partition's answer: its end and its results, or (``partial``) its partial
    reduction as one text."""

    end: protocol.End
    texts: list[bytes]
    partial: bool = False


# The map over every partition, each answering the program of a request (a worker's reply
# to its own jobs), with the partial reduction when one is given: a fan-out's own way.
Ask = Callable[[Request, "protocol.QueryRequest | None"], list[Part]]


def run(request: Request, ask: Ask, slot: payloads.PayloadRef | None) -> Reply:
    """``request.run.reduce`` on every result of the map ``ask`` makes, from the partials
    where the reducer has a plan and every partition answered one, else from the results
    (asked again when some came as partials), a reply as :meth:`Supervisor.request` gives."""
    found, the_map = plan(request.run.reduce or "."), mapped(request)
    partial = None if found is None else \
        replace(for_worker(on_texts(the_map, found.partial, []), None), keep=None)
    parts = ask(the_map, partial)
    seconds = timeout(request)
    if found is not None and all(p.partial for p in parts):
        reply = shared_worker().request(for_worker(on_texts(
            request, found.combine, [t for p in parts for t in p.texts]), slot), seconds)
        if not reply[0].error:
            return reply
    if any(p.partial for p in parts):  # a partial or their combination failed: every result
        parts = ask(the_map, None)
    if any(p.end.error or p.end.halted for p in parts):
        return joined([(p.end, p.texts) for p in parts], [""] * len(parts), None, None)
    texts = [t for p in parts for t in p.texts]
    return shared_worker().request(
        for_worker(on_texts(request, request.run.reduce or ".", texts), slot), seconds)


def part(worker: Supervisor, message: protocol.QueryRequest,
         partial: protocol.QueryRequest | None, seconds: float | None) -> Part:
    """A partition's answer from ``worker``: with ``partial``, its partial reduction, in one
    run as ``-s '[.[] | (MAP)] | PARTIAL'`` over the partition's files where the map reads
    nothing of its inputs' places or streams (no result crosses twice), else on the map's
    results; the results themselves when the map failed or the partial did not answer."""
    if partial is not None and not message.ranges and not _PLACED.search(message.program):
        fused = replace(message, program=f"[.[] | (\n{message.program}\n)] | "
                        f"{partial.program}", run=replace(message.run, slurp=True))
        end, texts = worker.request(fused, seconds)
        if not (end.error or end.halted):
            return Part(end, texts, True)
    end, texts = worker.request(message, seconds)
    if partial is None or end.error or end.retry or end.halted:
        return Part(end, texts)
    source = replace(partial.source, spec=texts_as_array(texts))
    done, reduced = worker.request(replace(partial, source=source), seconds)
    return Part(end, texts) if done.error else Part(end, reduced, True)


class Plan(NamedTuple):
    """R as a partial reduction per partition and the combination of the partials."""

    partial: str
    combine: str


def plan(reducer: str) -> Plan | None:
    """The partial reduction of ``reducer``, or None when it has none (every result then
    reaches the reducer)."""
    try:
        return _plan(reducer)
    except NotMine:  # a program jqlang does not parse: libjq runs it on every result
        return None


def _plan(reducer: str) -> Plan | None:
    tree, steps = parse(reducer), _steps(reducer)
    whole = {("call", "add", ()): Plan(
                 '[add, (map(numbers) | if tojson | test("[.eEn]") then error("inexact") '
                 "else ([min, max | numbers | fabs] | max // 0) * length end)] | "
                 f'if .[1] <= {_EXACT} then . else error("inexact") end',
                 f'if (map(.[1]) | add) <= {_EXACT} then map(.[0]) | add '
                 f'else error("inexact") end'),
             ("call", "length", ()): Plan("length", "add"),
             ("call", "min", ()): Plan("[length, min]", "map(select(.[0] > 0) | .[1]) | min"),
             ("call", "max", ()): Plan("[length, max]", "map(select(.[0] > 0) | .[1]) | max")}
    if tree in whole:
        return whole[tree]
    if tree[0] == "call" and tree[1] in ("min_by", "max_by") and len(tree[2]) == 1:
        return Plan(f"[length, {reducer}]", f"map(select(.[0] > 0) | .[1]) | {reducer}")
    if not _is_call(steps[0], "group_by"):
        return None
    key = _argument(steps[0])
    if len(steps) > 1 and _is_call(steps[1], "map") and _ends_only(parse(_argument(steps[1]))):
        rest = " | ".join(steps[1:])
        return Plan(f"group_by({key}) | map([(.[0] | {key}), .[0], length])",
                    "[.[][]] | group_by(.[0]) | map([.[0][1], (range((map(.[2]) | add) - 1)"
                    f" | null)]) | {rest}")
    rest = "".join(f" | {step}" for step in steps[1:])
    return Plan(f"group_by({key}) | map([(.[0] | {key}), .])",
                f"[.[][]] | group_by(.[0]) | map(map(.[1]) | add){rest}")


def _steps(program: str) -> list[str]:
    """The program's texts between its outermost pipes, each checked to parse alone (a
    pipe inside ``if``, ``reduce`` or a ``def`` leaves the program one step: no plan)."""
    cuts, depth = [0], 0
    for token in tokenize(program):
        if token.kind == "keyword" and token.text in ("def", "if", "reduce", "foreach",
                                                       "try", "label", "as"):
            return [program]
        if token.kind == "op" and token.text in _OPEN:
            depth += 1
        elif token.kind == "op" and token.text in _CLOSE:
            depth -= 1
        elif token.kind == "op" and token.text == "|" and depth == 0:
            cuts.append(token.pos)
    cuts.append(len(program))
    steps = [program[a + (i > 0):b].strip()
             for i, (a, b) in enumerate(zip(cuts, cuts[1:], strict=False))]
    return steps if all(steps) else [program]


def _is_call(step: str, name: str) -> bool:
    tree = parse(step)
    return tree[0] == "call" and tree[1] == name and len(tree[2]) == 1


def _argument(step: str) -> str:
    """The text between a one-argument call's parentheses."""
    return step[step.index("(") + 1:step.rindex(")")].strip()


def _ends_only(node: tuple) -> bool:
    """Whether ``node``, run on a group, reads it only by ``.[0]``, ``first`` and
    ``length`` (so a group of the first value and nulls gives its answer)."""
    kind = node[0]
    if kind in ("literal", "var"):
        return True
    if kind == "index" and node[1] == ("dot",) and node[2] == ("literal", 0):
        return True
    if kind == "call":
        return node[1] in ("first", "length") and not node[2]
    if kind in ("field", "iterate", "neg"):
        return _ends_only(node[1])
    if kind == "index":
        return _ends_only(node[1]) and _ends_only(node[2])
    if kind == "pipe":  # the right side reads what the left gives, not the group
        return _ends_only(node[1])
    if kind in ("comma", "and", "or", "alt"):
        return _ends_only(node[1]) and _ends_only(node[2])
    if kind == "binop":
        return _ends_only(node[2]) and _ends_only(node[3])
    if kind == "array":
        return node[1] is None or _ends_only(node[1])
    if kind == "object":
        return all(_ends_only(k) and _ends_only(v) for k, v in node[1])
    if kind == "string":
        return all(isinstance(p, str) or _ends_only(p) for p in node[2])
    return False


def texts_as_array(texts: list[bytes]) -> str:
    """Results (JSON texts) as the text of one array, as ``-s`` reads them."""
    return b"".join((b"[", b",".join(texts), b"]")).decode("utf-8", "surrogatepass")


def on_texts(request: Request, program: str, texts: list[bytes]) -> Request:
    """``program`` on the array of ``texts``, with ``request``'s arguments and printing."""
    return replace(request, program=program, source=Source("text", texts_as_array(texts),
                                                           Formats()),
                   run=replace(request.run, slurp=False, dask=None, reduce=None, parallel=0))


def mapped(request: Request) -> Request:
    """The map of a ``--reduce`` run: every result, as compact JSON for the reducer."""
    return replace(request, printing=replace(request.printing, raw=False, compact=True,
                                             sort_keys=False, ascii=False, color=False),
                   run=replace(request.run, reduce=None),
                   bounds=replace(request.bounds, passthrough=True))
