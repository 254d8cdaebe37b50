"""Run jq programs with libjq itself, through ctypes, as the jq command line does.

The PyPI ``jq`` wheel bundles libjq 1.8.2 and exports its C API. Driving that API
directly (instead of the binding's Python layer) gives jq's real semantics: ``input`` and
``inputs``, ``input_filename``, ``$ARGS``, ``halt_error``, files read by path, and numbers
printed from their literals (64-bit integers stay exact); its
inputs are :mod:`.libjqinput`'s. This module is only ever used
inside the worker process (:mod:`jqmagic.core.query.serve`): libjq can hang or abort its
process, and it holds the GIL while it runs.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import CFUNCTYPE, POINTER, Structure, Union, c_char_p, c_double, c_int, c_void_p

from jqmagic.core.jsonarg import JsonText
from jqmagic.core.query.cloop import _jqmain
from jqmagic.core.query.jqdefs import (  # noqa: F401 - libjq's words, kept here as before
    ARG_JSON,
    ARG_STRING,
    BUILD_CONFIGURATION,
    DEFAULT_SEARCH,
    KIND_INVALID,
    KIND_NULL,
    KIND_NUMBER,
    KIND_STRING,
    PARSE_SEQ,
    PARSE_STREAM_ERRORS,
    PARSE_STREAMING,
    PRINT_ASCII,
    PRINT_COLOR,
    PRINT_PRETTY,
    PRINT_SORTED,
    PRINT_TAB,
    READ_FAILED,
    CompileError,
    Halt,
    InputError,
    LoadedFile,
    RawJson,
    RunError,
    argument,
    compile_failure,
    halt_of,
    homeless,
    search_list,
    utf8,
)
from jqmagic.core.query.jqdefs import dump_flags as _dump_flags
from jqmagic.core.query.texts import Texts
from jqmagic.core.settings import libjq_path, sandboxed

TYPE_CHECKING = False  # the command line's start-up imports this module: no typing, json or
if TYPE_CHECKING:  # dataclasses (each costs milliseconds before jq's own start)
    from collections.abc import Iterator


class _Payload(Union):
    _fields_ = [("ptr", c_void_p), ("number", c_double)]


class jv(Structure):  # noqa: N801 - the C type's name
    """libjq's value type, passed by value (16 bytes)."""

    _fields_ = [
        ("kind_flags", ctypes.c_ubyte),
        ("pad_", ctypes.c_ubyte),
        ("offset", ctypes.c_ushort),
        ("size", c_int),
        ("u", _Payload),
    ]


MSG_CB = CFUNCTYPE(None, c_void_p, jv)
INPUT_ERR_CB = CFUNCTYPE(None, c_void_p, c_char_p)


