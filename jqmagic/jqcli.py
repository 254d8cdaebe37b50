"""``jqmagic query`` as a drop-in for the jq 1.8.2 command line: jq's flags, output forms
and exit statuses over :func:`jqmagic.query` (jqmagic's bounds stay on unless ``--all``)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

from jqmagic import flags
from jqmagic.core.errors import JqMagicError

JQ_VERSION = "jq-1.8.2"
# jq's exit statuses by error code: 2 usage and system, 3 compile, 5 runtime.
READS_INPUTS = re.compile(r"\binputs?\b")
EXIT_STATUS = {"INVALID_QUERY": 3, "QUERY_ERROR": 5, "TIMEOUT": 5, "TOO_LARGE": 5,
               "INTERRUPTED": 130}


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


def run(args: argparse.Namespace) -> int:
    """``jqmagic query``: run, print as jq prints, exit as jq exits."""
    from jqmagic.core.query import query

    if args.version:
        print(JQ_VERSION)
        return 0
    program, words = _program(args)
    if args.in_place:
        lines, ok = flags.edit_in_place(program, words, args.dry_run)
        print("\n".join(lines))
        return 0 if ok else 5
    positional, words = _positional(args, words)
    source = flags.named_source(args, words)
    if not source and (not args.null_input or READS_INPUTS.search(program)):
        source = {"text": sys.stdin.read()}  # -n too, when input or inputs read stdin
    keywords = {**flags.query_keywords(args), **source, "positional": positional,
                "color": _colour(args)}
    try:
        result = query(program, args=_named_args(args), **keywords)
    except JqMagicError as exc:
        if exc.result is not None:
            _print_results(exc.result, args)  # what jq printed before the error, as jq does
        raise
    for message in result.messages:
        print(message, file=sys.stderr)
    _print_results(result, args)
    if result.message:
        more = " Use --all to print everything." if result.truncated else ""
        print(result.message + more, file=sys.stderr)
    return _status(result, args)


def _program(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The program text and the remaining words (with -f the filter slot is an input)."""
    words = list(args.files)
    if args.from_file is not None:
        if args.filter is not None:
            words.insert(0, args.filter)
        return _read(args.from_file, "-f"), words
    if args.filter is None:
        raise JqMagicError("INVALID_ARGUMENT", "No jq program given.",
                           "Give a filter, e.g. jqmagic query '.' data.json (try '.').")
    return args.filter, words


def _positional(args: argparse.Namespace, words: list[str]) -> tuple[list[Any], list[str]]:
    """$ARGS.positional from --args / --jsonargs (the words after the filter), and the
    words left as inputs."""
    if args.positional_json:
        return [_json(word, "--jsonargs") for word in words], []
    if args.positional_args:
        return list(words), []
    return [], words


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


def _json(text: str, flag: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise JqMagicError("INVALID_JSON", f"{flag}: {text[:40]!r} is not JSON: {exc.msg}.",
                           "Give JSON text, e.g. --jsonargs 1 '\"a\"' '[2]'.") from None


def _colour(args: argparse.Namespace) -> bool:
    """jq's rule: -C colours, -M never; else colour a terminal unless NO_COLOR is set."""
    if args.monochrome:
        return False
    return args.color or (sys.stdout.isatty() and not os.environ.get("NO_COLOR"))


def _print_results(result: Any, args: argparse.Namespace) -> None:
    """Each result as jq prints it: -r, -j, --raw-output0, --seq."""
    raw = args.raw or args.join or args.raw0
    out = sys.stdout
    for value, text in zip(result.values, result.printed, strict=True):
        shown = value if raw and isinstance(value, str) else text
        if args.seq:
            out.write("\x1e")
        if args.raw0 and isinstance(value, str) and "\0" in value:
            raise JqMagicError("QUERY_ERROR", "Cannot dump a string containing NUL with "
                               "--raw-output0 option", "Remove the NUL (sub(\"\\u0000\"; \"\")).")
        out.write(shown + ("\0" if args.raw0 else "" if args.join else "\n"))
        if args.unbuffered:
            out.flush()
    out.flush()


def _status(result: Any, args: argparse.Namespace) -> int:
    """-e: 1 when the last result is false or null, 4 when there was none."""
    if not args.exit_status:
        return 0
    if not result.total:
        return 4
    last = result.values[-1] if result.values else None
    return 1 if last is None or last is False else 0
