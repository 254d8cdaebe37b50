"""The standard streams of ``jqmagic query`` as jq 1.8.2's ``main.c`` treats them: a
closed one is held open so that no file takes its place and its reads or writes fail as
jq's do (EBADF); results written with each write checked (``ferror(stdout)`` at the end:
``jq: error: writing output failed: ...``, status 2); standard input decoded as jq's
parser decodes it."""

from __future__ import annotations

import errno
import io
import os
import sys

from jqmagic.core import jqutf8  # noqa: F401 (registers the jq-utf8 and jq-string handlers)
from jqmagic.core.errors import JqMagicError

TYPE_CHECKING = False  # argparse, json and re cost the command's start-up: used when needed
if TYPE_CHECKING:
    import argparse
    from typing import Any

# A closed descriptor is held by /dev/null opened the other way round: reading fd 0 or
# writing fd 1 then fails with EBADF, as on the closed descriptor jq was given; fd 2
# takes writes (jq's errors go nowhere).
_HELD = ((0, os.O_WRONLY), (1, os.O_RDONLY), (2, os.O_WRONLY))


def hold_closed_streams() -> None:
    """Standard input, output or error closed by the caller (``<&-``, ``>&-``): a
    /dev/null holds the descriptor (a file opened later would take it, and the results
    would be written into it), and Python gets a stream on it."""
    for fd, mode in _HELD:
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, mode)
            if held != fd:
                os.dup2(held, fd)
                os.close(held)
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, encoding="utf-8", errors="surrogateescape",  # noqa: SIM115
                                    closefd=False))


class Output:
    """Standard output with jq's check of its writes: the first failed write (ENOSPC,
    EIO, EBADF) is remembered and nothing more is written (the run goes on, as jq's
    does); :meth:`end` says it last. A closed pipe (EPIPE) is no failure here: the
    command ends quietly, as jq does."""

    def __init__(self) -> None:
        self.errno = 0

    def write(self, text: str, flush: bool = False) -> None:
        if self.errno:
            return
        try:
            if text:  # an empty write reaches the descriptor (/dev/full fails it)
                sys.stdout.write(text)
            if flush:
                sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            self._failed(exc)

    def flush(self) -> None:
        self.write("", flush=True)

    def write_lines(self, lines: bytes) -> None:
        """Results' UTF-8 texts, each followed by a newline, in one write (as libjq dumped
        them)."""
        if self.errno or not lines:
            return
        try:
            sys.stdout.flush()
            left = memoryview(lines)
            while left:  # a write the reader cut short says so at the next (EPIPE)
                left = left[sys.stdout.buffer.write(left):]
        except BrokenPipeError:
            raise
        except OSError as exc:
            self._failed(exc)

    def _failed(self, exc: OSError) -> None:
        from jqmagic.core.query.writes import discard_writes

        self.errno = exc.errno or errno.EIO
        discard_writes(sys.stdout)

    def end(self, status: int) -> int:
        """jq's end of a run: output flushed; a failed write said on stderr, status 2
        (standard output closed by the caller fails even with nothing written, as jq's
        fclose does)."""
        self.flush()
        if not self.errno and not _stdout_writable():
            self.errno = errno.EBADF
        if not self.errno:
            return status
        from jqmagic.core.query.writes import failure_line

        sys.stderr.write(failure_line(self.errno))
        sys.stderr.flush()
        return 2


def _stdout_writable() -> bool:
    """False when standard output is the caller's closed descriptor, held read-only."""
    from jqmagic.core.query.writes import writable

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return True  # a caller's stream (a test's)
    return writable(fd)


def as_lines(args: argparse.Namespace) -> bool:
    """Whether results are written as they come, one a line (no -r, -j, --raw-output0,
    --seq or --unbuffered), to a standard output that takes bytes."""
    return not (args.raw or args.join or args.raw0 or args.seq or args.unbuffered) and \
        hasattr(sys.stdout, "buffer")


def write_result(out: Output, text: str, args: argparse.Namespace) -> None:
    """One result as jq's main.c writes it: a raw string as it is (-r, -j, --raw-output0;
    as ASCII JSON with -a), anything else as JSON after --seq's RS."""
    raw = args.raw or args.join or args.raw0
    value = string_of(text) if raw else None
    if value is not None:  # (--raw-output0's NUL: the program checks it, jqwords)
        shown = _ascii_json(value) if args.ascii else value
    else:
        shown = "\x1e" + text if args.seq else text
    out.write(shown + ("" if args.join or args.raw0 else "\n") + ("\0" if args.raw0 else ""),
              flush=bool(args.unbuffered))


