"""jq 1.8.2's ``main.c`` in the calling process: libjq compiles the program, reads the
inputs (standard input as it arrives, in blocks) and runs the program on each, and the
results are written as main.c writes them, by a loop in C (``_jqmain``): straight into
standard output's descriptor, or handed over a batch at a time.

For the command line where no clock and no wall were asked for: no worker process, no
protocol, no copy of the input. Without the C loop (a build with no compiler),
:func:`available` is False and the command line keeps to the worker.
"""

from __future__ import annotations

import ctypes
import errno

from jqmagic.core.query import libjq, libjqinput, writes

TYPE_CHECKING = False  # the command line's start-up: no typing, dataclasses, tempfile, or
if TYPE_CHECKING:  # the failures' words until a failure (each costs milliseconds)
    from collections.abc import Callable
    from typing import BinaryIO

    from jqmagic.core.errors import JqMagicError

try:
    from jqmagic.core.query import _jqmain
except ImportError:  # built without a C compiler: the worker answers instead
    _jqmain = None

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
        self.args = args if args is not None else {}  # $name: a str, or libjq.RawJson
        self.positional = positional if positional is not None else []
        self.library_paths = library_paths
        self.program_origin = program_origin  # -f's file's folder (relative module paths)
        self.disasm = disasm  # --debug-dump-disasm: the bytecode on stdout before results
        self.trace = trace  # --debug-trace (1), --debug-trace=all (3): libjq's trace
        self.null_input, self.slurp, self.raw_input = null_input, slurp, raw_input
        self.parse_flags = parse_flags  # libjq.PARSE_SEQ / PARSE_STREAMING / ..._ERRORS
        self.dump_flags = dump_flags  # libjq.dump_flags(...)
        self.options = options  # RAW_OUTPUT | ... as above
        self.exit_status = exit_status  # -e
        self.stdin = stdin  # standard input when it is not this process's fd 0
        self.out_fd = out_fd  # the results' descriptor, written by C (None: ``out``)


class _State(ctypes.Structure):
    """The loop's state between calls (``run_state`` in _jqmain.c)."""

    _fields_ = [("started", ctypes.c_int), ("inputs_done", ctypes.c_int),
                ("ret", ctypes.c_int), ("last_result", ctypes.c_int),
                ("count", ctypes.c_longlong)]


def _configure() -> None:
    """Give the C loop libjq's functions (the library ctypes loaded)."""
    lib = libjq._lib  # noqa: SLF001 - the one loaded library
    names = ("jq_start", "jq_next", "jq_halted", "jq_util_input_next_input",
             "jq_util_input_errors", "jv_dump_string", "jv_dumpf", "jv_string_value",
             "jv_string_length_bytes", "jv_copy", "jv_free", "jv_invalid_has_msg",
             "jv_invalid_get_msg", "jv_null", "jv_string", "jv_invalid_with_msg")
    _jqmain.configure(tuple(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
                            for name in names))


if _jqmain is not None:
    assert ctypes.sizeof(_State) == _jqmain.STATE_SIZE, "_jqmain.c's run_state changed"
    _configure()


def run(spec: MainRun, out: BinaryIO, err: BinaryIO,
        report: Callable[[JqMagicError], None]) -> int:
    """Run ``spec`` as jq's main.c does: results into ``out`` as they are made (flushed
    each with ``UNBUFFERED``), ``debug``/``stderr``/``halt_error`` output into ``err`` as
    jq writes it, each error given to ``report`` in the face's words. Returns jq's exit
    status; a program that does not compile raises INVALID_QUERY."""
    try:
        program = libjq.compile_program(spec.program, spec.args, spec.library_paths,
                                        spec.positional, spec.program_origin)
    except libjq.CompileError as exc:
        from jqmagic.core.query import failures

        error = failures.compile_error(str(exc), spec.program)
        error.exit_code = 3
        raise error from None
    closed = spec.out_fd is not None and not writes.writable(spec.out_fd)
    if closed:  # the caller closed it (a /dev/null holds it): written by Python, in vain
        spec.out_fd = None
    sink = _Sink(out, spec.out_fd, errno.EBADF if closed else 0)
    try:
        _say_messages_to(program, err, spec.dump_flags)
        status = _run(program, spec, sink, err, report)
    finally:
        program.close()
    failed = sink.failed()
    if failed:  # main.c's end: ferror(stdout), said after everything else
        err.write(writes.failure_line(failed).encode())
        err.flush()
        return ERROR_SYSTEM
    return status


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


def _run(program: libjq.Program, spec: MainRun, out: _Sink, err: BinaryIO,
         report: Callable[[JqMagicError], None]) -> int:
    state = _State(ret=OK_NO_OUTPUT, last_result=-1)
    options = spec.options | (NULL_INPUT if spec.null_input else 0) | \
        spec.trace << TRACE_SHIFT
    if spec.disasm:
        _disassembly(program, out)
    with _standard_input(spec) as (files, stdin), \
            libjqinput.opened_inputs(program, files, slurp=spec.slurp, raw_input=spec.raw_input,
                                parse_flags=spec.parse_flags, stdin=stdin,
                                said=lambda name: _unreadable(name, out, report)) as inputs:
        while True:
            event, text, message = _jqmain.run(program.state.value, inputs.state.value or 0,
                                               ctypes.addressof(state), spec.dump_flags,
                                               options, BATCH_BYTES,
                                               -1 if spec.out_fd is None else spec.out_fd)
            if text:
                out.write(text)
                if spec.options & UNBUFFERED:
                    out.flush()
            if event == EV_RUN_ERROR:  # said, and the next input goes on (as in jq)
                from jqmagic.core.query import failures

                out.flush()
                report(failures.run_error(_error_text(message), state.count))
            elif event == EV_PARSE_ERROR and spec.parse_flags & libjq.PARSE_SEQ:
                err.write(b"jq: ignoring parse error: " + message + b"\n")
            elif event != EV_BATCH:
                break
        ret = state.ret
        if event == EV_HALTED:
            out.flush()
            ret = _halted(program, err)
            if ret <= 0 and ret != OK_NO_OUTPUT:
                state.last_result = int(ret != OK_NULL_KIND)
        elif event == EV_PARSE_ERROR:
            out.flush()
            ret = ERROR_UNKNOWN
            report(_parse_error(message, program, files))
        if inputs.read_errors or libjq._lib.jq_util_input_errors(inputs.state):  # noqa: SLF001
            ret = ERROR_SYSTEM
    out.flush()
    return _exit_status(ret, state.last_result, spec.exit_status)


