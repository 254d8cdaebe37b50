"""What went wrong in a run, as a coded error: jq's compile, run, input and halt errors."""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from typing import TYPE_CHECKING

from jqmagic.core.errors import JqMagicError, caret_excerpt
from jqmagic.core.words import count as counted
from jqmagic.core.words import cut, term

if TYPE_CHECKING:
    from jqmagic.core import sources

PRECISE_ERROR_BYTES = 64 * 1024 * 1024
MESSAGE_CHARS = 2_000  # a jq error message shown at most (error("x" * 1e7) stays bounded)
UNDEFINED_VAR = re.compile(r"\$(\w+) is not defined")
UNDEFINED_FUNCTION = re.compile(r"^(\w+)/(\d+) is not defined")
_POSITION = re.compile(r"at line (\d+), column (\d+)")
_COMPILE_PLACE = re.compile(r"^jq: error: (?P<what>.*?)(?: at <top-level>, line (?P<line>\d+)"
                            r"(?:, column (?P<col>\d+))?)?:?$")


def compile_error(error: str, program: str) -> JqMagicError:
    """INVALID_QUERY from libjq's compile messages, with a caret under the place."""
    lines = [line for line in error.splitlines() if line.strip()]
    first = lines[0] if lines else "the program does not compile"
    match = _COMPILE_PLACE.match(first)
    what = match["what"] if match else first.removeprefix("jq: error: ")
    detail = ""
    if match and match["line"] and match["col"]:
        detail = caret_excerpt(program, int(match["line"]), int(match["col"]))
    hint = "Check the jq syntax; quote keys with special characters: .\"my-key\"."
    if "memory exhausted" in what:  # bison's stack (YYMAXDEPTH), not the machine's memory
        hint = ("The program nests deeper than jq's parser goes (about 10,000 levels of "
                "pipes, `as` bindings or brackets): write it flatter, e.g. reduce over a list.")
    mismatch = _mismatched(program) if "unexpected" in what else None
    if mismatch:
        hint = mismatch
    if "unexpected end of file" in what:
        hint = "The program stops too early: close every (, [, { and \" it opens."
        if program.rstrip().endswith("|"):
            hint = "The program ends with a pipe: write the filter that comes after it."
    var = UNDEFINED_VAR.search(error)
    if var:
        hint = f"Bind it with {term('bind', var[1])}."
    function = UNDEFINED_FUNCTION.search(what)
    if function:
        hint = _function_hint(function[1], int(function[2]))
    extra = len([line for line in lines[1:] if line.startswith("jq: error")])
    more = f" (and {counted(extra, 'more error')})" if extra else ""
    return JqMagicError("INVALID_QUERY", f"Invalid jq program: {cut(what, MESSAGE_CHARS)}{more}",
                        hint, detail)


_CLOSES = {"(": ")", "[": "]", "{": "}", "\\(": ")"}


def _mismatched(program: str) -> str | None:
    """Where a bracket is closed by another kind (``{a: 1)``) or closes nothing, said
    with the fix; None when they pair (strings, their ``\\(...)`` and comments read as
    jq reads them)."""
    opened: list[tuple[str, int]] = []
    at, in_string = 0, False
    while at < len(program):
        char = program[at]
        if in_string:
            if char == "\\" and program[at + 1:at + 2] == "(":
                opened.append(("\\(", at))
                in_string, at = False, at + 2
                continue
            at += 2 if char == "\\" else 1
            in_string = in_string and char != '"'
            continue
        if char == "#":
            end = program.find("\n", at)
            at = len(program) if end < 0 else end
            continue
        if char == '"':
            in_string = True
        elif char in "([{":
            opened.append((char, at))
        elif char in ")]}":
            if not opened:
                return f"The {char} at {_place(program, at)} closes nothing: remove it."
            opener, start = opened.pop()
            if _CLOSES[opener] != char:
                return (f"The {opener[-1]} opened at {_place(program, start)} is closed by "
                        f"{char} at {_place(program, at)}: close it with {_CLOSES[opener]}.")
            in_string = opener == "\\("
        at += 1
    return None


def _place(program: str, at: int) -> str:
    """``column N`` (``line L, column N`` in a program of several lines), counted from 1."""
    line = program.count("\n", 0, at)
    column = at - (program.rfind("\n", 0, at) + 1) + 1
    return f"line {line + 1}, column {column}" if "\n" in program else f"column {column}"