def _load() -> ctypes.CDLL:
    """libjq 1.8.2: an optimised build when one is installed, else the binding's copy."""
    lib = ctypes.CDLL(libjq_path())
    signatures = {
        "jq_init": (c_void_p,),
        "jq_teardown": (None, POINTER(c_void_p)),
        "jq_compile_args": (c_int, c_void_p, c_char_p, jv),
        "jq_set_attr": (None, c_void_p, jv, jv),
        "jq_set_error_cb": (None, c_void_p, MSG_CB, c_void_p),
        "jq_set_debug_cb": (None, c_void_p, MSG_CB, c_void_p),
        "jq_set_stderr_cb": (None, c_void_p, MSG_CB, c_void_p),
        "jq_set_input_cb": (None, c_void_p, c_void_p, c_void_p),
        "jq_start": (None, c_void_p, jv, c_int),
        "jq_next": (jv, c_void_p),
        "jq_halted": (c_int, c_void_p),
        "jq_get_exit_code": (jv, c_void_p),
        "jq_get_error_message": (jv, c_void_p),
        "jq_util_input_init": (c_void_p, INPUT_ERR_CB, c_void_p),
        "jq_util_input_free": (None, POINTER(c_void_p)),
        "jq_util_input_set_parser": (None, c_void_p, c_void_p, c_int),
        "jq_util_input_add_input": (None, c_void_p, c_char_p),
        "jq_util_input_next_input": (jv, c_void_p),
        "jq_util_input_errors": (c_int, c_void_p),
        "jq_util_input_get_position": (jv, c_void_p),
        "jv_parser_new": (c_void_p, c_int),
        "jv_parse_sized": (jv, c_char_p, c_int),
        "jv_string_sized": (jv, c_char_p, c_int),
        "jv_string_value": (c_void_p, jv),  # a pointer: the text may hold NUL bytes
        "jv_string_length_bytes": (c_int, jv),
        "jv_dump_string": (jv, jv, c_int),
        "jv_get_kind": (c_int, jv),
        "jv_copy": (jv, jv),
        "jv_free": (None, jv),
        "jv_invalid_has_msg": (c_int, jv),
        "jv_invalid_get_msg": (jv, jv),
        "jv_parser_set_buf": (None, c_void_p, c_char_p, c_int, c_int),
        "jv_parser_next": (jv, c_void_p),
        "jv_parser_free": (None, c_void_p),
        "jq_set_colors": (c_int, c_char_p),
        "jv_array": (jv,),
        "jv_array_append": (jv, jv, jv),
        "jv_object": (jv,),
        "jv_object_set": (jv, jv, jv, jv),
        "jv_load_file": (jv, c_char_p, c_int),
    }
    for name, (restype, *argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


_lib = _load()
_libc = ctypes.CDLL(None)
_NEXT_INPUT_CB = ctypes.cast(_lib.jq_util_input_next_input_cb, c_void_p)


def _text(value: jv) -> str:
    """The bytes of a jv string as str; consumes ``value``."""
    n = _lib.jv_string_length_bytes(_lib.jv_copy(value))
    data = ctypes.string_at(_lib.jv_string_value(value), n)
    _lib.jv_free(value)
    return data.decode("utf-8", "replace")


def _dump(value: jv, flags: int = 0) -> str:
    """jq's own JSON text of a jv; consumes ``value``."""
    return _text(_lib.jv_dump_string(value, flags))


dump = _dump


def array(values: list[jv]) -> jv:
    """A jq array of ``values`` (consumed, and the list emptied)."""
    whole = _lib.jv_array()
    for value in values:
        whole = _lib.jv_array_append(whole, value)
    values.clear()
    return whole


def _message(value: jv) -> str:
    """A jv message as jq prints it: strings raw, anything else as JSON; consumes."""
    if _lib.jv_get_kind(value) == KIND_STRING:
        return _text(value)
    return _dump(value)


def _error_message(value: jv) -> str:
    """An uncaught error's message as jq's main.c words it: ``error(null)`` and other
    values that are not strings say so; consumes."""
    if _lib.jv_get_kind(value) == KIND_STRING:
        return _text(value)
    return f"(not a string): {_dump(value)}"


def _parse(text: str | bytes) -> jv:
    data = utf8(text)
    return _lib.jv_parse_sized(data, len(data))


def _string(text: str | bytes) -> jv:
    data = utf8(text)
    return _lib.jv_string_sized(data, len(data))


def loaded_value(file: LoadedFile) -> jv:
    """A file argument's value as jq's main.c reads it (``jv_load_file``); InputError with
    libjq's words ("Could not open f: ...", a parse error)."""
    loaded = _lib.jv_load_file(os.fsencode(file.path), int(file.raw))
    if _lib.jv_get_kind(loaded) == KIND_INVALID:
        raise InputError(_message(_lib.jv_invalid_get_msg(loaded)))
    return loaded


def loaded_text(file: LoadedFile) -> str:
    """A file argument's text (``raw``: NUL bytes kept, each invalid UTF-8 sequence one
    U+FFFD, a BOM kept), else the JSON text of the array of its values; InputError."""
    value = loaded_value(file)
    return _text(value) if file.raw else _dump(value)


def set_colors(colors: str) -> bool:
    """jq's ``jq_set_colors`` of ``$JQ_COLORS`` (False: libjq refused the text)."""
    return bool(_lib.jq_set_colors(utf8(colors)))


def dump_flags(*, colors: str | None = None, **layout: bool | int) -> int:
    """:func:`.jqdefs.dump_flags`, with ``$JQ_COLORS`` given to libjq first when ``-C``
    colours the output (as jq's main.c sets them)."""
    if layout.get("color") and colors is not None:
        _lib.jq_set_colors(colors.encode())
    return _dump_flags(**layout)


class Program:
    """A compiled program: one ``jq_state`` with its named arguments bound."""

    def __init__(self, state: c_void_p) -> None:
        self.state = state
        self.messages: list[str] = []
        self.callbacks: tuple = ()
        self.last_kind = KIND_INVALID  # the last result's (-e: a number printed as null is NaN)
        self.debug_flags = 0  # debug's dump flags (-C: a NaN coloured as jq's number)
        self.arguments: jv | None = None  # held while it runs, as main.c holds its own

    def close(self) -> None:
        _lib.jq_teardown(ctypes.byref(self.state))
        if self.arguments is not None:
            _lib.jv_free(self.arguments)
            self.arguments = None


def compile_program(text: str, args: dict | None = None,
                    library_paths: list[str] | None = None,
                    positional: list | tuple = (), program_origin: str | None = None) -> Program:
    """Compile ``text`` with ``$name`` bound for each named argument and ``$ARGS`` (named
    and ``positional``, as --args/--jsonargs give them); raise CompileError. Modules are
    searched as jq's main.c sets it: ``library_paths`` (-L), else jq's default list, with
    ``$ORIGIN`` the folder of the command (the interpreter's: the venv's bin, where the
    ``jqmagic`` command is) and relative ``search`` paths from ``program_origin`` (-f's
    file's folder; the working folder without -f). In the sandbox libjq gets no library
    path at all and never reads ``~/.jq``."""
    state = c_void_p(_lib.jq_init())
    program = Program(state)

    def on_error(_data, msg):
        program.messages.append(_message(msg))

    def on_debug(_data, msg):
        said = array([_string("DEBUG:"), msg])  # as jq's command line prints it
        program.messages.append(_dump(said, program.debug_flags))

    def on_stderr(_data, msg):
        program.messages.append(_message(msg))

    program.callbacks = (MSG_CB(on_error), MSG_CB(on_debug), MSG_CB(on_stderr))
    _lib.jq_set_error_cb(state, program.callbacks[0], None)
    _lib.jq_set_debug_cb(state, program.callbacks[1], None)
    _lib.jq_set_stderr_cb(state, program.callbacks[2], None)
    paths = search_list(library_paths)
    _lib.jq_set_attr(state, _string("JQ_LIBRARY_PATH"), array([_string(p) for p in paths]))
    _lib.jq_set_attr(state, _string("JQ_ORIGIN"), _string(os.path.dirname(sys.executable)))
    _lib.jq_set_attr(state, _string("PROGRAM_ORIGIN"),
                     _string(os.path.realpath(program_origin or ".")))
    try:
        arguments = _arguments(args or {}, positional)
    except CompileError:
        program.close()
        raise
    program.arguments = _lib.jv_copy(arguments)  # (--debug-trace shows jq's refcounts)
    with homeless():
        compiled = _lib.jq_compile_args(state, utf8(text), arguments)
    if not compiled:
        program.close()
        raise compile_failure(program.messages)
    return program



def _arguments(named: dict, positional: list | tuple) -> jv:
    """The named arguments as jq's main.c binds them, each word's bytes given to libjq
    (strings by ``jv_string``, JSON text by its parser), plus ``$ARGS`` (jq's own,
    whatever the named arguments are called: ``--arg ARGS v`` included) and
    ``$JQ_BUILD_CONFIGURATION`` unless named."""
    bound = _lib.jv_object()
    for name, value in named.items():
        bound = _lib.jv_object_set(bound, _string(name), _argument(value))
    listed = array([_argument(value) for value in positional])
    whole = _lib.jv_object_set(_lib.jv_object(), _string("positional"), listed)
    whole = _lib.jv_object_set(whole, _string("named"), _lib.jv_copy(bound))
    bound = _lib.jv_object_set(bound, _string("ARGS"), whole)
    if "JQ_BUILD_CONFIGURATION" in named:
        return bound
    return _lib.jv_object_set(bound, _string("JQ_BUILD_CONFIGURATION"),
                              _string(BUILD_CONFIGURATION))


def _argument(value) -> jv:
    """One argument's value (:func:`.jqdefs.argument`): JSON text parsed (jq's usage error
    when it does not parse), a string as its bytes, a file as libjq reads it."""
    if isinstance(value, LoadedFile):
        return loaded_value(value)
    kind, data = argument(value)
    if kind == ARG_STRING:
        return _lib.jv_string_sized(data, len(data))
    parsed = _lib.jv_parse_sized(data, len(data))
    if _lib.jv_get_kind(parsed) == KIND_INVALID:  # libjq would abort on it: say why
        why = _message(_lib.jv_invalid_get_msg(parsed))
        raise CompileError(f"jq: error: invalid JSON text passed to --argjson: {why}")
    return parsed


def _json_object(values: dict) -> str:
    """A JSON object's text, :class:`RawJson` values spliced as written."""
    import json

    parts = [f"{json.dumps(k)}: {v if isinstance(v, RawJson) else json.dumps(_keyed(v))}"
             for k, v in values.items()]
    return "{" + ", ".join(parts) + "}"


def _keyed(value):
    """A value as the program cache's key holds it (a file by its name)."""
    return [value.path, value.raw] if isinstance(value, LoadedFile) else value


def _json_array(values: list | tuple) -> str:
    """A JSON array's text, JSON text values (--jsonargs) spliced as written."""
    import json

    return "[" + ", ".join(v if isinstance(v, (RawJson, JsonText)) else json.dumps(v)
                           for v in values) + "]"


class ProgramCache:
    """Compiled programs by (text, arguments, library paths), least recently used out."""

    def __init__(self, size: int = 64):
        self.size = size
        self._programs: dict[str, Program] = {}  # oldest first

    def get(self, text: str, args: dict | None, library_paths: list[str] | None,
            positional: list | tuple = (), program_origin: str = "") -> Program:
        import json

        key = json.dumps([text, _json_object(args or {}), library_paths, _json_array(positional),
                          program_origin, sandboxed()])
        program = self._programs.pop(key, None)
        if program is not None and "break" in text:
            # libjq numbers labels per jq_state ({"__jq": N}, never reset), and a caught
            # break shows N: a new state per run counts from 0, as a new jq process does
            program.close()
            program = None
        if program is None:
            program = compile_program(text, args, library_paths, positional,
                                      program_origin or None)
        self._programs[key] = program
        while len(self._programs) > self.size:
            self._programs.pop(next(iter(self._programs))).close()
        return program


def _results(program: Program, value: jv, flags: int) -> Iterator[str]:
    program.debug_flags = flags & ~PRINT_PRETTY  # debug's lines as jq's main.c dumps them
    return (_dump(result, flags) for result in results(program, value))


def results(program: Program, value: jv) -> Iterator[jv]:
    """The results of ``program`` on ``value`` (consumed), as owned jvs; RunError or Halt
    when the program stops with an error or a halt."""
    _lib.jq_start(program.state, value, 0)
    while True:
        result = _lib.jq_next(program.state)
        kind = _lib.jv_get_kind(result)
        if kind != KIND_INVALID:
            program.last_kind = kind
            yield result
            continue
        _ended(program, result)
        return


def _ended(program: Program, result: jv) -> None:
    """The invalid value that ended a run read (consumed): RunError or Halt, or nothing
    (the results' end)."""
    if _lib.jq_halted(program.state):
        _lib.jv_free(result)
        raise _halt(program.state)
    if _lib.jv_invalid_has_msg(_lib.jv_copy(result)):
        raise RunError(_error_message(_lib.jv_invalid_get_msg(result)))
    _lib.jv_free(result)


BATCH_BYTES = 1 << 16  # result text dumped in C before Python sees it


def result_batches(program: Program, value: jv, flags: int) -> Iterator[Texts]:
    """:func:`_results` as UTF-8, a batch at a time: dumped in C (``_jqmain.results``: no
    Python object or ctypes call per result) into one piece."""
    program.debug_flags = flags & ~PRINT_PRETTY
    if _jqmain is None:  # (no C compiler at install)
        texts = (_dump(result, flags).encode() for result in results(program, value))
        while batch := [t for _, t in zip(range(256), texts, strict=False)]:
            yield Texts(batch)
        return
    _lib.jq_start(program.state, value, 0)
    while True:
        body, sizes, kind, end = _jqmain.results(program.state.value, flags, BATCH_BYTES)
        if kind:
            program.last_kind = kind
        if body:
            yield Texts.of_lines(body, sizes)
        if end is not None:
            _ended(program, jv.from_buffer_copy(end))
            return


def _halt(state: c_void_p) -> Halt:
    """What ``halt`` / ``halt_error`` left, read as jq's main.c reads it."""
    code = _lib.jq_get_exit_code(state)
    code_kind = _lib.jv_get_kind(code)
    if code_kind == KIND_NUMBER:
        code_text = _dump(code)
    else:
        _lib.jv_free(code)
        code_text = None
    error = _lib.jq_get_error_message(state)
    kind = _lib.jv_get_kind(error)
    if kind == KIND_INVALID:
        _lib.jv_free(error)
        return halt_of(code_kind, code_text, kind, None)
    return halt_of(code_kind, code_text, kind, _message(error))
