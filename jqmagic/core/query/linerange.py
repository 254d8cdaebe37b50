"""Byte ranges of JSON Lines files, split at line starts so that one big file keeps several
workers busy (``--parallel``): the caller's side cuts (:func:`cut`), the worker's side
answers a per-input program over its ranges (:func:`answer`), with jqlang where it
compiles the program, else libjq, one line at a time.

A range answers only when nothing went wrong: a line that does not parse, a jq error, a
halt or a number the fast path doubts make :func:`answer` return None, and the caller
asks again the way one worker reads the whole files, so every error reads as the serial
run's (its line numbers, its results before it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import orjson

from jqmagic.core import sources
from jqmagic.core.jqlang import JqError, NotMine, compile_program, runtime
from jqmagic.core.jqlang.node import NOTHING
from jqmagic.core.jqlang.numbers import Literals, file_stamp
from jqmagic.core.jqlang.printer import Printer
from jqmagic.core.query import fastpath, libjq
from jqmagic.core.query.doccache import BOM, gc_paused
from jqmagic.core.query.spill import Spill
from jqmagic.core.settings import settings

MIN_PIECE = 4 << 20  # bytes: smaller files (or pieces) are not worth a worker of their own
READ_BYTES = 1 << 20
BATCH_LINES = 512


@dataclass
class Answer:
    """The kept texts, the total and jq's messages of a range request."""

    kept: list[bytes]
    total: int
    spill: Spill
    messages: list[str]


def cut(path: str, pieces: int) -> list[tuple[int, int]]:
    """``pieces`` byte ranges of about equal size covering the file, each starting at a line
    start (fewer when lines are long or the file is small)."""
    size = os.path.getsize(path)
    pieces = max(1, min(pieces, size // MIN_PIECE))
    starts = [0]
    with open(sources.open_file(path), "rb") as handle:
        for i in range(1, pieces):
            handle.seek(max(size * i // pieces - 1, starts[-1]))
            handle.readline()  # to the start of the next line
            if handle.tell() >= size:
                break
            if handle.tell() > starts[-1]:
                starts.append(handle.tell())
    return list(zip(starts, [*starts[1:], size], strict=True))


def answer(programs: libjq.ProgramCache, request: dict, named: dict) -> Answer | None:
    """The results of the program on each line of ``request["ranges"]`` ([path, start,
    end]), in order; None when the caller must ask for the whole files instead."""
    with gc_paused():
        if _fast_usable(request):
            spill = Spill(request.get("spill"))
            try:
                found = _fast(request, spill)
            finally:
                spill.close()
            if found is not None:
                return found
            if spill.path is not None and os.path.exists(spill.path):
                os.remove(spill.path)  # libjq answers from the start
        spill = Spill(request.get("spill"))
        try:
            return _with_libjq(programs, request, named, spill)
        except (libjq.RunError, libjq.InputError, libjq.Halt, libjq.CompileError,
                ValueError):
            return None
        finally:
            spill.close()


def _lines(path: str, start: int, end: int) -> Iterator[bytes]:
    """The non-blank lines of ``path`` between ``start`` and ``end``, in blocks."""
    with open(sources.open_file(path), "rb") as handle:
        handle.seek(start)
        left, rest = end - start, b""
        while left > 0 and (block := handle.read(min(READ_BYTES, left))):
            left -= len(block)
            if handle.tell() - len(block) == 0 and block.startswith(BOM):
                block = block[3:]
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            yield from (line for line in lines if line.strip())
        if rest.strip():
            yield rest


def _fast_usable(request: dict) -> bool:
    dump = request.get("dump", {})
    return bool(settings.fast_path and not dump.get("ascii") and not dump.get("color")
                and not request.get("positional") and not request.get("json_args")
                and fastpath._environment(request["args"]) is not None)


def _fast(request: dict, spill: Spill) -> Answer | None:
    """jqlang's answer, or None when it declines."""
    env = request["args"]
    program = compile_program(request["program"], frozenset(env))
    if program is None:
        return None
    out = Answer([], 0, spill, [])
    opt = program.compiled.opt
    try:
        for path, start, end in request["ranges"]:
            with open(sources.open_file(path), "rb") as handle:
                literals = Literals.of_file(path, file_stamp(os.fstat(handle.fileno())))
            runtime.start(request["run"]["timeout"], literals)
            printer = Printer(literals, **request["layout"])
            for line in _lines(path, start, end):
                value = orjson.loads(line)
                results = program.run(value, env) if opt is None else \
                    [r for r in (opt(value, env),) if r is not NOTHING]
                for result in results:
                    _take(out, request["keep"], printer.text(result).encode())
            runtime.check()
            if runtime.state.floats_compared and literals.long:
                return None
    except (NotMine, JqError, RecursionError, orjson.JSONDecodeError):
        return None
    return out


def _with_libjq(programs: libjq.ProgramCache, request: dict, named: dict,
                spill: Spill) -> Answer:
    """libjq's answer (errors raise: the caller asks again for whole files)."""
    run, dump = request["run"], request.get("dump", {})
    program = programs.get(request["program"], named, run.get("library_paths") or None,
                           request.get("positional", ()))
    program.messages.clear()
    flags = libjq.dump_flags(**request["layout"], ascii=dump.get("ascii", False),
                             color=dump.get("color", False), colors=dump.get("colors"))
    out = Answer([], 0, spill, [])
    for path, start, end in request["ranges"]:
        lines = _lines(path, start, end)
        while batch := [line for _, line in zip(range(BATCH_LINES), lines, strict=False)]:
            values = libjq.parse_text(b"\n".join(batch))
            if len(values) != len(batch):  # a line held more than one value
                libjq.free_values(values)
                raise ValueError("not one value per line")
            try:
                for text in libjq.run_parsed(program, values, flags=flags):
                    _take(out, request["keep"], text.encode())
            finally:
                libjq.free_values(values)
            out.messages += program.messages  # run_parsed starts each batch afresh
    return out


def _take(out: Answer, keep: int | None, data: bytes) -> None:
    out.total += 1
    if keep is None or len(out.kept) < keep:
        out.kept.append(data)
    else:
        out.spill.add(out.kept, data)
