"""``jqmagic query`` in this process, as the jq command line runs: where the user asked for
no clock (``--timeout``), no wall (the sandbox), no bounded view and nothing jqmagic adds
to jq (YAML, JSONC, globs, ``--parallel``...), libjq runs here through
:mod:`jqmagic.core.query.mainloop`, reading standard input as it arrives. Everything
else goes to the supervised worker (:mod:`jqmagic.cli.jqcli`)."""

from __future__ import annotations

import os
import sys

from jqmagic.core.jsonarg import JsonText
from jqmagic.core.query.jqdefs import LIBJQ_RESIDENT_PER_BYTE
from jqmagic.core.settings import sandboxed, settings

TYPE_CHECKING = False  # typing costs every command's start-up (it imports re): not imported
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.query.streaming.forms import Plan

_CONVERTED = (".yaml", ".yml", ".jsonc")  # read by jqmagic's own readers, in the worker
_LINES = (".jsonl", ".ndjson")  # values one a line: libjq holds one at a time, as jq does
_JQMAGIC_ONLY = ("timeout", "limit", "parallel", "dask", "reduce", "stream_eval", "explain",
                 "text", "exec", "payload", "jsonl", "yaml", "jsonc")
_WHOLE_INPUTS = ("slurp", "null_input", "raw_input", "stream_events", "stream_errors", "seq")
def runs_here(args: argparse.Namespace, source: dict[str, Any], bounded: bool,
              program: str = "") -> bool:
    """Whether this command line is one jq itself would run, so libjq runs it here: not
    when its file is big (libjq's parse would not fit comfortably, or it is past
    :data:`STREAM_FROM`), the program streams and the file's one document streams exactly
    (:func:`route`), which the worker answers in one pass, in bounded memory. A file past
    the document budget goes to the worker too, unless it holds many documents, each of
    which fits (libjq holds one at a time, as jq does)."""
    from jqmagic.core.query import mainloop

    if bounded or not mainloop.available() or sandboxed() or not _binary_streams():
        return False
    if any(getattr(args, name, None) not in (None, False) for name in _JQMAGIC_ONLY):
        return False
    if set(source) - {"file"}:
        return False
    size = _plain_size(args.files)
    if size is None:
        return False
    way = route(args, program)
    return way == "here" or (way == "whole" and size <= settings.doc_cache_bytes)


STREAM_FROM = 64 << 20
"""Bytes of JSON from which a program that streams goes to the worker's streaming pass
even when libjq's parse would fit. On 100 MB (bench/small.py --forms, plain install) the
pass is as fast as libjq here or faster, in 26-28 MB, not 1.3-1.4 GB: ``-c '.[]'`` 6.0 s
against 6.0 s (jq 1.8.2 5.0 s), ``[.[] | select(..)] | length`` 3.8 s against 5.7 s,
``length`` 1.3 s against 3.9 s, ``first(.[])`` 0.5 s against 3.7 s (the file's scan,
:mod:`~jqmagic.core.query.streaming.documents`, included: about 0.25 s of CPU). Below,
the worker's start (about 0.3 s) costs more than it saves (10 MB: 0.99 s against 0.67 s)."""


def streams_in_worker(args: argparse.Namespace, program: str) -> bool:
    """Whether the worker answers in one streaming pass (the command asks it with
    ``stream_eval``): see :func:`route`."""
    return route(args, program) == "stream"


def route(args: argparse.Namespace, program: str) -> str:
    """How a big file meets a program: ``"stream"``, the worker's one pass (the file is
    big: libjq's parse would not fit comfortably, or it passes :data:`STREAM_FROM`; the
    program streams; the file holds one array or object that jq's parser takes, as
    :mod:`~jqmagic.core.query.streaming.documents` vouches), ``"here"`` (libjq here, one
    document at a time: a big file of many documents, each of which fits) or ``"whole"``
    (read whole, as jq reads it: here within the budget, else by the worker). TOO_LARGE
    past the budget where a streaming program cannot stream exactly."""
    size = _plain_size(args.files)
    big = size is not None and (size >= STREAM_FROM or
                                size * LIBJQ_RESIDENT_PER_BYTE > settings.doc_cache_bytes)
    shape = _shape(program, args) if big else None
    if shape is None:
        return "whole"
    from jqmagic.core.query.streaming import documents

    found = documents.of_files(args.files, len(shape.path) + 1)
    if found is None or found.streams:  # (no scan built: streamed, as before)
        return "stream"
    if found.biggest * LIBJQ_RESIDENT_PER_BYTE <= settings.doc_cache_bytes and \
            found.documents > 1:
        return "here"
    if size <= settings.doc_cache_bytes:
        return "whole"
    raise found.too_large(size)


