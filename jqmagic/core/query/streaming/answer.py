"""Programs over JSON files too big to parse whole, answered in one streaming pass in the
worker: the program's shape (``forms``) says where to stream and what to run on each
element; the elements come from ``streamread`` and each runs through libjq, so every
answer is libjq's own, text for text. Only the elements in hand and the outputs a program
gathers (``[PATH[] | F]``) are held; ``length`` of them is counted, not gathered.

Streaming happens when a file is bigger than the document cache's budget
(``settings.doc_cache_bytes``) or the request asks for it (``stream_eval``); a program of
another shape on such a file is TOO_LARGE, with the shapes that stream in the hint. Only
a file the document scan vouches for streams (:mod:`.documents`: one array or object, no
key repeated on the path); libjq reads any other as jq does, or it is TOO_LARGE.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import orjson

from jqmagic.core import sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import jvfrom, libjq, libjqinput, progress
from jqmagic.core.query.doccache import documents, fits_whole, gc_paused, whole_parse_limit
from jqmagic.core.query.outcome import dump_flags, ended, named
from jqmagic.core.query.protocol import End, QueryRequest
from jqmagic.core.query.sink import Sink
from jqmagic.core.query.streaming import chunks
from jqmagic.core.query.streaming import fast as streamfast
from jqmagic.core.query.streaming import reader as streamread
from jqmagic.core.query.streaming.forms import FORMS, Plan, plan
from jqmagic.core.query.streaming.reader import Guarded, Inexact, NotStreamable
from jqmagic.core.settings import settings
from jqmagic.core.words import term

BATCH = 256  # elements parsed by libjq at a time
BEAT_SECONDS = 1.0  # how often a long pass restarts the program's clock (see ``progress``)


class _Programs:
    """The programs of one streamed query, compiled with its arguments (messages kept)."""

    def __init__(self, cache: libjq.ProgramCache, request: QueryRequest):
        self._cache, self._named = cache, named(request)
        self._paths = list(request.run.library_paths) or None
        self._positional = request.positional
        self._origin = request.run.program_origin  # -f's folder: relative module searches
        self._used: dict[str, libjq.Program] = {}

    def get(self, text: str) -> libjq.Program:
        if text not in self._used:
            program = self._cache.get(text, self._named, self._paths, self._positional,
                                      self._origin)
            program.messages.clear()
            self._used[text] = program
        return self._used[text]

    def messages(self) -> list[str]:
        return [m for p in self._used.values() for m in p.messages]


def answer(cache: libjq.ProgramCache, request: QueryRequest, sink: Sink) -> End | None:
    """The streamed answer to a worker request, or None when it is not for streaming (a
    small file, another format, a big file a complete face wants as jq reads it) or a
    small file's text does not stream exactly."""
    files = _files(request)
    if files is None:
        return None
    big = _over_budget(files)
    if not big and not request.run.stream_eval:
        return None
    if any(fmt == "jsonl" for _, fmt in files):  # libjq reads lines one at a time itself
        return None
    shape = plan(request.program)
    if shape is None or any(fmt != "json" for _, fmt in files) or request.run.slurp:
        if not big:
            raise JqMagicError("INVALID_ARGUMENT", "This program cannot be streamed: "
                               f"{term('stream_eval')} takes one JSON document per file "
                               f"and a program of the form {' or '.join(FORMS)}.",
                               f"Drop {term('stream_eval')}, or rewrite the program in one "
                               "of these forms.")
        if request.run.whole_files:  # the command line: read it whole, as jq does
            return None
        raise _too_large(files, shape is not None and not request.run.slurp)
    if not _streams_exactly([f for f, _ in files], shape, big, request.run.whole_files):
        return None  # libjq reads the files as jq does
    try:
        with gc_paused():  # the values built hold no cycles: collections only cost time
            return _stream(_Programs(cache, request), request, shape, [f for f, _ in files],
                           sink)
    except (Inexact, NotStreamable) as exc:
        sink.restart()  # the next engine starts over; what was sent is skipped
        if not big or request.run.whole_files:
            return None
        raise JqMagicError("TOO_LARGE", f"The file is bigger than the document budget and "
                           f"cannot be streamed exactly: {exc}.",
                           "Convert it to JSON Lines (one value per line) and query it "
                           f"with {term('jsonl')}.") from exc