def say_run(end: Any, args: argparse.Namespace, colour: bool) -> None:
    """What a run on the worker said on stderr, in jq's order: the program's messages,
    each input's error where it came among them (in jqmagic's words)."""
    messages, at = (end.messages, 0) if end else ([], 0)
    for before, error in (end.input_errors or []) if end else ():
        from jqmagic.cli.here import report
        from jqmagic.core.query.failures import run_error

        say_messages(messages[at:before], args, colour)
        report(run_error(error, 0))
        at = max(at, before)
    say_messages(messages[at:], args, colour)


def say_messages(messages: list[str], args: argparse.Namespace, colour: bool) -> None:
    """The program's messages from the worker, as jq's main.c writes them: ``debug``'s
    a line each, dumped with -S, -a and -C as the results are (libjq dumps them with the
    run's flags; a plain one is dumped again here); a skipped --seq text's a line;
    ``stderr``'s as they are."""
    for message in messages:
        if message.startswith('["DEBUG:",'):
            message = _as_dumped(message, args, colour) + "\n"
        elif message.startswith("jq: ignoring parse error: ") or \
                (colour and _is_coloured_debug(message)):  # dumped by libjq with -C already
            message += "\n"
        sys.stderr.write(message)
    sys.stderr.flush()


def _is_coloured_debug(message: str) -> bool:
    """Whether ``message`` is a ``debug`` line libjq dumped in colour (a NaN in it is
    coloured as jq colours it, which a plain line dumped again cannot be)."""
    import re

    return message.startswith("\x1b[") and \
        re.sub(_COLOUR, "", message[:200]).startswith('["DEBUG:",')


def _as_dumped(message: str, args: argparse.Namespace, colour: bool) -> str:
    """A ``debug`` line dumped again with jq's -S, -a and -C (one cut short as it is)."""
    if not (colour or args.sort_keys or args.ascii):
        return message
    from jqmagic.core.query import libjq

    value = libjq._parse(message)  # noqa: SLF001 - libjq's own parser: the same literals
    if libjq._lib.jv_get_kind(value) == libjq.KIND_INVALID:  # noqa: SLF001
        libjq._lib.jv_free(value)  # noqa: SLF001
        return message
    flags = libjq.dump_flags(compact=True, sort_keys=bool(args.sort_keys),
                             ascii=bool(args.ascii), color=colour)
    return libjq.dump(value, flags)


def string_of(text: str) -> str | None:
    """The string a result's text holds, or None when it is no string (colours aside)."""
    import json
    import re

    plain = re.sub(_COLOUR, "", text) if text.startswith("\x1b") else text
    return json.loads(plain) if plain.startswith('"') else None


_COLOUR = "\x1b\\[[0-9;]*m"


def _ascii_json(text: str) -> str:
    """A string as jq's JV_PRINT_ASCII dumps it (DEL escaped too)."""
    import json

    return json.dumps(text).replace("\x7f", "\\u007f")


def buffered_stdout() -> None:
    """jq's stdout is buffered off a terminal (--unbuffered flushes each result); Python run
    unbuffered (-u, PYTHONUNBUFFERED) would write each result through (a million small
    results: 1.9 s, not 1.2 s)."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.write_through:
        sys.stdout.reconfigure(write_through=False)


def stdin_bytes() -> bytes:
    """Standard input's bytes; a descriptor that cannot be read (closed: EBADF; a folder:
    EISDIR) is jq's one line and status 2."""
    try:
        return sys.stdin.buffer.read()
    except OSError as exc:
        raise JqMagicError("FILE_ERROR", f"Could not read standard input: "
                           f"{os.strerror(exc.errno or errno.EIO)}",
                           "Give a file, or pipe the JSON in.") from None


def jq_word(word: str, json_text: bool = False) -> str:
    """A command-line word as libjq takes its bytes (``jv_string``; ``json_text``: its
    parser): each invalid UTF-8 sequence one U+FFFD, cut as jq cuts it. Python gives an
    invalid byte of ``argv`` as a lone surrogate; the worker's protocol carries text, so
    the word is made jq's text here."""
    if word.isascii() or not any("\udc80" <= c <= "\udcff" for c in word):
        return word
    data = word.encode("utf-8", "surrogateescape")
    return data.decode("utf-8", "jq-utf8" if json_text else "jq-string")


