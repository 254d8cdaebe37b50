"""One query, in stages: build the request, run it in the worker (its results as they
come), gather them (bounded only when a face asks), hint."""

from __future__ import annotations

import contextlib
import glob
import inspect
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.query import failures, protocol
from jqmagic.core.query import request as requests
from jqmagic.core.query.failures import UNDEFINED_VAR
from jqmagic.core.query.result import QueryResult, bounded, parse_values
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
from jqmagic.core.shape.hints import hint_for_source


def query(program: str, source: Any = None, *,
          # the source (or ``source``): exactly one of these, none with null_input
          file: str | os.PathLike | list | None = None, text: str | bytes | None = None,
          value: Any = ..., exec: str | None = None, payload: str | None = None,
          jsonl: bool | None = None, yaml: bool | None = None, jsonc: bool | None = None,
          # the program's arguments
          args: dict[str, Any] | None = None, namespace: dict[str, Any] | None = None,
          positional: tuple | list = (),
          # running, as jq's -s -n -R --seq --stream --stream-errors -L
          slurp: bool = False, null_input: bool = False, raw_input: bool = False,
          seq: bool = False, stream_events: bool = False, stream_errors: bool = False,
          library_paths: tuple[str, ...] | list[str] = (), program_origin: str = "",
          timeout: float | None = None,
          cache: bool = True, stream_eval: bool = False, whole_files: bool = False,
          parallel: int = 0, dask: str | bool | None = None, reduce: str | None = None,
          # printing, as jq's -r -c --indent --tab -S -a -C
          raw: bool = False, compact: bool = False, indent: int = 2, tab: bool = False,
          sort_keys: bool = False, ascii: bool = False, color: bool = False,
          # a face's bound (none: every result)
          limit: int | None = None, max_tokens: int | None = None, passthrough: bool = False,
          value_given: bool = False) -> QueryResult:
    """Run the jq ``program`` over exactly one source, as the jq command line would, and
    gather every result.

    Sources: a positional ``source`` (path, glob, list of paths, JSON text, bytes or an
    open file read as a file's text, or a Python value), or one of ``file=``, ``text=``
    (str or bytes), ``value=`` (``value=None`` is null), ``exec=`` (a shell command's stdout) or
    ``payload=`` (a stored result's id); none with
    ``null_input=True``; ``jsonl``/``yaml``/``jsonc`` force a format (default: by suffix).
    ``args`` binds ``$name`` to JSON values (``--arg`` / ``--argjson``); a ``$name`` left
    unbound is looked up in ``namespace``; ``positional`` is ``$ARGS.positional``.

    Running: jq's ``slurp``, ``null_input``, ``raw_input``, ``seq``, ``stream_events``
    (--stream), ``stream_errors``, ``library_paths`` (-L), ``program_origin`` (where
    relative module ``search`` paths start: jq's -f file's folder); ``timeout`` in
    seconds (None: the setting, 0: none); ``cache`` (keep parsed files for later queries);
    ``stream_eval`` (stream a big JSON file in one pass), ``whole_files`` (read a file
    over the budget whole, as jq does, where no streamed form answers); ``parallel`` (N
    workers over many files), ``dask`` (a cluster's address, True: local) and ``reduce``
    (a program over every result, as -s). Printing: jq's ``raw``, ``compact``,
    ``indent``, ``tab``, ``sort_keys``, ``ascii``, ``color``.

    ``.values`` holds every result (TOO_LARGE past ``settings.result_bytes`` of text:
    :func:`query_iter` streams them instead). A face that shows results bounds them:
    ``limit=N`` and ``max_tokens=N`` keep the first N results and about N tokens, the
    whole output going to the payload store, and the result says where
    (``passthrough=True``: no bound). ``value_given`` is ignored (it once meant
    ``value=None``).

    Every query runs in a supervised worker process (the fast path on cached parsed
    trees, else libjq): a runaway or out-of-memory program costs that worker, never the
    caller.

    >>> query(".a", text='{"a": 1234567890123456789}').values
    [1234567890123456789]
    >>> len(query(".[]", value=list(range(1000))).values)
    1000
    """
    options = _given(locals())
    started = time.perf_counter()
    request = _bind_namespace(requests.build(program, source, args, options), namespace)
    slot = None if request.bounds.passthrough else payloads.reserve()
    try:
        end, texts = _gathered(request, slot, namespace)
    except JqMagicError:  # stopped, interrupted or crashed: no partial payload stays behind
        if slot is not None:
            payloads.release(slot)
        raise
    return _result(request, end, texts, slot, started)


def preview(program: str, source: Any = None, *, limit: int, **options: Any) -> QueryResult:
    """:func:`query` (which names every keyword ``options`` takes) bounded to its first
    ``limit`` results, the others counted and dropped: nothing goes to the payload store,
    so a preview redrawn as keys come writes nothing."""
    started = time.perf_counter()
    request = requests.build(program, source, None, {**options, "limit": limit})
    end, texts = _gathered(request, None, None)
    return _result(request, end, texts, None, started)


