"""Running `jqmagic query` and the jq 1.8.2 command line side by side.

The oracle is the jq binary built from the source the PyPI binding bundles
(scripts/build_jq_oracle.sh; `make test` builds it into the venv). `jqmagic query` runs in
this process with its standard streams replaced, so hundreds of cases cost milliseconds each.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
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
    """``jqmagic query --all ARGS`` with ``stdin``, in this process."""
    from jqmagic.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    streams = {name: io.TextIOWrapper(buffer, encoding="utf-8", newline="")
               for name, buffer in (("stdout", out), ("stderr", err))}
    fake_in = io.TextIOWrapper(io.BytesIO(_bytes(stdin)), encoding="utf-8", newline="")
    with contextlib.ExitStack() as stack:
        for name, value in (env or {}).items():
            stack.enter_context(_environ(name, value))
        stack.enter_context(_swap("stdin", fake_in))
        stack.enter_context(_swap("stdout", streams["stdout"]))
        stack.enter_context(_swap("stderr", streams["stderr"]))
        try:
            status = main(["query", "--all", *args])
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code if isinstance(exc.code, int) else 2
        for stream in streams.values():
            stream.flush()
    return Run(out.getvalue(), err.getvalue(), status)


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