def _function_hint(name: str, arity: int) -> str:
    """Did-you-mean for an undefined function, from jq's own builtins (same arity first)."""
    known = _builtins()
    same = [n for n, count in known if count == arity]
    close = difflib.get_close_matches(name, same, n=1) or \
        difflib.get_close_matches(name, [n for n, _ in known], n=1, cutoff=0.8)
    if close:
        arities = sorted(count for n, count in known if n == close[0])
        return f"{name}/{arity} is no jq builtin; did you mean {close[0]} " \
            f"(taking {_arguments(arities)})?"
    params = f"({'; '.join('f' + str(i) for i in range(1, arity + 1))})" if arity else ""
    return f"{name}/{arity} is no jq builtin: define it first (def {name}{params}: ...;)."


def _arguments(arities: list[int]) -> str:
    """``no arguments``, ``1 argument``, ``1 or 2 arguments``: how many a builtin takes."""
    if arities == [0]:
        return "no arguments"
    return " or ".join(map(str, arities)) + (" argument" if arities == [1] else " arguments")


@functools.cache
def _builtins() -> tuple[tuple[str, int], ...]:
    """jq 1.8.2's builtins as (name, arity), asked of libjq itself."""
    from jqmagic.core.query import libjq, libjqinput

    program = libjq.compile_program("[builtins[] | split(\"/\") | [.[0], (.[1] | tonumber)]]")
    try:
        value = next(libjq.results(program, libjqinput.parse_text("null")[0]))
        return tuple((name, arity) for name, arity in json.loads(libjq.dump(value)))
    finally:
        program.close()


def run_error(error: str, total: int, stopped: bool = True) -> JqMagicError:
    """QUERY_ERROR for an uncaught jq error after ``total`` results (``stopped``: the error
    ended the run; else inputs failed each on its own and the others ran on)."""
    after = "" if not total else f" (after {counted(total, 'result')})" if stopped else \
        f" ({counted(total, 'result')} in all)"
    hint = f"Check the types along the path; try {term('inspect_bare')} on the input or " \
        "add `?` to skip values that do not fit." if about_types(error) else \
        "`input` found no input left (jq says break): read them with `inputs`, or write " \
        "`try input`." if error.strip() == "break" else \
        "The program raised this error itself (jq's error): `try ... catch .` gives its " \
        "message as a value; `?` goes on past it."
    return JqMagicError("QUERY_ERROR", f"jq error{after}: {cut(error, MESSAGE_CHARS)}", hint)


_KIND = r"(?:null|boolean|number|string|array|object)"
_TYPE_ERROR = re.compile(r"(?:^|: )(?:"
                         # jq's own "Cannot ..." (jv_aux.c, execute.c) name a kind: a
                         # program's error("Cannot find the user") is no type error
                         r"Cannot (?:(?:index|iterate over|use|check whether|delete fields "
                         rf"from|delete|update field at) {_KIND}\b|update string slices|set "
                         r"array element at NaN)"
                         rf"|{_KIND} \(.*\) (?:and {_KIND} \(.*\) )?"
                         r"(?:cannot|has no|is not|have|only|can't|can not))"
                         # a builtin's own words: "explode input must be a string",
                         # "startswith() requires string inputs", "split input and ..."
                         r"|(?:^|: )\w+(?:\(\))? (?:input(?: and \w+)? must be|requires \w+ "
                         r"inputs?)")


def about_types(message: str) -> bool:
    """Whether a jq run error (or its QUERY_ERROR message) is about a value's type (jq's
    ``Cannot index ...``, ``number (1) and string ("a") cannot be added``), not a message
    the program raised itself with ``error``."""
    return _TYPE_ERROR.search(message) is not None


def halt_error(exit_code: int, message: str | None) -> JqMagicError | None:
    """QUERY_ERROR for ``halt_error``; None for a plain ``halt`` (status 0, no message)."""
    if exit_code == 0 and not message:
        return None
    error = JqMagicError("QUERY_ERROR", f"halt_error (exit status {exit_code}): "
                         f"{cut((message or '').rstrip(), MESSAGE_CHARS)}",
                         "The program stopped itself with halt_error.")
    error.exit_code = exit_code
    return error


