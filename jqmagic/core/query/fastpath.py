"""The fast path: answer on cached parsed trees when jqlang knows the program, or decline.

It runs in the worker process (``serve``), beside libjq, and must give libjq's answer:
same texts, totals and spill file. Anything in doubt (a program outside the subset, a jq
error, a number literal that might print or compare differently, an input orjson refuses)
returns None and libjq answers.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

import jqmagic.core.jqutf8  # noqa: F401 (registers the "jq-string" error handler)
from jqmagic.core import payloads, sandbox, sources
from jqmagic.core.jqlang import JqError, NotMine, compile_subset, regex, runtime
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.demand import chains as chains_read
from jqmagic.core.jqlang.demand import stops_early
from jqmagic.core.jqlang.literals import Literals, file_stamp
from jqmagic.core.jqlang.numbers import canonical_json_number
from jqmagic.core.jqlang.printer import Printer
from jqmagic.core.jqlang.values import Hollow, Stream
from jqmagic.core.options import Source
from jqmagic.core.query import inputbind, literalfacts, projected, regexoracle
from jqmagic.core.query.doccache import (
    Document,
    documents,
    file_reads,
    fits_whole,
    gc_paused,
    json_lines,
    parse_one,
    parse_text,
)
from jqmagic.core.query.protocol import QueryRequest
from jqmagic.core.query.sink import Sink
from jqmagic.core.settings import settings
from jqmagic.core.sources.formats import ValueText, value_facts, value_text
from jqmagic.core.sources.prepare import run_together

regex.ORACLE = regexoracle.test  # libjq is loaded here: it answers what Python's re may not


def _unindented(layout: dict) -> bool:
    """jq 1.8.2's --indent 0: pretty lines with no indentation (libjq prints it)."""
    return layout["indent"] == 0 and not (layout["compact"] or layout["tab"])


def usable(request: QueryRequest) -> bool:
    """Whether the fast path may try: options its printer and values cover."""
    run, dump = request.run, request.dump
    return settings.fast_path and not (
        run.raw_input or run.stream_events or run.stream_errors or run.seq or dump.ascii
        or dump.color or request.positional or request.json_args
        or _unindented(request.layout)) and _environment(request.args) is not None


def answer(request: QueryRequest, sink: Sink) -> bool:
    """Whether the fast path answered ``request`` into ``sink``; False when libjq must
    answer (the sink is then ready for it: :meth:`Sink.restart`)."""
    if not usable(request) or request.source.kind == "exec":
        return False
    resolved = _RESOLVED.set({})
    try:
        return _answer(request, sink)
    finally:
        _RESOLVED.reset(resolved)


_RESOLVED: ContextVar[dict[Any, list[str]] | None] = ContextVar("resolved", default=None)
"""The files a request's spec names, resolved once for its whole answer (each resolution
checks the sandbox, every link of the path and the file's encoding: 10-15 system calls a
file, up to a millisecond each on a virtual disk)."""


def _files(spec: Any) -> list[str]:
    """:func:`sources.resolve_files` of ``spec``, once per answer."""
    memo, key = _RESOLVED.get(), spec if isinstance(spec, str) else tuple(spec)
    if memo is None:
        return sources.resolve_files(spec)
    if key not in memo:
        memo[key] = sources.resolve_files(spec)
    return memo[key]


def _answer(request: QueryRequest, sink: Sink) -> bool:
    run, env = request.run, request.args
    program, bound, keep = _compiled(request)
    if program is None:
        return False
    try:
        with gc_paused():
            streams, literals = _inputs(request, bound, keep)  # files parse before the clock
            if bound is not None and bound.reads_inputs:
                env = {**env, inputbind.INPUTS: _every_input(streams, bound, keep)}
                streams = [(None, iter([None]))]
            runtime.start(run.timeout, literals, sink.waited)
            _run(program, env, streams, literals, request, sink, bound)
            return True
    except (NotMine, JqError, RecursionError, OSError):  # libjq answers, or reports
        sink.restart()
        return False


def _every_input(streams: Streams, bound: inputbind.Bound, cache: bool) -> Any:
    """What ``$INPUTS`` holds: every input in a list; read as they come (a big file's
    lines, not kept) when the program only iterates them."""
    if not cache:
        values = itertools.chain.from_iterable(stream for _, stream in streams)
        if bound.only_first:  # $INPUTS[0]: the first line alone is read
            return list(itertools.islice(values, 1)) or _no_input()
        return Stream(values)
    lone = streams[0][1] if len(streams) == 1 else None
    if type(lone) is Hollow and not bound.reads_columns:
        lone = lone.rows()
    values = lone if type(lone) in (list, Hollow) else \
        [v for _, stream in streams for v in stream]
    return values if values or not bound.takes_first else _no_input()


