"""libjq's words that need no library loaded: its print and parse flags, the errors a run
ends with, how arguments reach it, jq 1.8.2's module search list and build configuration.
Shared by :mod:`.libjq` (ctypes, in the worker) and :mod:`.mainloop` (the command line,
through ``_jqmain`` in C): a command's start-up imports no ctypes."""

from __future__ import annotations

import os

from jqmagic.core.jsonarg import JsonText
from jqmagic.core.settings import sandboxed

LIBJQ_RESIDENT_PER_BYTE = 14
"""Resident bytes a JSON document's text costs parsed by libjq 1.8.2 (-O2), per byte: jq
1.8.2's peak RSS over the text (bench/readings.py --ratio) was 13.4 for an array of small
objects, 14.0 for an array of integers, 6.9 for objects with longer strings (the number
literals it keeps cost most); the worst, so that a file judged to fit does."""

KIND_INVALID, KIND_NULL, KIND_NUMBER, KIND_STRING = 0, 1, 4, 5  # jv.h's kinds
PRINT_PRETTY, PRINT_ASCII, PRINT_COLOR, PRINT_SORTED, PRINT_TAB = 1, 2, 4, 8, 64
PARSE_SEQ, PARSE_STREAMING, PARSE_STREAM_ERRORS = 1, 2, 4  # jv.h: --seq, --stream, ...
READ_FAILED = "could not read the input"  # a file opened, then a read failed (EIO)
DEFAULT_SEARCH = ["~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"]  # jq 1.8.2's main.c
# how the libjq jqmagic runs was configured (setup.py's CONFIGURE, CFLAGS aside; the
# binding's copy is built with the same Oniguruma): what jq's --build-configuration and
# $JQ_BUILD_CONFIGURATION say of the jq binary
BUILD_CONFIGURATION = ("--with-oniguruma=builtin --disable-docs --disable-maintainer-mode "
                       "--disable-shared --enable-static")


class CompileError(Exception):
    """The program did not compile; ``args[0]`` holds jq's messages, one per line."""


class RunError(Exception):
    """The program raised an uncaught error; ``args[0]`` is jq's message."""


class InputError(Exception):
    """An input could not be read or parsed; ``args[0]`` is jq's message."""


class Halt(Exception):
    """The program called ``halt`` or ``halt_error``."""

    def __init__(self, exit_code: int, message: str | None, said: str = ""):
        super().__init__(message or f"halted with exit code {exit_code}")
        self.exit_code = exit_code
        self.message = message
        self.said = said  # what jq's main.c writes on stderr: a string as it is, else JSON


def halt_of(code_kind: int, code_text: str | None, message_kind: int,
            message: str | None) -> Halt:
    """What ``halt`` / ``halt_error`` left, read as jq's main.c reads it: the exit code's
    kind and JSON text, the message's kind and text (a string's own, else its JSON)."""
    if code_kind == KIND_INVALID:
        exit_code = 0
    elif code_kind == KIND_NUMBER:
        exit_code = int(float(code_text))
    else:
        exit_code = 5
    if message_kind == KIND_INVALID:
        return Halt(exit_code, None)
    said = message if message_kind == KIND_STRING else "" if message_kind == KIND_NULL \
        else message + "\n"
    return Halt(exit_code, message, said)


def compile_failure(messages: list[str]) -> CompileError:
    """The error of a program that did not compile: libjq's messages, without its count
    of them ("jq: 2 compile errors") unless that is all it said."""
    said = [m for m in messages if not m.endswith("compile error")
            and not m.endswith("compile errors")] or messages
    return CompileError("\n".join(said))


def search_list(library_paths: list[str] | None) -> list[str]:
    """Where modules are searched: ``-L`` paths, else jq's default list; none at all in the
    sandbox (nor ``~/.jq``)."""
    if sandboxed():
        return []
    return library_paths if library_paths is not None else DEFAULT_SEARCH


class homeless:  # noqa: N801 - a context manager named as what it makes
    """No ``$HOME`` while libjq compiles a sandboxed program (``with homeless():``): libjq
    imports ``~/.jq`` into every program it compiles, found through ``$HOME`` whatever the
    library path is (a class: contextlib costs a command's start-up)."""

    def __enter__(self) -> None:
        self._home = os.environ.pop("HOME", None) if sandboxed() else None

    def __exit__(self, *_: object) -> None:
        if self._home is not None:
            os.environ["HOME"] = self._home


def utf8(text: str | bytes) -> bytes:
    """A word's bytes as the command line gave them: an invalid UTF-8 byte in ``argv``
    comes to Python as a lone surrogate (surrogateescape) and goes to libjq as that byte,
    which libjq replaces as jq's ``jv_string`` does (a lone surrogate of a Python caller's
    text goes as its three bytes: replaced the same way)."""
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


class RawJson(str):
    """JSON text to splice as written into the arguments libjq parses."""


class LoadedFile:
    """A named argument that is a file's value, read by libjq when the program is
    compiled (``--rawfile``: ``raw``; ``--slurpfile``): jq's own value, no text between."""

    __slots__ = ("path", "raw")

    def __init__(self, path: str, raw: bool) -> None:
        self.path, self.raw = path, raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LoadedFile) and (self.path, self.raw) == (other.path,
                                                                            other.raw)

    def __hash__(self) -> int:
        return hash((self.path, self.raw))

    def __repr__(self) -> str:
        return f"LoadedFile(path={self.path!r}, raw={self.raw!r})"


ARG_STRING, ARG_JSON, ARG_RAWFILE, ARG_SLURPFILE = 0, 1, 2, 3  # _jqprogram.c's kinds


def argument(value: object) -> tuple[int, bytes]:
    """One argument as libjq takes it: a string's bytes (``jv_string``), JSON text (its
    parser: --argjson, --jsonargs, any other Python value as its JSON) or a file's path."""
    if isinstance(value, LoadedFile):
        return ARG_RAWFILE if value.raw else ARG_SLURPFILE, os.fsencode(value.path)
    if isinstance(value, str) and not isinstance(value, (RawJson, JsonText)):
        return ARG_STRING, utf8(value)
    if not isinstance(value, str):
        import json

        value = json.dumps(value)
    return ARG_JSON, utf8(value)


def dump_flags(indent: int = 2, compact: bool = False, sort_keys: bool = False,
               ascii: bool = False, tab: bool = False, color: bool = False) -> int:
    """The ``jv_dump_string`` flags for jq's ``-c``, ``--indent``, ``--tab``, ``-S``, ``-a``,
    ``-C``."""
    flags = PRINT_COLOR if color else 0
    if tab and not compact:
        flags |= PRINT_TAB | PRINT_PRETTY
    elif not compact:  # jq 1.8.2: --indent 0 is pretty, with no indentation
        flags |= min(indent, 7) << 8 | PRINT_PRETTY
    if sort_keys:
        flags |= PRINT_SORTED
    if ascii:
        flags |= PRINT_ASCII
    return flags