def _streams_exactly(files: list[str], shape: Plan, big: bool, whole_files: bool) -> bool:
    """Whether each file holds one array or object that jq's parser takes, with no key
    repeated along the program's path (:mod:`.documents`' scan; no scan built: True, as
    before), so that the pass answers as libjq over the file does. Else False where libjq
    may read the files instead (a small file, the command line, or documents that each fit
    the budget: libjq holds one at a time); TOO_LARGE, saying why, where none may."""
    from jqmagic.core.query.streaming import documents

    found = [documents.of_file(path, len(shape.path) + 1) for path in files]
    odd = [(path, doc) for path, doc in zip(files, found, strict=True)
           if doc is not None and not doc.streams]
    if not odd or not big or whole_files:
        return not odd
    for path, doc in zip(files, found, strict=True):  # libjq then reads every file
        if not fits_whole(_size(path), "json") and not (
                doc is not None and doc.documents > 1 and fits_whole(doc.biggest, "json")):
            raise (doc if doc is not None and not doc.streams else odd[0][1]).too_large(
                _size(path))
    return False


def over_budget(request: QueryRequest) -> bool:
    """Whether the request's files are bigger than the document budget (read, not kept)."""
    files = _files(request)
    return files is not None and _over_budget(files)


def _over_budget(files: list[tuple[str, str]]) -> bool:
    """(A file gone since it was found is no bigger: its read says NOT_FOUND.)"""
    return any(not fits_whole(_size(f), fmt) for f, fmt in files)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _files(request: QueryRequest) -> list[tuple[str, str]] | None:
    """The request's files with their formats, when it names files and runs per input."""
    run, source = request.run, request.source.source()
    if source.kind != "file" or run.raw_input or run.null_input:
        return None
    return [(f, source.formats.for_path(f)) for f in sources.resolve_files(source.spec)]


def _too_large(files: list[tuple[str, str]], by_format: bool) -> JqMagicError:
    """TOO_LARGE for a file over the budget that would be read whole: its format (YAML,
    JSONC) or the program's shape is why."""
    size, fmt = max((os.path.getsize(f), fmt) for f, fmt in files)
    if size > settings.doc_cache_bytes:
        over = f"The file is {size / 1e6:,.0f} MB, over the document budget " \
            f"({settings.doc_cache_bytes / 1e6:,.0f} MB)"
        budget = f"Or raise the budget: {term('doc_budget')}."
    else:  # parsed whole, it would not fit in memory
        over = f"The file is {size / 1e6:,.0f} MB: parsed whole it would take about " \
            f"{documents.expected_resident(size, fmt) / 1e9:,.1f} GB, over half the " \
            f"worker's memory ({2 * whole_parse_limit() / 1e9:,.1f} GB)"
        budget = ""
    if by_format:
        return JqMagicError("TOO_LARGE", f"{over}, and only JSON and JSON Lines stream.",
                            f"Convert it to JSON Lines or JSON first. {budget}".rstrip())
    return JqMagicError(
        "TOO_LARGE", f"{over}, and this program needs it whole.",
        f"Write it in a form that streams: {'; '.join(FORMS)} (e.g. "
        f"[.items[] | select(.ok)] | length). {budget}".rstrip())


