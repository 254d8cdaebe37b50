"""``jqmagic query`` as a drop-in for the jq 1.8.2 command line: jq's flags, output forms
and exit statuses. Into a pipe or a file it is jq: every result, written as it comes, and
no timeout unless ``--timeout``. On a terminal it shows a bounded view (the start of a big
value shown, the bound and the way on said on stderr); ``--all`` or ``JQMAGIC_ALL=1`` lifts
it."""

from __future__ import annotations

import os
import sys

from jqmagic import flags
from jqmagic.cli import here, jqargs, jqio, jqwords
from jqmagic.core.errors import JqMagicError
from jqmagic.core.jsonarg import JsonText
from jqmagic.core.settings import env_flag, env_text, no_color

TYPE_CHECKING = False  # typing costs every command's start-up (it imports re): not imported
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Any

JQ_VERSION = "jq-1.8.2"
# jq's exit statuses by error code: 2 usage and system, 3 compile, 5 runtime.
READS_INPUTS = r"\binputs?\b"
EXIT_STATUS = {"INVALID_QUERY": 3, "QUERY_ERROR": 5, "TIMEOUT": 5, "TOO_LARGE": 5,
               "INVALID_JSON": 5, "INVALID_YAML": 5, "INTERRUPTED": 130}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``jqmagic query``: jq's, from the option table."""
    parser.add_argument("filter", nargs="?", help="the jq program (or, with -f, an input)")
    parser.add_argument("files", nargs="*", help="input files or globs (default: stdin); "
                        "with --args / --jsonargs, positional arguments")
    flags.add_to_parser(parser, QUERY_FLAGS, flags.CLI)


QUERY_FLAGS = flags.QUERY + flags.SOURCE + flags.JQ_CLI


def exit_status(exc: JqMagicError) -> int:
    """jq's exit status for an error: halt_error's own, else by kind."""
    if exc.exit_code is not None:
        return exc.exit_code
    return EXIT_STATUS.get(exc.code, 2)


def parse(parser: argparse.ArgumentParser | Callable[[], argparse.ArgumentParser],
          argv: list[str]) -> argparse.Namespace:
    """``jqmagic query``'s words read as jq reads them (see :mod:`jqmagic.cli.jqargs`);
    ``parser`` may be given as the function that makes it. First of all, a standard
    stream the caller closed is held (see :mod:`jqmagic.cli.jqio`)."""
    jqio.hold_closed_streams()
    table = flags.option_table(QUERY_FLAGS, flags.CLI)
    words = jqargs.split(table, argv)
    args = flags.read_options(words.options, table)  # argparse only for its refusals' words
    if args is None:
        args = _parser(parser).parse_args(words.options)
    args.filter, args.files, args.positional = words.program, words.files, words.positional
    args.ends_with, args.disasm, args.trace = words.ends_with, words.disasm, words.trace
    args.parser = parser
    args.bindings = words.bindings
    args.from_file = None
    if words.from_file:  # -f: the program word names the program's file
        if words.program is None:
            raise JqMagicError("INVALID_ARGUMENT", "-f names no program file.",
                               "e.g. jqmagic query -f program.jq data.json")
        args.from_file, args.filter = words.program, None
    if args.library_paths:  # -L made absolute, as jq's jq_realpath (kept when it fails)
        args.library_paths = [os.path.realpath(p) if os.path.exists(p) else p
                              for p in args.library_paths]
    vars(args).update(words.layout())
    return args


def _parser(parser: argparse.ArgumentParser | Callable[[], argparse.ArgumentParser]
            ) -> argparse.ArgumentParser:
    """The query's argparse parser, made now when it was given as the function making it."""
    return parser if hasattr(parser, "parse_args") else parser()


def run(args: argparse.Namespace) -> int:
    """``jqmagic query``: run, print as jq prints, exit as jq exits; a failed write to
    standard output said last, as jq's main.c says it (status 2)."""
    out = jqio.Output()
    try:
        status = _run(args, out)
    except JqMagicError as exc:
        out.flush()
        if not out.errno:
            raise
        here.report(exc)
        status = 2
    return out.end(status)


