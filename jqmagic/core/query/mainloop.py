"""jq 1.8.2's ``main.c`` in the calling process: libjq compiles the program, reads the
inputs (standard input as it arrives, in blocks) and runs the program on each, and the
results are written as main.c writes them, by a loop in C (``_jqmain``): straight into
standard output's descriptor, or handed over a batch at a time.

For the command line where no clock and no wall were asked for: no worker process, no
protocol, no copy of the input, no ctypes (``_jqmain`` opens libjq and sets the program up
as main.c does, ``_jqprogram.c``). Without the C loop (a build with no compiler),
:func:`available` is False and the command line keeps to the worker.
"""

from __future__ import annotations

import errno
import os
import sys

from jqmagic.core.query import jqdefs, stdinlend, writes
from jqmagic.core.query.cloop import _jqmain

TYPE_CHECKING = False  # the command line's start-up: no typing, dataclasses, tempfile, or
if TYPE_CHECKING:  # the failures' words until a failure (each costs milliseconds)
    from collections.abc import Callable
    from typing import BinaryIO

    from jqmagic.core.errors import JqMagicError


BATCH_BYTES = 1 << 16  # what a call of the C loop writes at most before Python writes it
# main.c's options, as _jqmain.c names them
RAW_OUTPUT, RAW_NO_LF, RAW_OUTPUT0, ASCII_OUTPUT, SEQ, UNBUFFERED, NULL_INPUT = \
    1, 2, 4, 8, 16, 32, 64
TRACE_SHIFT = 7  # jq_start's flags (--debug-trace: 1, =all: 3) above the options
EV_BATCH, EV_END, EV_RUN_ERROR, EV_HALTED, EV_PARSE_ERROR = range(5)
OK, OK_NULL_KIND, OK_NO_OUTPUT, ERROR_SYSTEM, ERROR_UNKNOWN = 0, -1, -4, 2, 5


def available() -> bool:
    """Whether the C loop was built (and so whether the command line can run here)."""
    return _jqmain is not None


class MainRun:
    """One ``jq`` command line, as main.c reads its flags (a plain class: made at every
    command's start-up)."""

    def __init__(self, program: str, files: list[str], *, args: dict | None = None,
                 positional: list | None = None, library_paths: list[str] | None = None,
                 program_origin: str | None = None, disasm: bool = False, trace: int = 0,
                 null_input: bool = False, slurp: bool = False, raw_input: bool = False,
                 parse_flags: int = 0, dump_flags: int = 0, options: int = 0,
                 exit_status: bool = False, stdin: BinaryIO | None = None,
                 out_fd: int | None = None) -> None:
        self.program = program
        self.files = files  # "-": standard input
        self.args = args if args is not None else {}  # $name: a str, jqdefs.RawJson, ...
        self.positional = positional if positional is not None else []
        self.library_paths = library_paths
        self.program_origin = program_origin  # -f's file's folder (relative module paths)
        self.disasm = disasm  # --debug-dump-disasm: the bytecode on stdout before results
        self.trace = trace  # --debug-trace (1), --debug-trace=all (3): libjq's trace
        self.null_input, self.slurp, self.raw_input = null_input, slurp, raw_input
        self.parse_flags = parse_flags  # jqdefs.PARSE_SEQ / PARSE_STREAMING / ..._ERRORS
        self.dump_flags = dump_flags  # jqdefs.dump_flags(...)
        self.options = options  # RAW_OUTPUT | ... as above
        self.exit_status = exit_status  # -e
        self.stdin = stdin  # standard input when it is not this process's fd 0
        self.out_fd = out_fd  # the results' descriptor, written by C (None: ``out``)


def set_colors(colors: str) -> bool:
    """jq's ``jq_set_colors`` of ``$JQ_COLORS`` (False: libjq refused the text)."""
    if _jqmain is None:
        from jqmagic.core.query import libjq

        return libjq.set_colors(colors)
    return _jqmain.set_colors(jqdefs.utf8(colors))