def query_iter(program: str, source: Any = None, *, args: dict[str, Any] | None = None,
               namespace: dict[str, Any] | None = None, **options: Any) -> Iterator[Any]:
    """The values of :func:`query` (which names every keyword ``options`` takes), yielded
    as the worker produces them: for outputs bigger than memory; stop early by closing the
    iterator or breaking out of the loop.
    An error is raised after the values that came before it, as jq prints them; Ctrl-C
    while the iterator works stops the run and raises INTERRUPTED, as :func:`query` does
    (one that lands in the loop's own body is that body's KeyboardInterrupt).

    >>> next(query_iter("range(1e9)", null_input=True))
    0
    """
    try:
        with open_results(program, source, args=args, namespace=namespace, **options) as run:
            for text in run.texts():
                yield parse_values([text])[0]
    except KeyboardInterrupt:  # the block's end stopped the run
        raise JqMagicError("INTERRUPTED", "The jq program was interrupted.",
                           "Its run was stopped; the worker goes on.") from None


@contextlib.contextmanager
def open_results(program: str, source: Any = None, *, args: dict[str, Any] | None = None,
                 namespace: dict[str, Any] | None = None,
                 **options: Any) -> Iterator[Results]:
    """A query's :class:`Results` as they come (the command line prints them so); the run
    stops when the block ends."""
    request = _bind_namespace(requests.build(program, source, args, options), namespace)
    run = Results(request, namespace)
    try:
        yield run
    finally:
        run.close()


class Results:
    """One query's result texts, read as the worker sends them; :attr:`end` says how it
    ended once :meth:`texts` is done (its error raised there, after what came before)."""

    def __init__(self, request: requests.Request, namespace: dict[str, Any] | None):
        self.request, self._namespace = request, namespace
        self.end: protocol.End | None = None
        self._replies: Iterator[protocol.Chunk | protocol.End] | None = None

    def texts(self) -> Iterator[str]:
        for chunk in self.chunks():
            yield from (t.decode("utf-8", "surrogatepass") for t in chunk.texts)

    def chunks(self) -> Iterator[protocol.Chunk]:
        """The texts as UTF-8, a chunk of the worker's at a time (a printer writes each
        chunk in one call)."""
        if self.request.run.dask is not None or self.request.run.reduce or \
                self.request.run.parallel:
            self.end, texts = _gathered(self.request, None, self._namespace)
            yield protocol.Chunk(list(texts))
        else:
            self._replies = _replies(self.request, None, self._namespace)
            for reply in self._replies:
                if isinstance(reply, protocol.End):
                    self.end = reply
                else:
                    yield reply
        if self.end is not None and self.end.error:
            raise JqMagicError.from_wire(self.end.error)

    def close(self) -> None:
        """Stop the run if it still goes on (the worker stops at its next chunk)."""
        if self._replies is not None and hasattr(self._replies, "close"):
            self._replies.close()


def _gathered(request: requests.Request, slot: payloads.PayloadRef | None,
              namespace: dict[str, Any] | None) -> tuple[protocol.End, list[bytes]]:
    """Every text of a run (the kept ones, when bounded) and its end; TOO_LARGE when a
    complete run's texts pass ``settings.result_bytes``."""
    if request.run.dask is not None or request.run.reduce:
        from jqmagic.core.query.fanout import cluster as daskrun  # imported by the runs that use it

        return daskrun.run(request, slot)
    if request.run.parallel:
        from jqmagic.core.query.fanout import parallel

        return parallel.run(request, slot)
    texts: list[bytes] = []
    size, budget = 0, settings.result_bytes
    replies = _replies(request, slot, namespace)
    try:
        for reply in replies:
            if isinstance(reply, protocol.End):
                return reply, texts
            texts.extend(reply.texts)
            size += sum(map(len, reply.texts))
            if size > budget:
                raise _too_many_bytes(size, budget)
    finally:
        replies.close()
    raise AssertionError("a reply always ends")  # pragma: no cover


def _too_many_bytes(size: int, budget: int) -> JqMagicError:
    return JqMagicError(
        "TOO_LARGE", f"The results passed {budget / 2**20:,.0f} MB of text ({size:,} bytes "
        "so far) and were not all kept in memory.",
        "Stream them with jqmagic.query_iter(...) (or the command line into a file), keep "
        "a bounded part with limit=N, or select less.")


def _replies(request: requests.Request, slot: payloads.PayloadRef | None,
             namespace: dict[str, Any] | None) -> Iterator[protocol.Chunk | protocol.End]:
    """The worker's replies to ``request``; ``$name``s jq reports undefined are bound from
    ``namespace`` and the request asked again (before any result came)."""
    worker = shared_worker()
    while True:
        replies = worker.ask(requests.for_worker(request, slot), requests.timeout(request))
        first = next(replies)
        if isinstance(first, protocol.End) and first.error and namespace:
            retry = _with_namespace(request, first.error, namespace)
            if retry is not None:
                request = retry
                continue
        yield first
        yield from replies
        return


