"""Running `jqmagic query` and the jq 1.8.2 command line side by side.

The oracle is the jq binary built from the source the PyPI binding bundles
(scripts/build_jq_oracle.sh; `make test` builds it into the venv). `jqmagic query` runs in
this process with its standard streams replaced, so hundreds of cases cost milliseconds each.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ORACLE = Path(sys.executable).parent / "jq-1.8.2"
TIMED_OUT = -1


def files_in(folder: Path, files: dict[str, str]) -> Path:
    """``folder`` with each of ``files`` (name -> text) written in it, as UTF-8."""
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def needs_oracle(test):
    """Marks ``test`` as running the jq 1.8.2 command line (``-m 'not oracle'`` leaves it
    out) and skips it, saying why, when the oracle is not built."""
    test = pytest.mark.skipif(not ORACLE.exists(), reason="the jq 1.8.2 oracle is not built "
                              "(make test builds it with scripts/build_jq_oracle.sh)")(test)
    return pytest.mark.oracle(test)


@dataclass(frozen=True)
class Run:
    stdout: bytes
    stderr: bytes
    status: int


def jq(args: list[str], stdin: str | bytes, env: dict[str, str] | None = None,
       cwd: str | None = None, timeout: float = 10) -> Run:
    """The jq 1.8.2 command line's answer (status TIMED_OUT past ``timeout``)."""
    try:
        done = subprocess.run([str(ORACLE), *args], input=_bytes(stdin), capture_output=True,
                              timeout=timeout, env={**os.environ, **(env or {})}, cwd=cwd)
    except subprocess.TimeoutExpired:
        return Run(b"", b"", TIMED_OUT)
    return Run(done.stdout, done.stderr, done.returncode)


def jqmagic(args: list[str], stdin: str | bytes, env: dict[str, str] | None = None) -> Run:
    """``jqmagic query --all ARGS`` with ``stdin``, in this process. Its standard error is
    this process's fd 2 for the while, written through, so that what libjq's C writes
    there itself is caught in its place among the rest."""
    from jqmagic.cli import main

    out = io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", newline="")
    fake_in = io.TextIOWrapper(io.BytesIO(_bytes(stdin)), encoding="utf-8", newline="")
    with contextlib.ExitStack() as stack:
        for name, value in (env or {}).items():
            stack.enter_context(_environ(name, value))
        err = stack.enter_context(tempfile.TemporaryFile())
        stack.enter_context(_fd2_into(err))
        stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", newline="", write_through=True)
        stack.enter_context(_swap("stdin", fake_in))
        stack.enter_context(_swap("stdout", stdout))
        stack.enter_context(_swap("stderr", stderr))
        try:
            status = main(["query", "--all", *args])
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code if isinstance(exc.code, int) else 2
        stdout.flush()
        stderr.flush()
        err.seek(0)
        said = err.read()
    return Run(out.getvalue(), said, status)


@contextlib.contextmanager
def _fd2_into(file):
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(file.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# jq's words for an error on stderr: its line, and a compile error's program line and
# caret under it; jqmagic's: "error CODE: ..." up to its hint.
_JQ_ERROR = re.compile(rb"jq: (?!ignoring parse error)[^\n]*\n"
                       rb"(?:(?<=:\n)(?: {4}[^\n]*\n)+)?(?:\n(?=jq: ))?"
                       rb"(?:Use jq --help [^\n]*\n[^\n]*\n)?")
_JQMAGIC_ERROR = re.compile(rb"error [A-Z_]+: (?:(?!\nerror [A-Z_]+: ).)*?\nhint: [^\n]*\n"
                            rb"|error [A-Z_]+: [^\n]*\n", re.S)
ERROR = b"<error>"


def stderr_order(said: bytes, jq: bool) -> list[bytes]:
    """Standard error as a list: what the program wrote itself (``stderr``, ``debug``,
    ``halt_error``, --seq's skipped texts), byte for byte, between ``ERROR`` marks where
    errors were said, in jq's words (``jq``) or jqmagic's (each error said at once:
    several in a row count as one, as jq's compile errors and their count line)."""
    marked = _JQ_ERROR.sub(ERROR, said)  # (libjq's C says some in jq's words here too)
    if not jq:
        marked = _JQMAGIC_ERROR.sub(ERROR, re.sub(rb"(?m)^jqmagic: [^\n]*\n", b"", marked))
    parts = []
    for piece in re.split(b"(" + ERROR + b")", marked):
        if piece and not (piece == ERROR and parts and parts[-1] == ERROR):
            parts.append(piece)
    return parts


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode()


@contextlib.contextmanager
def _swap(name: str, stream):
    old = getattr(sys, name)
    setattr(sys, name, stream)
    try:
        yield
    finally:
        setattr(sys, name, old)


@contextlib.contextmanager
def _environ(name: str, value: str):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = old


def assert_stderr_as_jq(got: Run, expected: Run, worker: bool = False) -> None:
    """jqmagic's standard error in jq's order (:func:`stderr_order`), both ways (the
    worker's, with ``--timeout``, says a file that cannot be opened first: README,
    differences; the generators leave those out of its draws)."""
    jq_text = expected.stderr
    for more in _MORE_LINES.findall(got.stderr):  # an error message of several lines: jq's
        jq_text = re.sub(rb"(jq: error[^\n]*\n)" + re.escape(more), rb"\1", jq_text, count=1)
    said, jq_said = stderr_order(got.stderr, jq=False), stderr_order(jq_text, jq=True)
    assert said == jq_said, (worker, got.stderr, expected.stderr)


# the lines after the first of an error's message (jq's line holds only the first)
_MORE_LINES = re.compile(rb"error [A-Z_]+: jq error[^:\n]*: [^\n]*\n((?:(?!hint: )[^\n]*\n)+)"
                         rb"(?=hint: )")