def _stream(programs: _Programs, request: QueryRequest, shape: Plan, files: list[str],
            sink: Sink) -> End:
    """Run ``shape`` over each file in turn; as jq does with several inputs, a failing
    input ends its own results only (the first failure is reported at the end)."""
    beat = _Beat(request.run.timeout)
    if streamfast.usable(request, shape, files) and not _in_runs(shape, files[0]) and \
            streamfast.answer(request, shape, files[0], sink, beat):
        sink.close()
        return sink.end(engine="stream-fast")
    flags = dump_flags(request)
    errors: list[str] = []
    error: Exception | None = None
    try:
        for path in files:
            try:
                batches = _each_in_runs(programs, shape, path, beat, flags)
                if batches is not None:
                    for texts in batches:
                        sink.add_many(texts)
                else:
                    for result in _file_results(programs, request.program, shape, path,
                                                beat):
                        sink.add(libjq.dump(result, flags).encode())
                failed = False
            except libjq.RunError as exc:
                errors.append(str(exc))
                failed = True
        error = libjqinput.failed_inputs(errors, failed) if errors else None
    except (libjq.CompileError, libjq.Halt) as exc:
        error = exc
    return ended(sink, error, programs.messages(), "stream", request.program)


def _each_in_runs(programs: _Programs, shape: Plan, path: str, beat: _Beat,
                  flags: int) -> Iterator[list[bytes]] | None:
    """The texts of ``PATH[] | F`` over an array read in runs, a run's at a time: each run
    given to ``[.[] | (F)]`` (nothing, for ``.[]``) and its items printed in one C call
    (no Python call per output); a run where F fails (or halts) is run again output by
    output, so what came before the error is printed, as jq prints it. None where the
    file does not read in runs or the extension is not there."""
    if shape.mode != "each" or any(type(step) is int for step in shape.path) or \
            not jvfrom.DUMPS or any(word in shape.each for word in ("debug", "stderr")):
        return None  # (F's messages would come twice from a run run again)
    handle = open(sources.open_file(path), "rb")  # noqa: SIM115 - closed by _batches
    start = chunks.array_start(handle, shape.path)
    if start is None:
        handle.close()
        return None
    return _batches(programs, shape, handle, start, beat, flags)


def _batches(programs: _Programs, shape: Plan, handle: Any, start: int, beat: _Beat,
             flags: int) -> Iterator[list[bytes]]:
    gather = None if shape.each == "." else programs.get(f"[.[] | ({shape.each})]")
    each = programs.get(f".[] | ({shape.each})")
    with handle:
        runs = chunks.Runs(handle, start, _one_value, beat)
        for run in runs:
            if gather is None:
                yield jvfrom.dumped(run, flags)
                continue
            again = jvfrom.copy(run)
            try:
                (items,) = libjq.results(gather, run)
            except (libjq.RunError, libjq.Halt):
                yield from _one_by_one(each, again, flags)
                continue
            libjqinput.free_values([again])
            yield jvfrom.dumped(items, flags)
        chunks.check_skeleton(handle, start, runs.suffix or b"", shape.path)


def _one_by_one(each: libjq.Program, run: libjq.jv, flags: int) -> Iterator[list[bytes]]:
    """The texts of ``each`` over ``run`` (consumed) until it fails, then its error."""
    texts: list[bytes] = []
    try:
        for output in libjq.results(each, run):
            texts.append(libjq.dump(output, flags).encode())
    except (libjq.RunError, libjq.Halt):
        yield texts
        raise
    yield texts


def _in_runs(shape: Plan, path: str) -> bool:
    """Whether libjq reads the file's array in runs (as quick as the fast path over
    orjson's values, or quicker: jq's add folded run by run; and exact by construction)."""
    if any(type(step) is int for step in shape.path) or \
            (shape.mode == "value" and shape.tail != "length"):
        return False
    with open(sources.open_file(path), "rb") as handle:
        return chunks.array_start(handle, shape.path) is not None


class _Beat:
    """Restarts the program's clock now and then (as the file is read): a long pass is
    bounded by the file's size, as a parse is; each stretch of work by the timeout."""

    def __init__(self, timeout: float | None) -> None:
        self._last = time.monotonic()
        self._every = BEAT_SECONDS if not timeout else min(BEAT_SECONDS, timeout / 4)

    def __call__(self) -> None:
        if time.monotonic() - self._last >= self._every:
            self._last = time.monotonic()
            progress.working()