def _with_namespace(request: requests.Request, error: dict[str, Any],
                    namespace: dict[str, Any]) -> requests.Request | None:
    """``request`` with the ``$name``s an INVALID_QUERY says are undefined bound from
    ``namespace``; None when it does not hold them all."""
    if error["code"] != "INVALID_QUERY":
        return None
    missing = set(UNDEFINED_VAR.findall(error["message"] + error.get("hint", "")))
    missing -= set(request.args)
    found = {name: namespace[name] for name in missing if name in namespace}
    return _with_args(request, found) if found and len(found) == len(missing) else None


def _result(request: requests.Request, end: protocol.End, texts: list[bytes],
            slot: payloads.PayloadRef | None, started: float) -> QueryResult:
    """The :class:`QueryResult` of a finished run (its error raised, holding the result of
    what came before it, as jq prints it)."""
    decoded = [t.decode("utf-8", "surrogatepass") for t in texts]
    spilled = payloads.settle(slot) if end.spilled and slot is not None else None
    result = bounded(request.program, decoded, end, request.printing.raw, request.bounds,
                     spilled, _several_inputs(request))
    result.elapsed = time.perf_counter() - started
    error = JqMagicError.from_wire(end.error) if end.error else None
    if request.source.kind not in ("exec", "null"):
        _add_shape_hint(result, error, request)
    if error is not None:
        error.result = result  # what the program printed before it failed, as jq shows it
        raise error
    return result


_PARAMETERS = inspect.signature(query).parameters
_OPTIONS = {name: p.default for name, p in _PARAMETERS.items()
            if p.kind is p.KEYWORD_ONLY and name not in ("args", "namespace")}


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """The options a call of :func:`query` gave (those left at their default stay out)."""
    return {name: arguments[name] for name, default in _OPTIONS.items()
            if arguments[name] is not default}


def _bind_namespace(request: requests.Request,
                    namespace: dict[str, Any] | None) -> requests.Request:
    """Bind the ``$name``s the program uses and ``args`` lacks from ``namespace``."""
    if not namespace:
        return request
    from jqmagic.core import jqlang  # the caller parses programs only to bind a namespace

    found = {name: namespace[name] for name in jqlang.variables(request.program)
             if name not in request.args and name in namespace}
    return _with_args(request, found) if found else request


def _with_args(request: requests.Request, found: dict[str, Any]) -> requests.Request:
    return replace(request, args={**request.args, **requests.check_args(found)})


def clear_cache() -> None:
    """Forget every parsed document kept for later queries (frees the worker's memory)."""
    shared_worker().clear_cache()


def _several_inputs(request: requests.Request) -> bool:
    """Whether the program runs on several inputs in turn (JSON Lines, a YAML stream,
    several files or a payload of results), so that slicing its results takes them all."""
    source, run = request.source, request.run
    if run.slurp or run.null_input:
        return False
    if source.kind == "payload":
        return True
    if source.kind == "file":
        specs = source.spec if isinstance(source.spec, list) else [source.spec]
        return len(specs) > 1 or any(glob.has_magic(s) or source.formats.for_path(s) in
                                     ("jsonl", "yaml") for s in specs)
    return source.formats.for_text() in ("jsonl", "yaml")


def _add_shape_hint(result: QueryResult, error: JqMagicError | None,
                    request: requests.Request) -> None:
    """Say what is there when a path fails, finds nothing or finds only nulls."""
    source, slurp = request.source, request.run.slurp
    if request.run.null_input:  # the program reads its inputs itself: no shape to go by
        return
    if source.kind == "payload":
        source = Source("file", str(payloads.find(source.spec).path))
    if error is not None and error.code == "QUERY_ERROR":
        if not failures.about_types(error.message):  # the program's own error("...")
            return
        hint = _hint(result.program, source, slurp=slurp, error=error.message)
        if hint:
            error.hint = hint
        return
    only_nulls = result.values and all(v is None for v in result.values)
    if error is None and (result.total == 0 or only_nulls):
        hint = _hint(result.program, source, slurp=slurp, results=result.values)
        if hint:
            said = result.message.rstrip(".")
            result.message = (f"{said}. " if said else "") + f"Hint: {hint}"


def _hint(program: str, source: Source, **options: Any) -> str:
    """The shape hint, read in the worker (a Python value's here: it is in memory
    already); none when the worker cannot give one (a hint never fails a query)."""
    if source.kind == "value":
        return hint_for_source(program, source, **options)
    try:
        return shared_worker().call("hint", None, program=program, source=source.to_wire(),
                                    **options)
    except JqMagicError:
        return ""
