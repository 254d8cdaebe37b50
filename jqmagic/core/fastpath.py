"""Answer a query in-process on parsed trees when jqlang knows the program, or decline.

The answer must be the one the libjq worker would give: same values, texts, totals and
spill file. Anything in doubt (a program outside the subset, a jq error, a number literal
that might print or compare differently, an input orjson refuses) returns None and the
caller asks the worker.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from jqmagic.core import sources
from jqmagic.core.doccache import BOM, Document, documents, gc_paused, parse_text
from jqmagic.core.errors import JqMagicError
from jqmagic.core.jqlang import JqError, NotMine, compile_program, runtime, variables
from jqmagic.core.jqlang.node import NOTHING
from jqmagic.core.jqlang.numbers import Literals, canonical_json_number, file_stamp
from jqmagic.core.jqlang.printer import Printer, fresh_value
from jqmagic.core.settings import settings
from jqmagic.core.spill import Spill

_READ = 1 << 20


@dataclass
class FastAnswer:
    """What the worker's reply would have held."""

    texts: list[str] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    total: int = 0
    spilled: bool = False
    spill_error: str | None = None


@dataclass
class Request:
    """One query as the fast path needs it."""

    program: str
    picked: tuple[str, Any] | None
    args: dict[str, Any]
    namespace: dict[str, Any] | None
    slurp: bool
    null_input: bool
    layout: dict[str, Any]
    keep: int | None
    spill: str | None
    timeout: float | None
    cache: bool
    formats: dict[str, bool | None]


def answer(request: Request) -> FastAnswer | None:
    """The fast path's answer, or None when the worker must answer."""
    if not settings.fast_path or (request.null_input and request.picked is not None):
        return None
    env = _environment(request)
    if env is None:
        return None
    program = compile_program(request.program, frozenset(env))
    if program is None:
        return None
    runtime.start(request.timeout)
    try:
        with gc_paused():
            inputs, literals = _inputs(request)
            return _run(program, env, inputs, literals, request)
    except (NotMine, JqError, RecursionError, OSError):  # the worker answers, or reports
        _discard(request.spill)
        return None
    except KeyboardInterrupt:
        _discard(request.spill)
        raise JqMagicError("INTERRUPTED", "The jq program was interrupted.",
                           "Nothing else was lost; narrow the input or run it again.") from None
    except BaseException:
        _discard(request.spill)
        raise


def _environment(request: Request) -> dict[str, Any] | None:
    """``$name`` values: named arguments, then unbound names found in the namespace."""
    given = dict(request.args)
    for name in variables(request.program) - set(given):
        if request.namespace and name in request.namespace:
            given[name] = request.namespace[name]
    try:
        env = json.loads(sources.dumps(given))
    except JqMagicError:
        return None
    return env if _plain_numbers(env) else None


def _plain_numbers(value: Any) -> bool:
    """Whether jq prints and compares every number in ``value`` as Python would."""
    t = type(value)
    if t is int or t is float:
        return canonical_json_number(value)
    if t is list:
        return all(_plain_numbers(v) for v in value)
    if t is dict:
        return all(_plain_numbers(v) for v in value.values())
    return True


class _AllLiterals:
    """The facts of several texts together."""

    def __init__(self, parts: list[Literals]):
        self.parts = parts

    long = property(lambda self: any(p.long for p in self.parts))
    odd_floats = property(lambda self: any(p.odd_floats for p in self.parts))
    negative_zero = property(lambda self: any(p.negative_zero for p in self.parts))


def _inputs(request: Request) -> tuple[Iterator[Any], _AllLiterals]:
    """The program's inputs in order, lazily (JSON Lines are read line by line)."""
    literals: list[Literals] = []
    picked = request.picked
    if picked is None:
        streams: list[Iterator[Any]] = [iter([None])]
    else:
        kind, spec = picked
        if kind == "exec":
            raise NotMine("command output")
        if kind == "file":
            streams = [_file_values(path, request, literals)
                       for path in sources.resolve_files(spec)]
        else:
            doc = _inline(kind, spec, request.formats)
            literals.append(doc.literals)
            streams = [iter(doc.values)]
    values = (v for stream in streams for v in stream)
    if request.slurp:
        values = iter([list(values)])
    return values, _AllLiterals(literals)


def _inline(kind: str, spec: Any, formats: dict[str, bool | None]) -> Document:
    if kind == "value":
        return parse_text(sources.dumps(spec))
    if formats.get("yaml") or formats.get("jsonc"):
        raise NotMine("inline YAML or JSONC")
    return parse_text(spec)


def _file_values(path: str, request: Request, literals: list[Literals]) -> Iterator[Any]:
    fmt = sources.file_format(path, **request.formats)
    if fmt == "jsonl":
        handle = open(sources.open_file(path), "rb")  # noqa: SIM115 - closed by _json_lines
        literals.append(Literals.of_file(path, file_stamp(os.fstat(handle.fileno()))))
        return _json_lines(handle)
    doc = documents.get(path, fmt, request.cache)
    literals.append(doc.literals)
    return iter(doc.values)


def _json_lines(handle: IO[bytes]) -> Iterator[Any]:
    """Each line's value, read in blocks; NotMine for a line orjson refuses."""
    loads = orjson.loads
    with handle:
        rest = b""
        first = True
        while block := handle.read(_READ):
            if first and block.startswith(BOM):
                block = block[3:]
            first = False
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            runtime.check()
            try:
                yield from list(map(loads, lines))
            except orjson.JSONDecodeError:  # blank lines, or one orjson refuses
                yield from _careful(lines)
        yield from _careful([rest])


def _careful(lines: list[bytes]) -> Iterator[Any]:
    for line in lines:
        if line.strip():
            try:
                yield orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise NotMine("a line orjson refuses") from exc


def _run(program, env: dict[str, Any], inputs: Iterator[Any], literals: _AllLiterals,
         request: Request) -> FastAnswer:
    printer = Printer(literals, **request.layout)
    out = FastAnswer()
    keep, spill = request.keep, Spill(request.spill)
    opt = program.compiled.opt  # at most one output: no iterator per input
    try:
        for value in inputs:
            if opt is None:
                results = program.run(value, env)
            else:
                one = opt(value, env)
                results = () if one is NOTHING else (one,)
            for result in results:
                out.total += 1
                if keep is None or len(out.texts) < keep:
                    text = printer.text(result)
                    out.texts.append(text)
                    out.values.append(fresh_value(result, text))
                elif request.spill is not None:
                    spill.add(out.texts, printer.text(result).encode())
        runtime.check()
    finally:
        spill.close()
    if runtime.state.floats_compared and literals.long:
        raise NotMine("long number literals were compared")
    out.spilled, out.spill_error = spill.written, spill.error
    return out


def _discard(path: str | None) -> None:
    if path is not None and os.path.exists(path):
        os.remove(path)