def _file_results(programs: _Programs, program: str, shape: Plan, path: str,
                  beat: _Beat) -> Iterator[libjq.jv]:
    """The results of ``shape`` on the file at ``path`` (owned jvs)."""
    cut = next((i for i, step in enumerate(shape.path) if type(step) is int), None)
    keys = shape.path if cut is None else shape.path[:cut]
    with open(sources.open_file(path), "rb") as handle:
        if cut is None and (shape.mode != "value" or shape.tail == "length"):
            start = chunks.array_start(handle, keys)  # the usual layout: read in runs
            if start is not None:
                yield from _runs(programs, shape, handle, keys, start, beat)
                return
        reader = Guarded(handle, beat)
        found = streamread.target(reader, keys)
        reader.settle()
        if found.stand_in is None and cut is not None and found.kind != "array":
            found = replace(found, stand_in=streamread.nest(keys, "{}"))  # .[N] of an object fails
        if found.stand_in is not None:  # the path stops short: a small document tells
            yield from _run_text(programs.get(program), found.stand_in)
            return
        handle.seek(0)
        reader = Guarded(handle, beat)
        if cut is not None:  # the element at the index, then the rest of the program
            element = _nth(streamread.elements(reader, keys, "array"), shape.path[cut])
            reader.settle()
            rest = render(replace(shape, path=shape.path[cut + 1:]))
            yield from _run_text(programs.get(rest), element)
        elif shape.mode == "value":
            yield from _value(programs, shape, reader, keys, found.kind)
        else:
            texts = (streamread.text_of(e) for e in streamread.elements(reader, keys,
                                                                         found.kind))
            yield from _finish(programs, shape, _each(programs, shape, texts, beat))
        reader.settle()


def _runs(programs: _Programs, shape: Plan, handle: Any, keys: tuple[str, ...], start: int,
          beat: _Beat) -> Iterator[libjq.jv]:
    """The program's results over the array at ``start``, read in runs of whole elements,
    each parsed by libjq (the very text: no spelling to guard) and given to ``.[] | (F)``,
    or gathered by ``[.[] | (F)]`` a run at a time (no Python call per output); a length
    counted by orjson's parse (libjq's where orjson refuses a number)."""
    runs = chunks.Runs(handle, start, _one_value, beat)
    if shape.mode == "value":  # PATH | length
        counted = chunks.Runs(handle, start, lambda text: len(orjson.loads(text)), beat)
        try:
            total = sum(counted)
        except chunks.Unchunked:
            total = sum(int(libjq.dump(n)) for run in runs
                        for n in libjq.results(programs.get("length"), run))
        chunks.check_skeleton(handle, start, counted.suffix or runs.suffix or b"", keys)
        yield from libjqinput.parse_text(str(total))
        return
    if shape.mode != "collect":
        each = programs.get(".[]" if shape.each == "." else f".[] | ({shape.each})")

        def outputs() -> Iterator[libjq.jv]:
            for run in runs:
                yield from libjq.results(each, run)
            chunks.check_skeleton(handle, start, runs.suffix or b"", keys)

        yield from _finish(programs, shape, outputs())
        return
    if shape.tail == "add":  # jq's add is reduce .[] as $x (null; . + $x): folded run by run
        mapped = programs.get(f"[.[] | ({shape.each})]")
        fold = programs.get("reduce .[1][] as $x (.[0]; . + $x)")
        total, failed = libjqinput.parse_text("null")[0], None
        for run in runs:  # jq maps every element before it adds: a later element's
            (items,) = list(libjq.results(mapped, run))  # error comes before an addition's
            if failed is not None:
                libjqinput.free_values([items])
                continue
            try:
                (total,) = list(libjq.results(fold, libjq.array([total, items])))
            except libjq.RunError as error:
                failed = error
        chunks.check_skeleton(handle, start, runs.suffix or b"", keys)
        if failed is not None:
            raise failed
        yield total
        return
    counted_tail = shape.tail == "length"
    gather = programs.get(f"[.[] | ({shape.each})]" + (" | length" if counted_tail else ""))
    parts = [part for run in runs for part in libjq.results(gather, run)]
    chunks.check_skeleton(handle, start, runs.suffix or b"", keys)
    if counted_tail:
        yield from libjqinput.parse_text(str(sum(int(libjq.dump(part)) for part in parts)))
        return
    whole = programs.get("[.[][]]" + (f" | ({shape.tail})" if shape.tail else ""))
    yield from libjq.results(whole, libjq.array(parts))