def _run(args: argparse.Namespace, out: jqio.Output) -> int:
    if args.ends_with == "help":
        out.write(_usage(args))
        return 0
    if args.ends_with == "build-configuration":
        from jqmagic.core.query.libjq import BUILD_CONFIGURATION

        out.write(BUILD_CONFIGURATION + "\n")
        return 0
    if args.version:
        out.write(JQ_VERSION + "\n")
        return 0
    _check_colors()
    program = _program(args)
    if args.in_place:
        return _in_place(program, args, out)
    reads = not args.null_input or _reads_inputs(program)
    runs_here = here.runs_here(args, flags.named_source(args, args.files), _bounded_view(args),
                               program)
    if reads and not runs_here:  # a FIFO, a device or an odd name: as jq reads it
        args.files, copies = jqio.stand_ins(args.files, args.timeout)
        program = jqio.named_as(program, copies) if copies else program
    files, unreadable = _readable(args) if reads and not runs_here else \
        (args.files if reads else [], False)  # as jq: read or not; libjq says which it could not
    source = flags.named_source(args, files)
    try:
        named = jqwords.named_args(args.bindings, held=runs_here)
    except JqMagicError as exc:  # a bad --argjson / --slurpfile is a usage error to jq
        exc.exit_code = 2
        raise
    if not runs_here:  # the worker's protocol carries text: each word as libjq reads it
        program, named, args.positional = jqwords.as_jq_text(program, named, args.positional)
        if args.raw0 and not args.ascii:
            program = jqwords.raw_output0_checked(program)
    positional = [jqwords.json_text(p, "--jsonargs") if isinstance(p, JsonText) else p
                  for p in args.positional]
    if runs_here:
        return here.run(program, args, files, named, positional, _colour(args))
    if args.disasm or args.trace:
        print("jqmagic: --debug-dump-disasm and --debug-trace act where libjq runs in this "
              "process (not with --timeout, a sandbox or jqmagic's own options)", file=sys.stderr)
    from jqmagic.core.query.supervisor import shared_worker

    shared_worker().warm()
    if unreadable and not source:  # jq goes on with no input, naming the last file tried
        from jqmagic.core.sources.prepare import naming

        source, program = {"text": ""}, naming(program, {"<stdin>": args.files[-1]})
    elif not source and (not args.null_input or _reads_inputs(program)):
        source, program = _stdin_source(program)  # -n too, when input or inputs read stdin
    elif source.get("file") == "-" or source.get("file") == ["-"] * len(files):
        source, program = _stdin_source(program)  # "-" names stdin, as in jq
    elif "-" in files:  # stdin where it stands among the files
        source["file"], program = _stdin_among(files, program)
    keywords = {**flags.query_keywords(args), **source, "positional": positional,
                "color": _colour(args), "seq": args.seq,
                "program_origin": os.path.dirname(os.path.abspath(args.from_file))
                if args.from_file else ""}
    if here.streams_in_worker(args, program):  # one pass, in bounded memory
        keywords["stream_eval"] = True
    keywords.setdefault("timeout", 0)  # jq has no timeout: only --timeout sets one
    if args.explain:  # the stages as an indented text view, not jq's output
        from jqmagic.core.explain import explain

        explained = explain(program, args=named, slurp=args.slurp,
                            null_input=args.null_input, timeout=keywords["timeout"], **source)
        out.write(explained.text + "\n")
        return explained.exit_status  # as the plain run would exit
    try:
        if _bounded_view(args):
            return _shown(program, named, keywords, args, unreadable, out)
        return _streamed(program, named, keywords, args, unreadable, out)
    except JqMagicError as exc:
        if unreadable and exc.code != "INVALID_QUERY":  # jq compiles before it reads
            exc.exit_code = 2  # jq's status when a file could not be read
        for stand_in, name in jqio.STAND_INS.items():  # its error names the operand, as jq's
            exc.raw_message = exc.raw_message.replace(stand_in, name)
        raise


def _check_colors() -> None:
    """jq's main.c sets ``$JQ_COLORS`` before it compiles, coloured output or not, and
    says when libjq refuses them."""
    colors = env_text("JQ_COLORS")
    if colors:
        from jqmagic.core.query import libjq

        if not libjq.set_colors(colors):
            print("Failed to set $JQ_COLORS", file=sys.stderr)


