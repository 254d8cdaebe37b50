"""One query, in stages: build the request, run it in the worker, bound the result, hint."""

from __future__ import annotations

import glob
import time
from dataclasses import replace
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.query import outgoing
from jqmagic.core.query import request as requests
from jqmagic.core.query.failures import UNDEFINED_VAR
from jqmagic.core.query.result import QueryResult, bounded, split
from jqmagic.core.query.worker import shared_worker


def query(program: str, source: Any = None, *, args: dict[str, Any] | None = None,
          namespace: dict[str, Any] | None = None, **options: Any) -> QueryResult:
    """Run the jq ``program`` over exactly one source, as the jq command line would.

    Sources: a positional ``source`` (path, glob, list of paths, JSON text or a Python
    value), or one of ``file=``, ``text=``, ``value=`` (``value=None`` is null), ``exec=``
    (a shell command's stdout) or ``payload=`` (a stored result's id); none with
    ``null_input=True``. ``args`` binds ``$name`` to JSON values (``--arg`` /
    ``--argjson``); a ``$name`` left unbound is looked up in ``namespace``.

    Options: ``raw``, ``compact``, ``indent``, ``tab``, ``sort_keys`` (printing);
    ``slurp``, ``null_input``, ``raw_input``, ``timeout``, ``library_paths``, ``cache``
    (running); ``jsonl``, ``yaml``, ``jsonc`` (forcing a format); ``limit``,
    ``max_tokens``, ``passthrough`` (bounds: at most ``limit`` results, default 100, and
    about ``max_tokens`` tokens are kept unless ``passthrough``; the rest is saved in the
    payload store and the result says where).

    Every query runs in a supervised worker process (the fast path on cached parsed
    trees, else libjq): a runaway or out-of-memory program costs that worker, never the
    caller.

    >>> query(".a", text='{"a": 1234567890123456789}').values
    [1234567890123456789]
    """
    started = time.perf_counter()
    request = requests.build(program, source, args, options)
    request = _bind_namespace(request, namespace)
    slot = None if request.bounds.passthrough else payloads.reserve()
    try:
        if request.run.dask is not None or request.run.reduce:
            from jqmagic.core.query import daskrun  # imported by the runs that use it

            header, body = daskrun.run(request, slot)
        elif request.run.parallel:
            from jqmagic.core.query import parallel

            header, body = parallel.run(request, slot)
        else:
            header, body = _run(request, slot, namespace)
    except JqMagicError:  # stopped, interrupted or crashed: no partial payload stays behind
        if slot is not None:
            payloads.release(slot)
        raise
    texts = split(body, header["sizes"])
    spilled = payloads.settle(slot) if header["spilled"] else None
    result = bounded(request.program, texts, header, request.printing.raw, request.bounds,
                     spilled, _several_inputs(request))
    result.elapsed = time.perf_counter() - started
    error = JqMagicError.from_wire(header["error"]) if header["error"] else None
    if request.source.kind not in ("exec", "null"):
        _add_shape_hint(result, error, request)
    if error is not None:
        error.result = result  # what the program printed before it failed, as jq shows it
        raise error
    return result


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


def _run(request: requests.Request, slot: payloads.PayloadRef | None,
         namespace: dict[str, Any] | None) -> tuple[dict, bytes]:
    """Ask the worker; bind ``$name``s jq reports undefined from ``namespace`` and retry."""
    worker = shared_worker()
    while True:
        header, body = worker.request(outgoing.message(request, slot), outgoing.timeout(request))
        error = header["error"]
        if not error or error["code"] != "INVALID_QUERY" or not namespace:
            return header, body
        missing = set(UNDEFINED_VAR.findall(error["message"] + error.get("hint", "")))
        found = {name: namespace[name] for name in missing - set(request.args)
                 if name in namespace}
        if not found or len(found) < len(missing - set(request.args)):
            return header, body
        request = _with_args(request, found)


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
    from jqmagic.core.shape.hints import hint_for_source  # only a failed query reads shapes

    source, slurp = request.source, request.run.slurp
    if request.run.null_input:  # the program reads its inputs itself: no shape to go by
        return
    if source.kind == "payload":
        source = Source("file", str(payloads.find(source.spec).path))
    if error is not None and error.code == "QUERY_ERROR":
        hint = hint_for_source(result.program, source, slurp=slurp, error=error.message)
        if hint:
            error.hint = hint
        return
    only_nulls = result.values and all(v is None for v in result.values)
    if error is None and (result.total == 0 or only_nulls):
        hint = hint_for_source(result.program, source, slurp=slurp, results=result.values)
        if hint:
            result.message = (f"{result.message}. " if result.message else "") + f"Hint: {hint}"