def _unreadable(name: str, out: _Sink, report: Callable[[JqMagicError], None]) -> None:
    """A file libjq could not open, said when it comes to it, as main.c says it."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.query import failures

    out.flush()
    report(failures.unreadable(name) or JqMagicError(
        "FILE_ERROR", f"Could not open file {name}.", "Check that it is readable."))


def _disassembly(program: libjq.Program, out: _Sink) -> None:
    """jq's ``--debug-dump-disasm``: libjq prints the bytecode on C's stdout, then a line."""
    out.flush()
    dump = libjq._lib.jq_dump_disassembly  # noqa: SLF001
    dump.argtypes, dump.restype = (ctypes.c_void_p, ctypes.c_int), None
    dump(program.state, 0)
    libc = ctypes.CDLL(None)
    libc.puts(b"")
    libc.fflush(None)


class _standard_input:  # noqa: N801 - a context manager named as the function it was
    """The files as libjq takes them, and the file it reads as standard input: ``-`` is
    this process's fd 0 as it arrives; a stream of the caller's (a test's) is first
    written to a file lent to libjq as fd 0 (a class: contextlib costs the start-up)."""

    def __init__(self, spec: MainRun) -> None:
        self._spec, self._held = spec, None

    def __enter__(self) -> tuple[list[str], str | None]:
        spec = self._spec
        if "-" not in spec.files:
            return spec.files, None
        if spec.stdin is None:
            libjqinput._purge_stdin()  # noqa: SLF001 - C's stdin fully buffered, whatever -u says
            return spec.files, None
        import tempfile

        self._held = held = tempfile.NamedTemporaryFile(prefix="jqmagic-stdin-")  # noqa: SIM115
        held.write(spec.stdin.read())
        held.flush()
        return [held.name if name == "-" else name for name in spec.files], held.name

    def __exit__(self, *_: object) -> None:
        if self._held is not None:
            self._held.close()


def _say_messages_to(program: libjq.Program, err: BinaryIO, dump_flags: int) -> None:
    """``debug`` and ``stderr`` written to ``err`` as they come, as jq's main.c writes them."""
    lib = libjq._lib  # noqa: SLF001

    def on_debug(_data, value):
        line = libjq.array([libjq._string("DEBUG:"), value])  # noqa: SLF001
        err.write(_bytes(lib.jv_dump_string(line, dump_flags & ~libjq.PRINT_PRETTY)) + b"\n")
        err.flush()

    def on_stderr(_data, value):
        if lib.jv_get_kind(value) != libjq.KIND_STRING:
            value = lib.jv_dump_string(value, 0)
        err.write(_bytes(value))
        err.flush()

    debug, said = libjq.MSG_CB(on_debug), libjq.MSG_CB(on_stderr)
    lib.jq_set_debug_cb(program.state, debug, None)
    lib.jq_set_stderr_cb(program.state, said, None)
    program.callbacks = (program.callbacks[0], debug, said)


def _bytes(text) -> bytes:
    """A jv string's bytes; consumes it."""
    lib = libjq._lib  # noqa: SLF001
    n = lib.jv_string_length_bytes(lib.jv_copy(text))
    data = ctypes.string_at(lib.jv_string_value(text), n)
    lib.jv_free(text)
    return data


def _error_text(message: bytes | tuple) -> str:
    """An uncaught error's message as main.c words it (a value that is no string, said)."""
    if isinstance(message, tuple):
        return f"(not a string): {message[0].decode('utf-8', 'replace')}"
    return message.decode("utf-8", "replace")


def _halted(program: libjq.Program, err: BinaryIO) -> int:
    """``halt`` / ``halt_error``: its message on stderr as jq writes it; its exit code."""
    halt = libjq._halt(program.state)  # noqa: SLF001
    err.write(halt.said.encode("utf-8", "surrogateescape"))
    err.flush()
    return halt.exit_code


def _parse_error(message: bytes, program: libjq.Program, files: list[str]) -> JqMagicError:
    """An input that does not parse, at its place (the file's line under a caret)."""
    from jqmagic.core.query import failures
    from jqmagic.core.sources.prepare import Prepared

    where = libjq._message(libjq._lib.jq_util_input_get_position(program.state))  # noqa: SLF001
    text = f"{message.decode('utf-8', 'replace')} (at {where})"
    return failures.input_error(text, Prepared(files=[f for f in files if f != "-"]))


def _exit_status(ret: int, last_result: int, exit_status: bool) -> int:
    """main.c's ``jq_exit`` / ``jq_exit_with_status``."""
    if not exit_status:
        return ret & 0xFF if ret > 0 else 0
    if ret != OK_NO_OUTPUT:
        return abs(ret) & 0xFF
    return {-1: 4, 0: 1}.get(last_result, 0)