def _usage(args: argparse.Namespace) -> str:
    """``-h``: jq's usage, then the options jqmagic adds to jq's."""
    from jqmagic.cli.jqusage import JQ_USAGE

    parser = _parser(args.parser)
    jq_options = jqargs.JQ_OPTIONS
    added = [action for action in parser._actions  # noqa: SLF001 (argparse keeps them here)
             if action.option_strings and not set(action.option_strings) & jq_options]
    formatter = parser._get_formatter()  # noqa: SLF001
    formatter.start_section("jqmagic query adds to jq's options")
    formatter.add_arguments(added)
    formatter.end_section()
    return JQ_USAGE + "\n" + formatter.format_help()


def _reads_inputs(program: str) -> bool:
    """Whether ``program`` reads ``input`` or ``inputs`` (re imported only when it may)."""
    if "input" not in program:
        return False
    import re

    return re.search(READS_INPUTS, program) is not None


def _in_place(program: str, args: argparse.Namespace, out: jqio.Output) -> int:
    """``-i``: each file edited on its own; a program that asks ``input_filename`` or
    ``input_line_number`` hears what jq says reading that file alone."""
    import re

    from jqmagic.core.patch.inplace import each_file, edit_in_place

    if args.null_input or args.slurp:  # -i hands the program each document as it is
        flag = "-n" if args.null_input else "-s"
        raise JqMagicError("INVALID_ARGUMENT", f"-i runs the program on each document of "
                           f"each file; {flag} does not apply.", f"Leave {flag} out.")
    named = jqwords.named_args(args.bindings) or None
    if not re.search(_READS_CONTEXT, program):
        lines, ok = edit_in_place(program, args.files, args.dry_run, args=named)
    else:
        lines, ok = [], True
        for path in each_file(args.files):
            some, fine = edit_in_place(_as_read(program, path), [path], args.dry_run, args=named)
            if not fine and any("INVALID_QUERY" in line for line in some):
                some, fine = edit_in_place(program, [path], args.dry_run, args=named)
            lines, ok = lines + some, ok and fine
    out.write("\n".join(lines) + "\n")
    return 0 if ok else 5


_READS_CONTEXT = r"\binput_(filename|line_number)\b"


def _as_read(program: str, path: str) -> str:
    """``program`` with ``input_filename`` and ``input_line_number`` as jq gives them
    after reading the one value of ``path`` (lines are counted as jq's reader takes
    them: every line up to the value's end, and that line when it is ended). The
    definitions go before it on its first line, so that its lines stay jq's."""
    from jqmagic.core.sources.files import read_text

    try:
        text = read_text(path)
    except JqMagicError:
        text = ""
    end = len(text.rstrip(" \t\n\r"))
    lines = text.count("\n", 0, end) + ("\n" in text[end:])
    import json

    return (f"def input_filename: {json.dumps(path)}; def input_line_number: {lines}; "
            f"{program}")


def _bounded_view(args: argparse.Namespace) -> bool:
    """A terminal gets a bounded view unless --all (or JQMAGIC_ALL=1) lifts it; a pipe or a
    file gets every byte, as from jq."""
    return sys.stdout.isatty() and not args.passthrough and not env_flag("JQMAGIC_ALL")


def _streamed(program: str, named: dict[str, Any], keywords: dict[str, Any],
              args: argparse.Namespace, unreadable: bool, out: jqio.Output) -> int:
    """Every result written as the worker sends it (flushed each with --unbuffered), as
    jq's main.c writes them; what came before an error is written before it is raised."""
    from jqmagic.core.query import open_results

    jqio.buffered_stdout()
    last, total, error = None, 0, None
    with open_results(program, args=named, **{**keywords, "passthrough": True},
                      whole_files=True) as results:  # a big file read as jq reads it
        try:
            if jqio.as_lines(args):  # a chunk of the worker's in one write
                for chunk in results.chunks():
                    out.write_lines(chunk.lines())
                    if len(chunk):
                        last, total = chunk.last(), total + len(chunk)
            else:
                for text in results.texts():
                    jqio.write_result(out, text, args)
                    last, total = text, total + 1
        except JqMagicError as exc:
            error = exc
        finally:
            jqio.say_run(results.end, args, keywords["color"])  # (unbuffered, as jq's)
            out.flush()
    if isinstance(last, bytes):
        last = last.decode("utf-8", "surrogatepass")
    status = _main_status(args, results.end, error, total, last)
    if unreadable and (error is None or error.code != "INVALID_QUERY"):
        status = 2  # a file could not be read (jq compiles before it reads)
    end = results.end
    if error is not None and end and end.halt_said is not None:  # halt_error: as jq says it
        sys.stderr.write(end.halt_said)
        sys.stderr.flush()
    elif error is not None and not (end and end.run_error and end.input_errors):  # (each
        # input's error was said where it came, by say_run)
        error.exit_code = status
        raise error
    return status


