"""``jqmagic query`` as a drop-in for the jq 1.8.2 command line: jq's flags, output forms
and exit statuses over :func:`jqmagic.query` (jqmagic's bounds stay on unless ``--all``)."""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
from typing import Any

from jqmagic import flags, jqargs
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Bounds

JQ_VERSION = "jq-1.8.2"
# jq's exit statuses by error code: 2 usage and system, 3 compile, 5 runtime.
READS_INPUTS = re.compile(r"\binputs?\b")
EXIT_STATUS = {"INVALID_QUERY": 3, "QUERY_ERROR": 5, "TIMEOUT": 5, "TOO_LARGE": 5,
               "INVALID_JSON": 5, "INVALID_YAML": 5, "INTERRUPTED": 130}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``jqmagic query``: jq's, from the option table."""
    parser.add_argument("filter", nargs="?", help="the jq program (or, with -f, an input)")
    parser.add_argument("files", nargs="*", help="input files or globs (default: stdin); "
                        "with --args / --jsonargs, positional arguments")
    flags.add_to_parser(parser, flags.QUERY + flags.SOURCE + flags.JQ_CLI, flags.CLI)


def exit_status(exc: JqMagicError) -> int:
    """jq's exit status for an error: halt_error's own, else by kind."""
    if exc.exit_code is not None:
        return exc.exit_code
    return EXIT_STATUS.get(exc.code, 2)


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``jqmagic query``'s words read as jq reads them (see :mod:`jqmagic.jqargs`)."""
    words = jqargs.split(parser, argv)
    args = parser.parse_args(words.options)
    args.filter, args.files, args.positional = words.program, words.files, words.positional
    args.from_file = None
    if words.from_file:  # -f: the program word names the program's file
        if words.program is None:
            raise JqMagicError("INVALID_ARGUMENT", "-f names no program file.",
                               "e.g. jqmagic query -f program.jq data.json")
        args.from_file, args.filter = words.program, None
    if words.layout == "compact":
        args.tab = False
    elif words.layout == "tab":
        args.compact = False
    elif words.layout == "indent":
        args.compact, args.tab = False, args.indent == -1
        args.indent = 2 if args.indent == -1 else args.indent
    return args


def run(args: argparse.Namespace) -> int:
    """``jqmagic query``: run, print as jq prints, exit as jq exits."""
    from jqmagic.core.query import query
    from jqmagic.core.query.worker import shared_worker

    if args.version:
        print(JQ_VERSION)
        return 0
    shared_worker().warm()
    program = _program(args)
    if args.in_place:
        lines, ok = flags.edit_in_place(program, args.files, args.dry_run)
        print("\n".join(lines))
        return 0 if ok else 5
    files, unreadable = _readable(args.files)
    source = flags.named_source(args, files)
    if unreadable and not source:
        source = {"text": ""}  # jq goes on with no input at all
    elif not source and (not args.null_input or READS_INPUTS.search(program)):
        source = {"text": sys.stdin.read()}  # -n too, when input or inputs read stdin
    elif source.get("file") == "-" or source.get("file") == ["-"] * len(files):
        source = {"text": sys.stdin.read()}  # "-" names stdin, as in jq
    keywords = {**flags.query_keywords(args), **source, "positional": args.positional,
                "color": _colour(args), "seq": args.seq}
    try:
        named = _named_args(args)
    except JqMagicError as exc:  # a bad --argjson / --slurpfile is a usage error to jq
        exc.exit_code = 2
        raise
    try:
        result = query(program, args=named, **keywords)
    except JqMagicError as exc:
        if unreadable:  # jq's status when a file could not be read, whatever came after
            exc.exit_code = 2
        if exc.result is not None:
            _print_results(exc.result, args)  # what jq printed before the error, as jq does
        raise
    for message in result.messages:
        print(message, file=sys.stderr)
    _print_results(result, args)
    if result.message and not unreadable:  # jqmagic's line: truncated, or no results
        more = " Use --all to print everything." if result.truncated else ""
        print(result.message + more, file=sys.stderr)
    return 2 if unreadable else _status(result, args)


