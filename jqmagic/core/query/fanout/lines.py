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

import orjson

from jqmagic.core import sources
from jqmagic.core.jqlang import JqError, NotMine, compile_subset, runtime
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.literals import Literals, file_stamp
from jqmagic.core.jqlang.printer import Printer
from jqmagic.core.query import fastpath, libjq, libjqinput
from jqmagic.core.query.doccache import BOM, gc_paused
from jqmagic.core.query.outcome import dump_flags, named
from jqmagic.core.query.protocol import QueryRequest
from jqmagic.core.query.sink import Sink

MIN_PIECE = 4 << 20  # bytes: smaller files (or pieces) are not worth a worker of their own
READ_BYTES = 1 << 20
BATCH_LINES = 512


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


def answer(programs: libjq.ProgramCache, request: QueryRequest,
           sink: Sink) -> list[str] | None:
    """The results of the program on each line of ``request.ranges`` (path, start, end),
    in order, into ``sink``; the program's messages, or None when the caller must ask for
    the whole files instead."""
    with gc_paused():
        if fastpath.usable(request) and _fast(request, sink):
            return []
        try:
            return _with_libjq(programs, request, sink)
        except (libjq.RunError, libjq.InputError, libjq.Halt, libjq.CompileError,
                ValueError):
            return None


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


def _fast(request: QueryRequest, sink: Sink) -> bool:
    """Whether jqlang answered (False: it declined; the sink is ready for libjq)."""
    env = request.args
    program = compile_subset(request.program, frozenset(env))
    if program is None:
        return False
    opt = program.compiled.opt
    sink.hold()  # each file's literals are learnt at its end, if need be
    try:
        for path, start, end in request.ranges:
            with open(sources.open_file(path), "rb") as handle:
                literals = Literals.of_file(path, file_stamp(os.fstat(handle.fileno())))
            runtime.start(request.run.timeout, literals)
            printer = Printer(literals, **request.layout)
            for line in _lines(path, start, end):
                value = orjson.loads(line)
                results = program.run(value, env) if opt is None else \
                    [r for r in (opt(value, env),) if r is not NOTHING]
                for result in results:
                    sink.add(printer.data(result))
            runtime.check()
            if runtime.state.floats_compared and literals.long:
                raise NotMine("long number literals were compared")
    except (NotMine, JqError, RecursionError, orjson.JSONDecodeError):
        sink.restart()
        return False
    finally:
        sink.release()
    return True


def _with_libjq(programs: libjq.ProgramCache, request: QueryRequest,
                sink: Sink) -> list[str]:
    """libjq's answer and messages (errors raise: the caller asks again for whole files)."""
    program = programs.get(request.program, named(request),
                           list(request.run.library_paths) or None, request.positional,
                           request.run.program_origin)
    program.messages.clear()
    flags = dump_flags(request)
    messages: list[str] = []
    for path, start, end in request.ranges:
        lines = _lines(path, start, end)
        while batch := [line for _, line in zip(range(BATCH_LINES), lines, strict=False)]:
            values = libjqinput.parse_text(b"\n".join(batch))
            if len(values) != len(batch):  # a line held more than one value
                libjqinput.free_values(values)
                raise ValueError("not one value per line")
            try:
                for text in libjqinput.run_parsed(program, values, flags=flags):
                    sink.add(text.encode())
            finally:
                libjqinput.free_values(values)
            messages += program.messages  # run_parsed starts each batch afresh
    return messages