def _main_status(args: argparse.Namespace, end: Any, error: JqMagicError | None,
                 total: int, last: str | None) -> int:
    """The exit status as jq's main.c computes it: the last input's (an error in an
    earlier one is said, not counted), halt_error's code, and -e's kinds of output."""
    if error is not None and not (end and (end.halted or end.run_error)):
        return exit_status(error)  # compile errors, bad input, limits
    if end and end.halted:
        ret = error.exit_code if error is not None and error.exit_code is not None else 0
    elif error is not None and end.run_error[2:] != [False]:
        ret = 5  # the last input failed
    else:
        ret = -4 if not total else -1 if _falsy(last, end) else 0
    if args.exit_status and ret == -4:
        ret = 4 if not total else 1 if _falsy(last, end) else 0
    elif args.exit_status:
        ret = abs(ret)
    return max(ret, 0) & 0xFF


def _shown(program: str, named: dict[str, Any], keywords: dict[str, Any],
           args: argparse.Namespace, unreadable: bool, out: jqio.Output) -> int:
    """A terminal's bounded view: the first results and the start of a big one, the bound
    and the way on said on stderr."""
    from jqmagic.core.options import Bounds
    from jqmagic.core.query import query

    keywords.setdefault("limit", Bounds.default().max_results)
    try:  # jq's texts, raw strings written by jqio.write_result
        result = query(program, args=named, **{**keywords, "raw": False})
    except JqMagicError as exc:
        if exc.result is not None:
            _print_results(exc.result, args, out)  # what jq printed before the error, as jq does
            if exc.result.halted or exc.result.run_error:  # main.c's status: halt_error's
                # code, or the last input's (0 after an error)
                from types import SimpleNamespace

                end = SimpleNamespace(halted=exc.result.halted,
                                         run_error=exc.result.run_error)
                exc.exit_code = _main_status(args, end, exc, exc.result.total,
                                             _last_text(exc.result))
        raise
    jqio.say_messages(result.messages, args, keywords["color"])
    _print_results(result, args, out)
    if result.message and not unreadable:  # jqmagic's line: truncated, or no results
        message = result.message
        if result.truncated and any(v is not None for v in result.values):  # not nulls
            from jqmagic.core.query.bounds import and_then

            message = and_then(message, "Use --all to print everything.")
        print(message, file=sys.stderr)
    return 2 if unreadable else _status(result, args)


def _program(args: argparse.Namespace) -> str:
    """The program text: -f's file, the filter, or jq's "." when no filter is given and
    the input or the output is not a terminal."""
    if args.from_file is not None:
        return jqwords.program_file(args.from_file)
    if args.filter is not None:
        return args.filter
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return "."
    raise JqMagicError("INVALID_ARGUMENT", "No jq program given.",
                       "Give a filter, e.g. jqmagic query '.' data.json (try '.').")


def _readable(args: argparse.Namespace) -> tuple[list[str], bool]:
    """The files that can be read; each missing or unreadable one (a folder) is reported
    in jqmagic's words (code, jq's sentence, the core's hint) and, as in jq, the others
    are still read; where the worker reads them as jq (``worker._unreadable_among``) it
    is kept, for libjq to say where it comes to it. A sandbox's refusal stops the run."""
    from jqmagic.core import sandbox
    from jqmagic.core.query.failures import unreadable

    kept, missing, files = [], False, args.files
    in_order = not (_bounded_view(args) or sandbox.enabled() or args.null_input or args.slurp
                    or args.yaml or args.jsonc or any(n.lower().endswith((".yaml", ".yml", (
                        ".jsonc"))) or here.has_magic(n) and not os.path.lexists(n) for n in files))
    for name in files:
        failed = None if _plainly_readable(name) or name == "-" or \
            (here.has_magic(name) and not os.path.lexists(name)) else in_order or unreadable(name)
        missing = missing or failed is not None
        if failed is not None and failed is not True:
            here.report(failed)
            continue
        kept.append(name)
    return kept, missing