def _no_input() -> Any:
    raise NotMine("input with no input: libjq's error")


def _streams_inputs(request: QueryRequest, bound: inputbind.Bound) -> bool:
    """Whether ``inputs`` can be read as it comes (the program reads ``input`` alone or not
    at all, no -s, every file JSON Lines): a file over the budget is then read once, never
    kept."""
    source = request.source.source()
    return bound.only_first == bound.takes_first and not request.run.slurp and all(
        source.formats.for_path(path) == "jsonl" for path in _files(source.spec))


def _compiled(request: QueryRequest) -> tuple[Any, inputbind.Bound | None, bool]:
    """The program compiled for the fast path (None: libjq's), with its input readers
    bound when it calls them (``inputs`` under -n, ``input_filename``,
    ``input_line_number``), and whether its files may be kept (not when it reads the
    inputs of a file over the budget: their lines then stream)."""
    run, kind, names = request.run, request.source.kind, frozenset(request.args)
    if inputbind.uses_readers(request.program):
        bound = inputbind.bind(request.program, names, run.null_input)
        if bound is not None:
            if kind not in ("file", "null") or ((bound.names_files or bound.numbers_lines) and (
                    kind != "file" or run.slurp or sandbox.enabled())):
                return None, None, False  # libjq's file names (<stdin>...)
            if not bound.reads_inputs:
                return bound.program, bound, run.cache
            keep = kind == "file" and run.cache and not _over_budget(request)
            if keep and (bound.only_first or stops_early(request.program)) and \
                    _streams_inputs(request, bound) and not _held(request):
                keep = False  # jq stops reading at the answer: the lines as they come
            if kind == "null" or not keep and not _streams_inputs(request, bound):
                return None, None, False  # inputs neither kept nor read as they come
            return bound.program, bound, keep
    if run.null_input and kind != "null":
        return None, None, False
    return compile_subset(request.program, names), None, run.cache


def _held(request: QueryRequest) -> bool:
    """Whether the document cache holds every file of the request with the chains its
    program reads."""
    source, run = request.source.source(), request.run
    chains = chains_read(request.program, run.null_input, run.slurp)
    return all(documents.holds(path, source.formats.for_path(path), chains)
               for path in _files(source.spec))


def _over_budget(request: QueryRequest) -> bool:
    """Whether a file of the request is bigger than the document budget: every input held
    at once would be more than the cache may keep (libjq reads them one by one)."""
    source = request.source.source()
    return any(_too_big_to_keep(path, source.formats.for_path(path))
               for path in _files(source.spec))


def _too_big_to_keep(path: str, fmt: str) -> bool:
    """Whether the file may not be parsed whole (its text over the document budget, or
    its parse over the worker's memory: :func:`.doccache.fits_whole`), or (JSON Lines,
    which can be read as they come instead) the values it would parse into are expected
    to be over the budget and it is not held as spans either (:mod:`.linespans`)."""
    size, budget = os.path.getsize(path), settings.doc_cache_bytes
    return not fits_whole(size, fmt) or fmt == "jsonl" and \
        documents.expected_resident(size, fmt) > budget and not documents.as_spans(size, fmt)


def _environment(args: dict[str, Any]) -> dict[str, Any] | None:
    """``$name`` values, when jq would print and compare their numbers as Python does."""
    return args if _plain_numbers(args) else None


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


class _AllLiterals(Literals):
    """The facts of several texts together (each learnt when first needed)."""

    def __init__(self, parts: list[Literals]):
        super().__init__(lambda: ())
        self.parts = parts

    @property
    def settled(self) -> bool:
        return self._facts is not None or all(part.settled for part in self.parts)

    @property
    def facts(self) -> frozenset[str]:
        if self._facts is None:
            self._facts = frozenset().union(*(part.facts for part in self.parts))
        return self._facts

    @property
    def long(self) -> bool:  # each part answers as cheaply as it can
        return any(part.long for part in self.parts)

    @property
    def odd_texts(self) -> dict | None:
        """Every part's odd texts; a double two parts write otherwise, written two ways."""
        if self._texts is None:
            each = [part.odd_texts for part in self.parts]
            if any(texts is None for texts in each):
                return None
            merged: dict = {}
            for texts in each:
                for key, text in texts.items():
                    merged[key] = text if merged.get(key, text) == text else None
            self._texts = merged
        return self._texts


