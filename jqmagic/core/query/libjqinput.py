"""libjq's inputs, as jq's main.c sets them up: files and standard input read by a
program's ``input``/``inputs`` (:func:`run`, :func:`opened_inputs`), and every value of
files or a text parsed ahead (:func:`parse_inputs`, :func:`parse_text`) and run over
(:func:`run_parsed`). Used only inside the worker process, or a command line running as
jq (see :mod:`.libjq`)."""

from __future__ import annotations

import ctypes
import os
from ctypes import c_void_p

from jqmagic.core.query import stdinlend
from jqmagic.core.query.libjq import (
    _NEXT_INPUT_CB,
    INPUT_ERR_CB,
    KIND_INVALID,
    PARSE_SEQ,
    READ_FAILED,
    InputError,
    Program,
    RunError,
    _lib,
    _message,
    _parse,
    _results,
    jv,
    result_batches,
)

TYPE_CHECKING = False  # a command line running as jq imports this module: no typing
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def run(program: Program, files: list[str], *, null_input: bool = False,
        slurp: bool = False, raw_input: bool = False, flags: int = 0,
        parse_flags: int = 0, stdin: str | None = None, batched: bool = False) -> Iterator:
    """Yield the JSON text of each result, running ``program`` as ``jq [-n] [-s] FILES``
    (``parse_flags``: PARSE_STREAMING / PARSE_STREAM_ERRORS, as jq's --stream sets them;
    ``stdin``: the one file read as jq reads its standard input, named ``<stdin>``;
    ``batched``: lists of UTF-8 texts, dumped in C, instead of a str a result).

    Inputs are read by libjq from ``files``; ``input``/``inputs`` consume them. Raises
    InputError (a file that cannot be read or parsed), RunError (an uncaught jq error)
    or Halt.
    """
    with opened_inputs(program, files, slurp=slurp, raw_input=raw_input,
                       parse_flags=parse_flags, stdin=stdin) as inputs:
        skipped = program.messages if parse_flags & PARSE_SEQ else None
        values = iter([_parse("null")]) if null_input else \
            _inputs(program.state, inputs.state, skipped)
        try:
            yield from _each_input(program, values, flags, batched)
        except RunError:
            inputs.check()  # a file that failed to read is jq's status 2, whatever ran after
            raise
        inputs.check()


class Inputs:
    """jq's input state (``jq_util_input``) over files, as the program's ``input``."""

    def __init__(self, state: c_void_p, read_errors: list[str]) -> None:
        self.state, self.read_errors = state, read_errors

    def check(self) -> None:
        """InputError when a file could not be read (jq goes on past it, then says so)."""
        if self.read_errors or _lib.jq_util_input_errors(self.state):
            raise InputError("\n".join(self.read_errors) or READ_FAILED)


class opened_inputs:  # noqa: N801 - a context manager named as the function it was
    """``files`` as jq's main.c sets up its inputs (``-`` or ``stdin``: standard input),
    read by ``program``'s ``input``/``inputs`` while the block runs (``with ... as
    inputs:``; a class: contextlib costs every command's start-up); ``said`` hears each
    file that cannot be opened when libjq comes to it, as main.c says it then."""

    def __init__(self, program: Program, files: list[str], *, slurp: bool = False,
                 raw_input: bool = False, parse_flags: int = 0,
                 stdin: str | None = None, said: Callable[[str], None] | None = None) -> None:
        self._program, self._files, self._slurp = program, files, slurp
        self._raw_input, self._parse_flags, self._stdin = raw_input, parse_flags, stdin
        self._said = said  # given each file that cannot be opened when libjq comes to it

    def __enter__(self) -> Inputs:
        read_errors: list[str] = []

        def on_read_error(_data: object, msg: bytes) -> None:
            read_errors.append(msg.decode("utf-8", "replace"))
            if self._said is not None:
                self._said(read_errors[-1])

        self._on_read_error = INPUT_ERR_CB(on_read_error)
        self._state = state = c_void_p(_lib.jq_util_input_init(self._on_read_error, None))
        self._lent = None
        try:
            parser = None if self._raw_input else _lib.jv_parser_new(self._parse_flags)
            _lib.jq_util_input_set_parser(state, parser, int(self._slurp))
            for name in self._files:
                _lib.jq_util_input_add_input(
                    state, b"-" if name == self._stdin else os.fsencode(name))
            _lib.jq_set_input_cb(self._program.state, _NEXT_INPUT_CB, state)
            self._program.messages.clear()
            self._program.input_errors = []
            self._lent = None if self._stdin is None else stdinlend.lend_stdin(self._stdin)
        except BaseException:
            self._close()
            raise
        return Inputs(state, read_errors)

    def __exit__(self, *_: object) -> None:
        self._close()

    def _close(self) -> None:
        try:
            if self._lent is not None:
                stdinlend.give_back(self._lent)
        finally:
            _lib.jq_set_input_cb(self._program.state, None, None)
            _free(self._state)
            del self._on_read_error


_CURRENT_INPUT = 3 * ctypes.sizeof(c_void_p)
"""Where ``jq_util_input_state`` holds the FILE it reads (after err_cb, err_cb_data and
parser: util.c, unchanged from jq 1.6 to 1.8.2)."""
_libc = ctypes.CDLL(None)
_libc.fclose.argtypes = [c_void_p]
_STDIN = c_void_p.in_dll(_libc, "stdin").value


