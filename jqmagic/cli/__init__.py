"""The ``jqmagic`` command: the core's operations from a terminal or a script. This folder
is the command line's face: ``jqcli`` with ``jqargs``, ``jqwords``, ``jqio``, ``jqusage`` and
``here`` make ``jqmagic query`` jq's command line; ``commands`` holds the other
subcommands and the parser; ``browse`` is ``jqmagic browse``.

Errors print ``error CODE: message`` and the hint on stderr and exit with status 1 (``query``:
jq's status); no traceback.
"""

from __future__ import annotations

import os
import sys

from jqmagic.core.errors import JqMagicError

TYPE_CHECKING = False  # typing itself costs a command's start-up (it imports re)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable


def _print_error(exc: JqMagicError, status: int = 1) -> int:
    """``error CODE: message``, the detail and ``hint:`` on stderr, in the terminal's words
    (--timeout, ...); the exit status."""
    print(f"error {exc.render('terminal')}", file=sys.stderr)
    return status


def _parsed(argv: list[str]) -> tuple[argparse.Namespace, Callable[[argparse.Namespace], int]]:
    """The parsed command line and what runs it. ``query`` reads jq 1.8.2's words as jq
    does, without argparse (which it asks only for help and for the words of a refusal);
    the other commands take options anywhere on the line, as jq takes them."""
    command = argv[0] if argv else ""
    if command == "query":
        from jqmagic.cli import jqcli

        return jqcli.parse(_query_parser, argv[1:]), jqcli.run
    from jqmagic.cli.commands import build_parser

    parser, subs = build_parser("" if command.startswith("-") else command)
    args = subs[command].parse_intermixed_args(argv[1:]) if command in subs else \
        parser.parse_args(argv)
    return args, args.run


def _query_parser() -> argparse.ArgumentParser:
    """``jqmagic query``'s argparse parser: for help, and a refused line's words."""
    from jqmagic.cli.commands import build_parser

    return build_parser("query")[1]["query"]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``jqmagic`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args, run = _parsed(argv)
    except JqMagicError as exc:  # a command line jq would refuse: its usage status
        return _print_error(exc, 2)
    try:
        return run(args)
    except JqMagicError as exc:
        if argv[:1] != ["query"]:
            return _print_error(exc, 1)
        from jqmagic.cli import jqcli

        return _print_error(exc, jqcli.exit_status(exc))
    except RecursionError:  # a result nested past Python's limit, wherever it surfaced
        from jqmagic.core.errors import too_deep

        return _print_error(too_deep("The result", "Query a part of it, or print it with "
                                     "tojson (-r) as text."))
    except KeyboardInterrupt:
        print("error INTERRUPTED: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): end quietly, as jq does
        import signal

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


def command() -> None:
    """The ``jqmagic`` script (``bin/jqmagic``, ``python -m jqmagic``): :func:`main`, then
    the process ends without the interpreter's teardown (freeing every module costs a short
    call a tenth of its time), once atexit's functions have run (workers stopped, folders
    removed) and Python's buffers are written. A thread still running, or a buffer that
    cannot be written, gets the interpreter's own exit."""
    status = main()
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        sys.exit(status)
    import atexit

    atexit._run_exitfuncs()  # noqa: SLF001 - what the interpreter's exit would run first
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    command()