Streams = list[tuple[str | None, Iterable[Any]]]


def _inputs(request: QueryRequest, bound: inputbind.Bound | None,
            cache: bool) -> tuple[Streams, _AllLiterals]:
    """The program's inputs in order, lazily, each with its file (None: not a file);
    ``bound``: the program's input readers, if it calls any; ``cache``: files are kept
    in the document cache (else JSON Lines are read as they come)."""
    literals: list[Literals] = []
    source = request.source.source()
    run = request.run
    chains = chains_read(request.program, run.null_input, run.slurp)
    if source.kind == "null":
        streams: Streams = [(None, iter([None]))]
    elif source.kind in ("file", "payload"):
        paths = [str(payloads.find(source.spec).path)] if source.kind == "payload" else \
            _files(source.spec)
        if run_together(paths):
            raise NotMine("files whose text runs together as one stream")
        streams = [(path, _file_values(path, source.formats.for_path(path), cache, literals,
                                       bound, i == len(paths) - 1, chains))
                   for i, path in enumerate(paths)]
    else:
        doc = _inline(source)
        literals.append(doc.literals)
        streams = [(None, doc.values)]
    if request.run.slurp and source.kind != "null":  # -n -s: the input is null
        streams = [(None, iter([[v for _, stream in streams for v in stream]]))]
    return streams, _AllLiterals(literals)


def _inline(source: Source) -> Document:
    if source.kind == "value":
        return _value_document(source.spec)
    if source.formats.for_text() in ("yaml", "jsonc"):
        raise NotMine("inline YAML or JSONC")
    try:
        return parse_text(source.spec)
    except NotMine:
        return _several(source.spec)


_VALUES: dict[str, Document] = {}  # the last Python value's tree, by its text's digest


def _value_document(spec: Any) -> Document:
    """A Python value's tree, parsed once per text (its digest proves the version)."""
    text = spec if isinstance(spec, ValueText) else value_text(spec)
    if not text.plain and (b"Infinity" in text.data or b"NaN" in text.data):  # json wrote
        raise NotMine("NaN or an infinity: jq prints them as null and its largest double")
    doc = _VALUES.get(text.digest)
    if doc is None:
        with gc_paused():
            tree = text.value()
        facts = value_facts(tree)
        literals = Literals.known(facts) if facts is not None else \
            Literals.of_text(text.data).settle()
        doc = Document([tree], literals, len(text.data))
        for old in _VALUES.values():
            old.keep_columns(False)
        _VALUES.clear()
        _VALUES[text.digest] = doc
        doc.keep_columns(True)
    return doc


_SPACES = re.compile("[ \t\n\r]*")  # jq's whitespace between values
_DECODER = json.JSONDecoder()


def _several(text: str) -> Document:
    """A text of several JSON values (``1 2``, ``[1]\n{}``), each read by orjson: a value a
    line as JSON Lines are read, else one after the other; values must be apart or
    self-delimited, as jq's parser wants them (else NotMine)."""
    data = text.encode()
    literals = Literals.of_text(data).settle()
    try:
        return Document(json_lines(data)[0], literals, len(data))
    except NotMine:
        pass
    pieces, at = [], _SPACES.match(text).end()
    while at < len(text):
        try:
            _, end = _DECODER.raw_decode(text, at)
        except ValueError as exc:
            raise NotMine("a text that is not JSON values") from exc
        pieces.append(text[at:end])
        rest = _SPACES.match(text, end).end()
        if rest == end < len(text) and not (text[end - 1] in '"]}' or text[end] in '"[{'):
            raise NotMine("JSON values run together")
        at = rest
    return Document([parse_one(p) for p in pieces], literals, len(data))