def stand_ins(files: list[str], seconds: float | None = None
              ) -> tuple[list[str], dict[str, str]]:
    """Operands the worker could not open as jq does, each given a stand-in: a FIFO or a
    device (bash's ``<(cmd)``, ``/dev/stdin``, ``/dev/null``) read through now, as jq
    reads it, into a file of its bytes; a regular file named by this process's
    descriptors (``/dev/stdin < f``, ``/dev/fd/3``: the worker's are others) by its own
    path; a name that is no UTF-8 (the worker's protocol carries text) by a link to it.
    The files with the stand-ins in their places, and each stand-in's operand. The
    sandbox refuses FIFOs still; one that cannot be read is left for the worker to say
    so. A FIFO waits for its writer as jq waits, or ``seconds`` at most (``--timeout``)."""
    import stat

    from jqmagic.core import sandbox

    paths, stand_ins = [], {}
    for name in files:
        try:
            mode = os.stat(name).st_mode if name != "-" and not sandbox.enabled() else 0
        except OSError:
            mode = 0
        stand_in = None
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
            stand_in = _stand_in(name, len(stand_ins), copy=True, seconds=seconds)
        elif stat.S_ISREG(mode) and os.path.abspath(name).startswith(("/dev/", "/proc/")):
            stand_in = os.path.realpath(name)
        elif stat.S_ISREG(mode) and not _is_text(name):
            stand_in = _stand_in(name, len(stand_ins), copy=False)
        if stand_in is not None:
            stand_ins[stand_in] = name
        paths.append(stand_in or name)
    return paths, stand_ins


def _is_text(name: str) -> bool:
    """Whether a file name is UTF-8 (Python gives other bytes as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _stand_in(name: str, number: int, copy: bool, seconds: float | None = None) -> str | None:
    """A file of ``name``'s bytes (``copy``: its first byte or its end awaited ``seconds``
    at most, else TIMEOUT), else a link to it, with its suffix, in a folder removed when
    the command ends; None when it cannot be read."""
    import atexit
    import shutil
    import tempfile

    global _STAND_IN_FOLDER
    if _STAND_IN_FOLDER is None:
        _STAND_IN_FOLDER = tempfile.mkdtemp(prefix="jqmagic-operands-")
        atexit.register(shutil.rmtree, _STAND_IN_FOLDER, True)
    suffix = os.path.splitext(name)[1]  # (YAML, JSON Lines: read by suffix)
    path = os.path.join(_STAND_IN_FOLDER, f"{number}{suffix if _is_text(suffix) else ''}")
    try:
        if not copy:
            os.symlink(os.path.abspath(name), path)
            return path
        with _opened_within(name, seconds) as source, open(path, "wb") as out:
            shutil.copyfileobj(source, out)
    except OSError:
        return None
    return path


def _opened_within(name: str, seconds: float | None) -> Any:
    """``name`` open for reading, once its writer has written or gone (``seconds`` at
    most: a FIFO nobody writes would wait for ever, as jq waits, past a --timeout)."""
    if seconds is None:
        return open(name, "rb")  # noqa: SIM115 - the caller closes it
    import select

    from jqmagic.core.errors import JqMagicError

    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    waiting = select.poll()
    waiting.register(fd, select.POLLIN | select.POLLHUP)
    if not waiting.poll(int(seconds * 1000)):
        os.close(fd)
        raise JqMagicError("TIMEOUT", f"Nothing came from {name} within {seconds:g} s.",
                           "Start what writes to it first, or raise --timeout.")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


_STAND_IN_FOLDER: str | None = None  # the folder of this command's stand-ins
STAND_INS: dict[str, str] = {}  # each file standing in for stdin or an operand: its name


def named_as(program: str, stand_ins: dict[str, str]) -> str:
    """``program`` with ``input_filename`` (and, through :data:`STAND_INS`, the errors)
    naming the operands ``stand_ins`` hold."""
    from jqmagic.core.sources.prepare import naming

    STAND_INS.update(stand_ins)
    return naming(program, stand_ins)