def _shape(program: str, args: argparse.Namespace) -> Plan | None:
    """How the worker would answer ``program`` over the files in one streaming pass (each
    file's one document read as it comes), or None when it would not."""
    if any(getattr(args, name, None) for name in _WHOLE_INPUTS):
        return None
    from jqmagic.core.query.streaming.forms import plan

    return plan(program)


def _binary_streams() -> bool:
    """Whether the standard streams take bytes (a caller's StringIO does not)."""
    return all(hasattr(stream, "buffer") for stream in (sys.stdin, sys.stdout, sys.stderr))


def _plain_size(names: list[str]) -> int | None:
    """The bytes of the JSON documents among files jq reads as they are (JSON Lines, whose
    values libjq holds one at a time, count nothing); None for a glob or a format jqmagic
    converts, which the worker reads. A one-off command gains nothing from the worker's
    caches, and libjq parses and prints a file in half the time of orjson, jq in Python
    and the pipe between."""
    total = 0
    for name in names:
        if name == "-":
            continue
        if (has_magic(name) and not os.path.lexists(name)) or name.lower().endswith(_CONVERTED):
            return None
        if name.lower().endswith(_LINES):
            continue
        try:
            total += os.stat(os.path.expanduser(name)).st_size
        except OSError:  # libjq says so when it comes to it, and reads on, as jq does
            continue
    return total


def has_magic(name: str) -> bool:
    """``glob.has_magic`` (glob imports re: not at start-up)."""
    return any(mark in name for mark in "*?[")


def run(program: str, args: argparse.Namespace, files: list[str], named: dict[str, Any],
        positional: list, color: bool) -> int:
    """Run the command line here; jq's exit status."""
    from jqmagic.core.query import jqdefs, mainloop

    spec = mainloop.MainRun(
        program=program,
        files=[os.path.expanduser(f) for f in files] or ["-"],
        args={k: jqdefs.RawJson(v) if isinstance(v, JsonText) else v for k, v in named.items()},
        positional=positional,
        library_paths=args.library_paths or None,
        program_origin=os.path.dirname(args.from_file) if args.from_file else None,
        disasm=args.disasm, trace=args.trace,
        null_input=bool(args.null_input), slurp=bool(args.slurp),
        raw_input=bool(args.raw_input), parse_flags=_parse_flags(args),
        dump_flags=jqdefs.dump_flags(indent=args.indent, compact=args.compact,
                                     sort_keys=bool(args.sort_keys), ascii=bool(args.ascii),
                                     tab=args.tab, color=color),  # $JQ_COLORS: jqcli's
        options=_options(args), exit_status=bool(args.exit_status),
        stdin=None if _fd(sys.stdin) == 0 else sys.stdin.buffer,
        out_fd=1 if _fd(sys.stdout) == 1 else None)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = _as_jq_ends() if _fd(sys.stdout) == 1 else {}
    try:
        return mainloop.run(spec, sys.stdout.buffer, sys.stderr.buffer, report)
    finally:
        _restore(saved)


def _parse_flags(args: argparse.Namespace) -> int:
    from jqmagic.core.query import jqdefs

    return (jqdefs.PARSE_STREAMING if args.stream_events or args.stream_errors else 0) | \
        (jqdefs.PARSE_STREAM_ERRORS if args.stream_errors else 0) | \
        (jqdefs.PARSE_SEQ if args.seq else 0)


def _options(args: argparse.Namespace) -> int:
    """main.c's output options from the flags."""
    from jqmagic.core.query import mainloop as m

    raw = args.raw or args.join or args.raw0
    return (m.RAW_OUTPUT if raw else 0) | (m.RAW_NO_LF if args.join or args.raw0 else 0) | \
        (m.RAW_OUTPUT0 if args.raw0 else 0) | (m.ASCII_OUTPUT if args.ascii else 0) | \
        (m.SEQ if args.seq else 0) | (m.UNBUFFERED if args.unbuffered else 0)


def report(exc: JqMagicError) -> None:
    """An error said as the command line says every error."""
    print(f"error {exc.render('terminal')}", file=sys.stderr, flush=True)


def _fd(stream: Any) -> int | None:
    """The descriptor under a standard stream, or None for one of a caller's (a test's)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _as_jq_ends() -> dict:
    """Ctrl-C and a closed pipe end the command at once, as they end jq (libjq holds no
    Python frame for a signal to be raised in): the handlers they replace, for
    :func:`_restore` (a caller's own process keeps its handlers: not called).
    ``_signal`` is ``signal`` without its enums (enum costs a command's start-up)."""
    import _signal

    return {sig: _signal.signal(sig, _signal.SIG_DFL) for sig in (_signal.SIGINT,
                                                                   _signal.SIGPIPE)}


def _restore(saved: dict) -> None:
    import _signal

    for sig, handler in saved.items():
        _signal.signal(sig, handler)