def _file_values(path: str, fmt: str, cache: bool, literals: list[Literals],
                 bound: inputbind.Bound | None, last: bool,
                 chains: frozenset | None = None) -> Iterable[Any]:
    """A file's values: from the document cache, or (JSON Lines not kept) line by line;
    ``chains``: the only field chains of each value the program reads (None: whole).
    When the program asks input_filename (the user's file, a converted YAML one too; the
    next file when this one's last value runs into its text) or input_line_number (known
    for JSON Lines of a value a line), NotMine where the answer is not known."""
    names_files = bound is not None and bound.names_files
    numbers_lines = bound is not None and bound.numbers_lines
    if numbers_lines and fmt != "jsonl":
        raise NotMine("input_line_number of a file that is not JSON Lines")
    if fmt == "jsonl" and (not cache or _too_big_to_keep(path, fmt) or chains is None and
                           documents.as_spans(os.path.getsize(path), fmt)) and \
            not (names_files or numbers_lines):
        read = literalfacts.ReadSoFar(path, file_stamp(os.stat(path)))
        literals.append(read)
        return _json_lines(path, chains, read.record)
    hollow = bound is not None and bound.reads_columns
    doc = documents.get(path, fmt, cache, chains, hollow, bound.whole_chains if hollow else None)
    literals.append(doc.literals)
    if names_files and not (doc.line_ended or last):
        raise NotMine("a file whose last value may run into the next file")
    if numbers_lines and not doc.one_per_line:
        raise NotMine("lines that are not one value each")
    return doc.values  # the cached list itself: its columns are kept (jqlang.columns)


BATCH_SECONDS = 0.005  # a batch of results made within it may grow (to 1024)


def _batches(results: Iterator[Any]) -> Iterator[list[Any]]:
    """``results`` in lists, printed and sent a list at a time: lists grow while they are
    made quickly and shrink to one result when results come slowly, so a slow program's
    first result is not held back. What came before an error is yielded before it."""
    size = 1
    while True:
        batch: list[Any] = []
        started = time.perf_counter()
        try:
            for result in results:
                batch.append(result)
                if len(batch) >= size:
                    break
        except BaseException:
            if batch:
                yield batch
            raise
        if not batch:
            return
        yield batch
        quick = time.perf_counter() - started < BATCH_SECONDS
        size = min(size * 2, 1024) if quick else max(1, size // 2)


def _json_lines(path: str, chains: frozenset | None,
                record: Callable[[Iterable[bytes]], Iterable[bytes]]) -> Iterator[Any]:
    """Each line's value, read in blocks (a file over the budget, never kept; a reader
    that stops early), with only ``chains`` decoded (None: whole); the file is opened
    when the first value is asked for (a reader that stops early leaves none open);
    ``record`` sees the blocks as they are read (the literal facts of what was read)."""
    with open(sources.open_file(path), "rb") as handle:
        blocks = record(file_reads(handle))
        batches = projected.json_line_batches(blocks) if chains is None else \
            _projected_batches(blocks, chains)
        for batch in batches:
            runtime.check()
            yield from batch


def _projected_batches(blocks: Iterable[bytes], chains: frozenset) -> Iterator[list[Any]]:
    """:func:`.projected.json_line_batches` with only ``chains`` of each value decoded (in
    C: a ``first(...)`` that finds nothing reads the whole file at a parse's speed), but
    for the first block, read whole by orjson: an answer on an early line costs no
    projected decoder (a type built for the chains: 1.5-3 ms, more than jq's whole run)."""
    lines = projected.whole_lines(blocks)
    yield from projected.json_line_batches(itertools.islice(lines, 1))
    yield from projected.decode_blocks(lines, chains)


def _run(program, env: dict[str, Any], streams: Streams, literals: _AllLiterals,
         request: QueryRequest, sink: Sink, bound: inputbind.Bound | None) -> None:
    printer = Printer(literals, **request.layout)
    opt = program.compiled.opt  # at most one output: no iterator per input
    # Long literals compared as floats make the answer libjq's to give: until the literals
    # are known to hold none, no text leaves (the answer may still be declined).
    held = not _safe(literals)
    if held:
        sink.hold()
    try:
        names_files = bound is not None and bound.names_files
        numbers_lines = bound is not None and bound.numbers_lines
        for path, inputs in streams:
            if names_files:  # jq's text of the name's bytes (one U+FFFD an odd sequence)
                env = {**env, inputbind.FILENAME: None if path is None else
                       os.fsencode(path).decode("utf-8", "jq-string")}
            for line, value in enumerate(inputs, 1):
                if numbers_lines:
                    env = {**env, inputbind.LINE: line}
                if opt is None:
                    for batch in _batches(program.run(value, env)):
                        sink.add_many(printer.data_many(batch))
                else:
                    one = opt(value, env)
                    if one is not NOTHING:
                        sink.add(printer.data(one))
                if held and _safe(literals):
                    held = False
                    sink.release()
        runtime.check()
        if runtime.state.floats_compared and literals.long:
            raise NotMine("long number literals were compared")
    finally:
        if held:
            sink.release()


def _safe(literals: Literals) -> bool:
    """Whether the literals are known to hold no long number (learning them costs a pass:
    not done here)."""
    return literals.settled and not literals.long