def _plainly_readable(name: str) -> bool:
    """A file the user may read, named as it is (a file of that very name: its ``~`` or
    glob characters are its own; no sandbox to ask): nothing to resolve."""
    from jqmagic.core import sandbox

    return not sandbox.enabled() and os.path.isfile(name) and os.access(name, os.R_OK)


def _stdin_source(program: str) -> tuple[dict[str, Any], str]:
    """Standard input for the worker: its text; with invalid UTF-8 in it, a file of its
    very bytes, so that libjq reads them and says their places as jq does."""
    data = jqio.stdin_bytes()
    try:
        return {"text": data.decode("utf-8")}, program
    except UnicodeDecodeError:
        paths, program = _stdin_among(["-"], program, data)
        return {"file": paths}, program


def _stdin_among(files: list[str], program: str,
                 data: bytes | None = None) -> tuple[list[str], str]:
    """``-`` among files, as jq reads it: standard input's bytes (``data``: as read
    already) where the first ``-`` stands (later ones find it read: nothing), named
    ``<stdin>`` by ``input_filename``. They wait in a folder of their own, removed when
    the command ends."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="jqmagic-stdin-")
    atexit.register(shutil.rmtree, folder, True)
    first, rest = os.path.join(folder, "stdin.json"), os.path.join(folder, "read.json")
    with open(first, "wb") as out:
        out.write(jqio.stdin_bytes() if data is None else data)
    open(rest, "w").close()  # noqa: SIM115 - an empty file
    at = files.index("-")
    paths = [first if i == at else rest if name == "-" else name
             for i, name in enumerate(files)]
    return paths, jqio.named_as(program, {first: "<stdin>", rest: "<stdin>"})


def _colour(args: argparse.Namespace) -> bool:
    """jq's rule: -C colours, -M never; else colour a terminal unless NO_COLOR is set."""
    if args.monochrome:
        return False
    return args.color or (sys.stdout.isatty() and not no_color())


def _print_results(result: Any, args: argparse.Namespace, out: jqio.Output) -> None:
    """The shown results of a bounded view; a value past the bound is shown cut (its start,
    never nothing), and the rest is said on stderr (by the result's own line where it says
    it was cut: one line, not two)."""
    from jqmagic.core.options import Bounds

    budget = Bounds.default().max_chars
    for text in result.printed:
        if budget <= 0:
            break
        if len(text) > budget:
            out.write(text[:budget] + "\n")
            if not (result.truncated and result.message):
                print(f"(a result of {len(text):,} characters, cut after {budget:,}; "
                      "--all or a pipe prints it whole)", file=sys.stderr)
            break
        budget -= len(text)
        jqio.write_result(out, text, args)
    out.flush()


def _status(result: Any, args: argparse.Namespace) -> int:
    """-e: 1 when the last result is false or null, 4 when there was none (a program that
    stopped itself with halt exits 0, as jq's)."""
    if not args.exit_status or result.halted:
        return 0
    if not result.total:
        return 4
    return 1 if _falsy(_last_text(result)) else 0


_FALSY = "(\x1b\\[[0-9;]*m)?(null|false)(\x1b\\[0m)?"


def _falsy(text: str | None, end: Any = None) -> bool:
    """-e's test of the last result by its JSON text: null or false. A NaN is a number
    (jq's -e passes it) printed as null: coloured, it keeps the number's colour around
    null's; plain, the worker's End says the last result was a number (libjq's kind)."""
    import re

    if text is None or re.fullmatch(_FALSY, text) is None:
        return False
    return not (text == "null" and getattr(end, "last_number", False))


def _last_text(result: Any) -> str | None:
    """The last shown result's JSON text (a raw string's printed text is no JSON)."""
    if not result.printed:
        return None
    return '""' if isinstance(result.values[-1], str) else result.printed[-1]