def run(spec: MainRun, out: BinaryIO, err: BinaryIO,
        report: Callable[[JqMagicError], None]) -> int:
    """Run ``spec`` as jq's main.c does: results into ``out`` as they are made (flushed
    each with ``UNBUFFERED``), ``debug``/``stderr``/``halt_error`` output into ``err`` as
    jq writes it, each error given to ``report`` in the face's words. Returns jq's exit
    status; a program that does not compile raises INVALID_QUERY."""
    try:
        program = _compiled(spec)
    except jqdefs.CompileError as exc:
        from jqmagic.core.query import failures

        error = failures.compile_error(str(exc), spec.program)
        error.exit_code = 3
        raise error from None
    closed = spec.out_fd is not None and not writes.writable(spec.out_fd)
    if closed:  # the caller closed it (a /dev/null holds it): written by Python, in vain
        spec.out_fd = None
    sink = _Sink(out, spec.out_fd, errno.EBADF if closed else 0)
    try:
        _jqmain.said_to(program, lambda said: (err.write(said), err.flush()), spec.dump_flags)
        status = _run(program, spec, sink, err, report)
    finally:
        _jqmain.close(program)
        _jqmain.flush()  # stdout written at the end, as jq's exit writes it
    failed = sink.failed()
    if failed:  # main.c's end: ferror(stdout), said after everything else
        err.write(writes.failure_line(failed).encode())
        err.flush()
        return ERROR_SYSTEM
    return status


def _compiled(spec: MainRun) -> object:
    """The program compiled by libjq as main.c compiles it (``jqdefs.CompileError``; a
    file argument that cannot be read, ``jqdefs.InputError``): its named arguments and
    ``$ARGS``, the module search list, ``$ORIGIN`` the folder of the command (the
    interpreter's: the venv's bin, where the ``jqmagic`` command is), relative ``search``
    paths from ``program_origin``. In the sandbox libjq never reads ``~/.jq``."""
    named = [(jqdefs.utf8(name), *jqdefs.argument(value)) for name, value in spec.args.items()]
    positional = [jqdefs.argument(value) for value in spec.positional]
    build = None if "JQ_BUILD_CONFIGURATION" in spec.args else \
        jqdefs.BUILD_CONFIGURATION.encode()
    paths = [jqdefs.utf8(path) for path in jqdefs.search_list(spec.library_paths)]
    with jqdefs.homeless():
        program, failure, said = _jqmain.compile(
            jqdefs.utf8(spec.program), named, positional, paths,
            jqdefs.utf8(os.path.dirname(sys.executable)),
            jqdefs.utf8(os.path.realpath(spec.program_origin or ".")), build)
    if failure == _COMPILE_ERROR:
        raise jqdefs.compile_failure(said)
    if failure == _BAD_JSON_ARGUMENT:
        raise jqdefs.CompileError(f"jq: error: invalid JSON text passed to --argjson: {said}")
    if failure == _UNREADABLE_FILE:
        raise jqdefs.InputError(said)
    return program


_COMPILE_ERROR, _BAD_JSON_ARGUMENT, _UNREADABLE_FILE = 1, 2, 3  # _jqprogram.c's


class _Sink:
    """The results' stream with jq's check of its writes: a write that fails (ENOSPC, EIO,
    a closed descriptor) is remembered, the run goes on as jq's does, and :meth:`failed`
    says it at the end. A closed pipe is no failure: SIGPIPE ends the command, as jq."""

    def __init__(self, out: BinaryIO, out_fd: int | None, failed: int = 0):
        self.out, self.out_fd, self.errno = out, out_fd, failed
        if failed:
            writes.discard_writes(out)

    def write(self, data: bytes) -> None:
        if not self.errno:
            self._checked(self.out.write, data)

    def flush(self) -> None:
        if not self.errno:
            self._checked(self.out.flush)

    def _checked(self, call, *args) -> None:
        try:
            call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.errno = exc.errno or errno.EIO
            writes.discard_writes(self.out)

    def failed(self) -> int:
        """The errno of the first failed write (the C loop's or this stream's), or 0."""
        written_by_c = _jqmain.write_error() if self.out_fd is not None else 0
        self.flush()
        return self.errno or written_by_c


