"""libjq reads a text given as its standard input ("-": a query's text, a command line's
stdin) in blocks, whatever Python's -u (PYTHONUNBUFFERED) did to C's stdin."""

from __future__ import annotations

from ctypes import c_void_p
from pathlib import Path

from jqmagic.core.query import libjq, libjqinput

_IONBF = 2  # <stdio.h>'s unbuffered mode, as python -u leaves C's stdin


def _reads() -> int:
    """This process's read() calls so far."""
    lines = Path("/proc/self/io").read_text().splitlines()
    return int(next(line for line in lines if line.startswith("syscr:")).split()[1])


def test_a_text_on_stdin_is_read_in_blocks(tmp_path):
    path = tmp_path / "text.json"
    path.write_text("[" + "1," * 500_000 + "1]")  # 1 MB: one read() per byte was 14 s a 50 MB
    libjq._libc.setvbuf(c_void_p.in_dll(libjq._libc, "stdin"), None, _IONBF, 0)
    program = libjq.compile_program("length", {}, [], [])
    before = _reads()
    assert list(libjqinput.run(program, [str(path)], stdin=str(path))) == ["500001"]
    assert _reads() - before < 1_000  # 64 kB blocks: about 16