def _free(state: c_void_p) -> None:
    """``jq_util_input_free``, the file it was reading closed first: libjq closes a file
    only when it reads on past its end, and leaves it open when the reading stops before
    (a parse error, an answer found early), in a worker that lives on (as jq's process
    does not): the files stayed open, a write lease on them refused."""
    if state.value:
        held = c_void_p.from_address(state.value + _CURRENT_INPUT)
        if held.value and held.value != _STDIN:
            _libc.fclose(held.value)
            held.value = None
    _lib.jq_util_input_free(ctypes.byref(state))


def parse_inputs(files: list[str]) -> list[jv]:
    """Every top-level value of ``files``, parsed by libjq as ``jq`` reads them (owned jvs:
    free them with :func:`free_values`); InputError on the first bad one."""
    errors: list[str] = []
    on_error = INPUT_ERR_CB(lambda _d, msg: errors.append(msg.decode("utf-8", "replace")))
    inputs = c_void_p(_lib.jq_util_input_init(on_error, None))
    values: list[jv] = []
    try:
        _lib.jq_util_input_set_parser(inputs, _lib.jv_parser_new(0), 0)
        for name in files:
            _lib.jq_util_input_add_input(inputs, os.fsencode(name))
        while True:
            value = _lib.jq_util_input_next_input(inputs)
            if _lib.jv_get_kind(value) == KIND_INVALID:
                has_message = _lib.jv_invalid_has_msg(_lib.jv_copy(value))
                _lib.jv_free(value)
                if has_message or errors or _lib.jq_util_input_errors(inputs):
                    raise InputError("\n".join(errors) or READ_FAILED)
                return values
            values.append(value)
    except BaseException:
        free_values(values)
        raise
    finally:
        _free(inputs)


def parse_text(text: str | bytes) -> list[jv]:
    """Every top-level value of JSON ``text`` (owned jvs); InputError on a bad one."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if len(data) >= 2**31:  # libjq's buffer length is an int
        raise InputError("the converted text is over 2 GiB; convert the file to JSON first")
    parser = c_void_p(_lib.jv_parser_new(0))
    values: list[jv] = []
    try:
        _lib.jv_parser_set_buf(parser, data, len(data), 0)  # the whole text: not partial
        while True:
            value = _lib.jv_parser_next(parser)
            if _lib.jv_get_kind(value) != KIND_INVALID:
                values.append(value)
                continue
            if _lib.jv_invalid_has_msg(_lib.jv_copy(value)):
                raise InputError(_message(_lib.jv_invalid_get_msg(value)))
            _lib.jv_free(value)
            return values
    except BaseException:
        free_values(values)
        raise
    finally:
        _lib.jv_parser_free(parser)


def free_values(values: list[jv]) -> None:
    """Release values :func:`parse_inputs` made."""
    for value in values:
        _lib.jv_free(value)
    values.clear()


def run_parsed(program: Program, values: list[jv], *, null_input: bool = False,
               slurp: bool = False, flags: int = 0, batched: bool = False) -> Iterator:
    """Like :func:`run`, over values parsed before (borrowed, not consumed), for programs
    that never read ``input``/``inputs``/``input_filename`` (no input callback is set)."""
    program.messages.clear()
    program.input_errors = []
    each = result_batches if batched else _results
    if null_input:
        yield from each(program, _parse("null"), flags)
    elif slurp:
        whole = _lib.jv_array()
        for value in values:
            whole = _lib.jv_array_append(whole, _lib.jv_copy(value))
        yield from each(program, whole, flags)
    else:
        yield from _each_input(program, (_lib.jv_copy(v) for v in values), flags, batched)


def _each_input(program: Program, values: Iterator[jv], flags: int,
                batched: bool = False) -> Iterator:
    """The results of every input in turn; as jq does, an error ends only its own input's
    results (reported with the rest: RunError names the first, once all are done; each
    is kept in ``program.input_errors`` with the count of messages said before it, where
    jq's main.c says it)."""
    errors: list[str] = []
    last_failed = False
    each = result_batches if batched else _results
    for value in values:
        try:
            yield from each(program, value, flags)
            last_failed = False
        except RunError as exc:
            errors.append(str(exc))
            program.input_errors.append((len(program.messages), str(exc)))
            last_failed = True
    if errors:
        raise failed_inputs(errors, last_failed)


def failed_inputs(errors: list[str], last_failed: bool = True) -> RunError:
    """The one error reported for inputs that failed each on its own: the first, counted
    (kept as ``first`` and ``failed``, for runs joined from several workers), and whether
    the last input failed (``last_failed``: jq's exit status is the last input's)."""
    others = len(errors) - 1  # (words.count's plural: words imports re, at start-up)
    more = f" (and {others:,} more input{'s' * (others != 1)} failed)" if others else ""
    error = RunError(errors[0] + more)
    error.first, error.failed, error.last_failed = errors[0], len(errors), last_failed
    return error


def _inputs(state: c_void_p, inputs: c_void_p,
            skipped: list[str] | None = None) -> Iterator[jv]:
    """The inputs' values; a bad one is InputError, or (``skipped``: jq's --seq) a line
    in ``skipped`` and the reading goes on."""
    while not _lib.jq_util_input_errors(inputs):  # as main.c: one value past a file it
        value = _lib.jq_util_input_next_input(inputs)  # could not open, then no more
        if _lib.jv_get_kind(value) != KIND_INVALID:
            yield value
            continue
        if _lib.jv_invalid_has_msg(_lib.jv_copy(value)):
            message = _message(_lib.jv_invalid_get_msg(value))
            if skipped is not None:
                skipped.append(f"jq: ignoring parse error: {message}")
                continue
            where = _message(_lib.jq_util_input_get_position(state))
            raise InputError(f"{message} (at {where})")
        _lib.jv_free(value)
        return