def _run(program: object, spec: MainRun, out: _Sink, err: BinaryIO,
         report: Callable[[JqMagicError], None]) -> int:
    options = spec.options | (NULL_INPUT if spec.null_input else 0) | \
        spec.trace << TRACE_SHIFT
    if spec.disasm:
        out.flush()
        _jqmain.disassemble(program)
    with _standard_input(spec):
        _jqmain.open_inputs(program, [os.fsencode(name) for name in spec.files],
                            spec.parse_flags, spec.slurp, spec.raw_input,
                            lambda name: _unreadable(name, out, report))
        try:
            while True:
                event, text, message = _jqmain.run(program, spec.dump_flags, options,
                                                   BATCH_BYTES,
                                                   -1 if spec.out_fd is None else spec.out_fd)
                if text:
                    out.write(text)
                    if spec.options & UNBUFFERED:
                        out.flush()
                if event == EV_RUN_ERROR:  # said, and the next input goes on (as in jq)
                    from jqmagic.core.query import failures

                    out.flush()
                    report(failures.run_error(_error_text(message),
                                              _jqmain.status(program)[2]))
                elif event == EV_PARSE_ERROR and spec.parse_flags & jqdefs.PARSE_SEQ:
                    err.write(b"jq: ignoring parse error: " + message + b"\n")
                elif event != EV_BATCH:
                    break
            ret, last_result, _count, input_errors, read_errors = _jqmain.status(program)
            if event == EV_HALTED:
                out.flush()
                ret = _halted(program, err)
                if ret <= 0 and ret != OK_NO_OUTPUT:
                    last_result = int(ret != OK_NULL_KIND)
            elif event == EV_PARSE_ERROR:
                out.flush()
                ret = ERROR_UNKNOWN
                report(_parse_error(message, program, spec.files))
            if read_errors or input_errors:
                ret = ERROR_SYSTEM
        finally:
            _jqmain.close_inputs(program)
    out.flush()
    return _exit_status(ret, last_result, spec.exit_status)


def _unreadable(name: str, out: _Sink, report: Callable[[JqMagicError], None]) -> None:
    """A file libjq could not open, said when it comes to it, as main.c says it."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.query import failures

    out.flush()
    report(failures.unreadable(name) or JqMagicError(
        "FILE_ERROR", f"Could not open file {name}.", "Check that it is readable."))


class _standard_input:  # noqa: N801 - a context manager named as the function it was
    """``-`` as libjq reads it: this process's fd 0 as it arrives (C's stdin fully
    buffered); a stream of the caller's (a test's) is first written to a file lent to
    libjq as fd 0 while the block runs (a class: contextlib costs the start-up)."""

    def __init__(self, spec: MainRun) -> None:
        self._spec, self._held, self._lent = spec, None, None

    def __enter__(self) -> None:
        spec = self._spec
        if "-" not in spec.files:
            return
        if spec.stdin is None:
            stdinlend.purge_stdin()
            return
        import tempfile

        self._held = held = tempfile.NamedTemporaryFile(prefix="jqmagic-stdin-")  # noqa: SIM115
        held.write(spec.stdin.read())
        held.flush()
        self._lent = stdinlend.lend_stdin(held.name)

    def __exit__(self, *_: object) -> None:
        try:
            if self._lent is not None:
                stdinlend.give_back(self._lent)
        finally:
            if self._held is not None:
                self._held.close()


def _error_text(message: bytes | tuple) -> str:
    """An uncaught error's message as main.c words it (a value that is no string, said)."""
    if isinstance(message, tuple):
        return f"(not a string): {message[0].decode('utf-8', 'replace')}"
    return message.decode("utf-8", "replace")


def _halted(program: object, err: BinaryIO) -> int:
    """``halt`` / ``halt_error``: its message on stderr as jq writes it; its exit code."""
    halt = jqdefs.halt_of(*_jqmain.halt(program))
    err.write(halt.said.encode("utf-8", "surrogateescape"))
    err.flush()
    return halt.exit_code


def _parse_error(message: bytes, program: object, files: list[str]) -> JqMagicError:
    """An input that does not parse, at its place (the file's line under a caret)."""
    from jqmagic.core.query import failures
    from jqmagic.core.sources.prepare import Prepared

    text = f"{message.decode('utf-8', 'replace')} (at {_jqmain.position(program)})"
    return failures.input_error(text, Prepared(files=[f for f in files if f != "-"]))


def _exit_status(ret: int, last_result: int, exit_status: bool) -> int:
    """main.c's ``jq_exit`` / ``jq_exit_with_status``."""
    if not exit_status:
        return ret & 0xFF if ret > 0 else 0
    if ret != OK_NO_OUTPUT:
        return abs(ret) & 0xFF
    return {-1: 4, 0: 1}.get(last_result, 0)