def _program(args: argparse.Namespace) -> str:
    """The program text: -f's file, the filter, or jq's "." when no filter is given and
    the input or the output is not a terminal."""
    if args.from_file is not None:
        return _read(args.from_file, "-f")
    if args.filter is not None:
        return args.filter
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return "."
    raise JqMagicError("INVALID_ARGUMENT", "No jq program given.",
                       "Give a filter, e.g. jqmagic query '.' data.json (try '.').")


def _readable(files: list[str]) -> tuple[list[str], bool]:
    """The files that can be read; each missing one is reported in jqmagic's words (code,
    jq's sentence, the core's hint) and, as in jq, the others are still read. Any other
    refusal stops the run."""
    from jqmagic.core.sources.files import resolve_files

    kept, missing = [], False
    for name in files:
        try:
            if name != "-" and not glob.has_magic(name):
                resolve_files(name)
        except JqMagicError as exc:
            if exc.code != "NOT_FOUND":
                raise
            missing = True
            print(f"error NOT_FOUND: Could not open file {name}: No such file or directory\n"
                  f"hint: {exc.to_dict('terminal').get('hint', '')}", file=sys.stderr)
            continue
        kept.append(name)
    return kept, missing


def _named_args(args: argparse.Namespace) -> dict[str, Any]:
    named = flags.jq_args(args)
    for name, path in args.rawfile:
        named[name] = _read(path, "--rawfile")
    for name, path in args.slurpfile:
        from jqmagic.core.sources import parse_json

        named[name] = parse_json(_read(path, "--slurpfile"), path)
    return named


def _read(path: str, flag: str) -> str:
    try:
        with open(os.path.expanduser(path), encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"{flag} {path}: {exc.strerror or exc}.",
                           "Check the path.") from exc


def _colour(args: argparse.Namespace) -> bool:
    """jq's rule: -C colours, -M never; else colour a terminal unless NO_COLOR is set."""
    if args.monochrome:
        return False
    return args.color or (sys.stdout.isatty() and not os.environ.get("NO_COLOR"))


def _print_results(result: Any, args: argparse.Namespace) -> None:
    """Each result as jq's main.c prints it: a raw string as it is (-r, -j,
    --raw-output0; as ASCII JSON with -a), anything else as JSON after --seq's RS."""
    raw = args.raw or args.join or args.raw0
    out = sys.stdout
    budget = None if args.passthrough else Bounds.default().max_chars
    for value, text in zip(result.values, result.printed, strict=True):
        if budget is not None:  # whole values only, within the bound; the rest is said
            budget -= len(text)
            if budget < 0:
                break
        if raw and isinstance(value, str):
            if args.raw0 and "\0" in value and not args.ascii:
                raise JqMagicError("QUERY_ERROR", "Cannot dump a string containing NUL with "
                                   "--raw-output0 option",
                                   "Remove the NUL (sub(\"\\u0000\"; \"\")).")
            shown = _ascii_json(value) if args.ascii else value
        else:
            shown = "\x1e" + text if args.seq else text
        out.write(shown + ("" if args.join or args.raw0 else "\n") + ("\0" if args.raw0 else ""))
        if args.unbuffered:
            out.flush()
    out.flush()


def _ascii_json(text: str) -> str:
    """A string as jq's JV_PRINT_ASCII dumps it (DEL escaped too)."""
    return json.dumps(text).replace("\x7f", "\\u007f")


def _status(result: Any, args: argparse.Namespace) -> int:
    """-e: 1 when the last result is false or null, 4 when there was none (a program that
    stopped itself with halt exits 0, as jq's)."""
    if not args.exit_status or result.halted:
        return 0
    if not result.total:
        return 4
    last = result.values[-1] if result.values else None
    return 1 if last is None or last is False else 0