def input_error(error: str, prepared: sources.Prepared) -> JqMagicError:
    """INVALID_JSON / FILE_ERROR for an input libjq could not read, at the exact place."""
    from jqmagic.core import sources  # rare: not on every command line's start-up
    from jqmagic.core.query.libjq import READ_FAILED  # (loaded: it failed the read)

    if error == READ_FAILED:  # libjq said why on its own stderr (jq's line), as jq does
        failed = JqMagicError("FILE_ERROR", "An input file could not be read (a read "
                              "failed after it opened).", "Check the files and the disk.")
        failed.exit_code = 2  # jq's status when its reader failed
        return failed
    where = re.search(r"\(at (?P<file>.*):\d+\)$", error)
    path = where["file"] if where else (prepared.files[0] if prepared.files else "<input>")
    if path == "<stdin>" and prepared.stdin:  # read as jq reads stdin: the text's file
        path = prepared.stdin
    why = error[: where.start()].strip() if where else error
    label = prepared.label(path)
    position = _POSITION.search(why)
    if position is None or not os.path.isfile(path):
        if why == path or os.path.basename(why) == os.path.basename(path):
            return JqMagicError("FILE_ERROR", f"Could not read {label}.",
                                "Check that the file exists and is readable.")
        return JqMagicError("INVALID_JSON", f"{label}: {cut(why, MESSAGE_CHARS)}",
                            "Check the JSON syntax.")
    wide = _wide_text(path)
    if wide is not None:
        return wide
    fmt = prepared.formats.get(path, "json")
    if fmt == "jsonc":  # libjq read the text blanked of comments (lines and columns kept):
        path = prepared.names.get(path, path)  # the user's own, parsed and shown
    precise = _python_parse_error(path, label, fmt)
    if precise is not None:
        return precise
    line, column = int(position[1]), int(position[2])
    why = why[: position.start()].strip()
    text, shown_line, shown_column = _read_line_window(path, line, column)
    if shown_column > len(text.split("\n")[shown_line - 1]) + 1:  # past its line's end: jq
        # counted on from an earlier file that ended without a newline (one stream)
        return JqMagicError("INVALID_JSON", f"{label}, line {line}, column {column}: {why}",
                            "jq reads the files as one stream: its line and column count on "
                            "from a file before that ends without a newline.")
    error = sources.invalid_json(label, why, text, shown_line, shown_column, fmt)
    if (shown_line, shown_column) != (line, column):  # the place as jq says it, the
        error = JqMagicError(error.code, f"{label}, line {line}, column {column}: {why}",
                             error.raw_hint, error.detail)  # excerpt from the window
    return error


def unreadable(name: str) -> JqMagicError | None:
    """A file named on a command line that cannot be opened, in jq's sentence ("Could not
    open file NAME: why") with the core's hint (similar names); None when it can be read
    after all, or a sandbox's refusal, raised: that stops the run."""
    from jqmagic.core.sources.files import resolve_files

    try:
        resolve_files(name)
    except JqMagicError as exc:
        if exc.code not in ("NOT_FOUND", "FILE_ERROR"):
            raise
        why = "No such file or directory" if exc.code == "NOT_FOUND" else exc.message
        return JqMagicError(exc.code, f"Could not open file {name}: {why}", exc.raw_hint)
    return None


def _wide_text(path: str) -> JqMagicError | None:
    """FILE_ERROR, at jq's status for a parse error (5), when a file libjq could not
    parse is UTF-16 or UTF-32 text: jq reads bytes and fails on it; the hint converts it.
    (A file is not refused for its first bytes before: ``1\0`` is jq's 1.)"""
    from jqmagic.core.sources import check_encoding

    with open(path, "rb") as handle:
        head = handle.read(4)
    try:
        check_encoding(path, head)
    except JqMagicError as exc:
        exc.exit_code = 5
        return exc
    return None


def _python_parse_error(path: str, label: str, fmt: str) -> JqMagicError | None:
    """Python's parser points at the exact character; ask it when the file is not huge."""
    if os.path.getsize(path) > PRECISE_ERROR_BYTES:
        return None
    from jqmagic.core import sources

    try:
        sources.parse_json(sources.read_text(path, confined=False), label, fmt)
    except JqMagicError as exc:
        return exc if exc.code == "INVALID_JSON" else None
    return None


WINDOW_BYTES = 4096  # of a line, read around an error's place (a line may be gigabytes)


def _read_line_window(path: str, line: int, column: int) -> tuple[str, int, int]:
    """Text enough for an excerpt of ``line`` at ``column``, read in a bounded window
    whatever the lines' lengths and number: the start of the line before it, and
    ``line``'s bytes around the column (``...`` where its start was skipped); the line
    and column of the place in that text."""
    with open(path, "rb") as handle:
        before = b""
        for _ in range(line - 1):
            before = _skip_line(handle)
        skip = max(0, column - 1 - WINDOW_BYTES // 2)
        handle.seek(skip, os.SEEK_CUR)
        piece = handle.read(WINDOW_BYTES).split(b"\n", 1)[0]
    prefix = b"..." if skip else b""
    head = before.rstrip(b"\r\n") + b"\n" if line > 1 else b""
    text = head + prefix + piece
    return text.decode("utf-8", "replace"), 2 if line > 1 else 1, column - skip + len(prefix)


def _skip_line(handle) -> bytes:
    """Read past one line, keeping (and returning) only its first WINDOW_BYTES."""
    start = handle.readline(WINDOW_BYTES)
    chunk = start
    while chunk and not chunk.endswith(b"\n"):
        chunk = handle.readline(1 << 20)
    return start