def _one_value(text: bytes) -> libjq.jv:
    """The one value of ``text``, parsed by libjq (InputError: not one JSON value)."""
    values = libjqinput.parse_text(text)
    if len(values) != 1:
        libjqinput.free_values(values)
        raise libjq.InputError("not one value")
    return values[0]


def _value(programs: _Programs, shape: Plan, reader: Guarded, keys: tuple[str, ...],
           kind: str) -> Iterator[libjq.jv]:
    """``PATH | TAIL``: the count of a container's elements, or TAIL on the value."""
    if shape.tail == "length":
        count = sum(1 for _ in streamread.elements(reader, keys, kind))
        yield from libjqinput.parse_text(str(count))
    else:
        text = streamread.text_of(streamread.value(reader, keys))
        reader.settle()
        yield from _run_text(programs.get(shape.tail or "."), text)


def _each(programs: _Programs, shape: Plan, texts: Iterator[str],
          beat: _Beat) -> Iterator[libjq.jv]:
    """F's outputs on each element, in order (the elements parsed by libjq in batches)."""
    each = None if shape.each == "." else programs.get(shape.each)
    while batch := [t for _, t in zip(range(BATCH), texts, strict=False)]:
        values = libjqinput.parse_text("\n".join(batch))
        try:
            while values:
                value = values.pop(0)
                if each is None:
                    yield value
                else:
                    yield from libjq.results(each, value)
        finally:
            libjqinput.free_values(values)
        beat()  # a batch done: slow work on small elements is progress too


def _finish(programs: _Programs, shape: Plan,
            outputs: Iterator[libjq.jv]) -> Iterator[libjq.jv]:
    """The program's results from F's outputs: as they are, the first N, or gathered."""
    if shape.mode in ("first", "limit"):
        wanted = 1 if shape.mode == "first" else shape.count
        outputs = _first(outputs, wanted)
    elif shape.mode == "collect":
        if shape.tail == "length":
            yield from libjqinput.parse_text(str(_count(outputs)))
            return
        gathered = list(outputs)
        outputs = iter([libjq.array(gathered)])
        if shape.tail is None:
            yield from outputs
            return
    if shape.tail is None or shape.mode == "each":
        yield from outputs
        return
    # TAIL runs while F is suspended: its own jq state, even when its text is F's
    tail = programs.get(f"{shape.tail} ")
    for output in outputs:
        yield from libjq.results(tail, output)


def _count(outputs: Iterator[libjq.jv]) -> int:
    count = 0
    for output in outputs:
        libjqinput.free_values([output])
        count += 1
    return count


def _first(outputs: Iterator[libjq.jv], wanted: int) -> Iterator[libjq.jv]:
    if wanted <= 0:
        return
    for count, output in enumerate(outputs, 1):
        yield output
        if count >= wanted:
            return


def _nth(elements: Iterator, index: int) -> str:
    """The text of element ``index`` (null past the end, as jq's ``.[N]``)."""
    for i, element in enumerate(elements):
        if i == index:
            return streamread.text_of(element)
    return "null"


def _run_text(program: libjq.Program, text: str) -> Iterator[libjq.jv]:
    for value in libjqinput.parse_text(text):
        yield from libjq.results(program, value)


def render(shape: Plan) -> str:
    """The jq text of a plan (to run the rest of a program on one element)."""
    steps = "".join(f"[{json.dumps(s)}]" for s in shape.path)
    each = f".{steps}[] | {shape.each}"
    tail = f" | {shape.tail}" if shape.tail else ""
    if shape.mode == "value":
        return f".{steps}{tail}"
    if shape.mode == "each":
        return each
    if shape.mode == "collect":
        return f"[{each}]{tail}"
    if shape.mode == "first":
        return f"first({each}){tail}"
    return f"limit({shape.count}; {each}){tail}"
