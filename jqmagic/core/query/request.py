"""One query as data: the program, its source, its ``$name`` arguments and its options,
normalised once from the friendly keywords of :func:`jqmagic.query`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from jqmagic.core import payloads, sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import (
    FORMAT_KEYS,
    SOURCE_KINDS,
    Bounds,
    JsonText,
    PrintOptions,
    Source,
    source_from,
)
from jqmagic.core.query import protocol
from jqmagic.core.settings import env_text, settings
from jqmagic.core.words import preview, term


@dataclass(frozen=True)
class RunOptions:
    """How the program runs, as jq's -s, -n, -R and jqmagic's limits set it."""

    slurp: bool = False
    null_input: bool = False
    raw_input: bool = False
    timeout: float | None = None
    library_paths: tuple[str, ...] = ()
    program_origin: str = ""  # where relative module search paths start (-f's folder)
    cache: bool = True
    parallel: int = 0  # worker processes for a per-input program over several files
    stream_eval: bool = False  # stream big JSON files even when they fit the budget
    whole_files: bool = False  # read a big file whole as jq does when no streamed form fits
    stream_events: bool = False  # jq's --stream: each input as its [path, leaf] events
    stream_errors: bool = False  # jq's --stream-errors: a bad input ends in an error event
    seq: bool = False  # jq's --seq: inputs split by RS, a bad one skipped with a message
    dask: str | bool | None = None  # a scheduler address; "" or True: current or local
    reduce: str | None = None  # with dask: a program run once on the array of every result


@dataclass(frozen=True)
class Request:
    """Everything one query needs; the stages of :func:`jqmagic.core.query.query` read it."""

    program: str
    source: Source
    args: dict[str, Any] = field(default_factory=dict)
    run: RunOptions = field(default_factory=RunOptions)
    printing: PrintOptions = field(default_factory=PrintOptions)
    bounds: Bounds = field(default_factory=Bounds)
    positional: tuple = ()  # $ARGS.positional (--args, --jsonargs)


_GROUPS = {"run": RunOptions, "printing": PrintOptions}
_BOUND_KEYS = {"limit": "max_results", "max_tokens": "max_tokens", "passthrough": "passthrough"}

_KNOWN = {*SOURCE_KINDS, *FORMAT_KEYS, *_BOUND_KEYS, "positional", "value_given",
          *(f.name for cls in _GROUPS.values() for f in fields(cls))}


def check_program(program: Any) -> None:
    """INVALID_QUERY for a program that is no text, is empty, or holds a NUL character."""
    if not isinstance(program, str) or not program.strip():
        raise JqMagicError("INVALID_QUERY", "The jq program is empty." if isinstance(
            program, str) or program is None else f"The jq program must be text, not "
            f"{type(program).__name__}.", "Give a filter; '.' returns the input unchanged.")
    if "\0" in program:  # libjq reads a C string: the program would end there, silently
        raise JqMagicError("INVALID_QUERY", f"The jq program holds a NUL character (at "
                           f"character {program.index(chr(0)) + 1:,}); jq stops reading a "
                           "program at one.", "Remove the NUL character (\\u0000) from it.")


def build(program: Any, source: Any, args: dict[str, Any] | None,
          keywords: dict[str, Any]) -> Request:
    """A :class:`Request` from :func:`query`'s arguments; INVALID_QUERY / INVALID_ARGUMENT
    for a bad program or argument, TypeError for an unknown keyword (a programming error)."""
    check_program(program)
    keywords = dict(keywords)
    unknown = set(keywords) - _KNOWN
    if unknown:
        raise TypeError(f"query() got unexpected keyword argument(s): "
                        f"{', '.join(sorted(unknown))}")
    src = source_from(source, keywords, bool(keywords.get("null_input")))
    groups: dict[str, dict[str, Any]] = {name: {} for name in _GROUPS}
    bounds: dict[str, Any] = {}
    positional = tuple(keywords.pop("positional", None) or ())
    for key, value in keywords.items():
        if key in _BOUND_KEYS:
            bounds[_BOUND_KEYS[key]] = value
            continue
        group = next(g for g, cls in _GROUPS.items() if key in _field_names(cls))
        groups[group][key] = value
    run = RunOptions(**groups["run"])
    if run.library_paths is None or isinstance(run.library_paths, list):
        run = RunOptions(**{**groups["run"], "library_paths": tuple(run.library_paths or ())})
    printing = PrintOptions(**groups["printing"])
    if not 0 <= printing.indent <= 7:
        raise JqMagicError("INVALID_ARGUMENT", f"Cannot indent by {printing.indent} "
                           "characters.", f"jq indents by 0 to 7 spaces ({term('indent')}).")
    return Request(program, src, check_args(args), run, printing, _bounds(bounds), positional)


def _bounds(given: dict[str, Any]) -> Bounds:
    """Every result unless a bound is given as a number (``limit=100``, ``max_tokens``):
    the core is complete; a face that shows results bounds them."""
    numbers = {k: v for k, v in given.items() if k != "passthrough" and v is not None}
    if given.get("passthrough") or not numbers:
        return Bounds.complete()
    return Bounds.default(**numbers)


def for_worker(request: Request, slot: payloads.PayloadRef | None) -> protocol.QueryRequest:
    """The worker's message for ``request``: every text back as it comes when complete,
    else the kept ones, the rest spilled to ``slot``."""
    run, printing = request.run, request.printing
    texts = any(isinstance(v, JsonText) for v in request.positional)  # --jsonargs literals
    return protocol.QueryRequest(
        program=request.program,
        source=protocol.SourceSpec.of(request.source),
        run=protocol.RunSpec(
            slurp=run.slurp, null_input=run.null_input, raw_input=run.raw_input,
            timeout=timeout(request), library_paths=run.library_paths,
            program_origin=run.program_origin, cache=run.cache,
            stream_eval=run.stream_eval, whole_files=run.whole_files,
            stream_events=run.stream_events,
            stream_errors=run.stream_errors, seq=run.seq),
        args={k: v for k, v in request.args.items() if not isinstance(v, JsonText)},
        json_args={k: str(v) for k, v in request.args.items() if isinstance(v, JsonText)},
        layout=printing.layout(),
        dump=protocol.Dump(printing.ascii, printing.color, env_text("JQ_COLORS") or None),
        positional=tuple(v if isinstance(v, JsonText) or not texts else json.dumps(v)
                         for v in request.positional),
        json_positional=texts,
        keep=None if request.bounds.passthrough else request.bounds.max_results,
        spill=None if slot is None else str(slot.path),
        caller=protocol.caller_settings(protocol.WORKER_SETTINGS),
    )


def timeout(request: Request) -> float | None:
    """The program's time limit: the request's (0 or less: none), else the setting."""
    given = settings.timeout if request.run.timeout is None else request.run.timeout
    if given != given:  # NaN: no comparison holds, so it would have meant no limit
        raise JqMagicError("INVALID_ARGUMENT", "The timeout is NaN, not a number of seconds.",
                           f"Give seconds with {term('timeout')} (0 or less: no limit).")
    return given if given and given > 0 else None


def _field_names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


def check_args(args: dict[str, Any] | None) -> dict[str, Any]:
    """``$name`` arguments with valid names and JSON values; INVALID_ARGUMENT otherwise."""
    if args is not None and not isinstance(args, dict):
        raise JqMagicError("INVALID_ARGUMENT", f"args must be a dict of names to values, not "
                           f"{type(args).__name__}.", "e.g. args={'user': 'ada'}.")
    for name in args or {}:  # any text, as jq binds it ($ARGS.named shows every one)
        if not isinstance(name, str):
            raise JqMagicError("INVALID_ARGUMENT", f"{preview(name)} is not a jq variable "
                               "name: names are text.", f"e.g. {term('arg', 'user_id')}.")
    checked = dict(args or {})
    sources.dumps(checked)  # fails early, with a clear message, on a non-JSON value
    return checked
