"""The ``jqmagic`` script (``bin/jqmagic``, installed by setup.py) and the exit it ends with:
no ``re`` for pip's launcher, atexit's functions run, the status and every byte kept."""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

import jqmagic

ROOT = Path(jqmagic.__file__).resolve().parent.parent
LAUNCHER = ROOT / "bin" / "jqmagic"


def _run(code: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``code`` in a bare interpreter (no site: an editable install's finder imports re)."""
    paths = [str(ROOT), *site.getsitepackages()]
    return subprocess.run([sys.executable, "-I", "-S", "-c",
                           f"import sys\nsys.path[:0] = {paths!r}\n{code}"],
                          input=stdin, capture_output=True, timeout=60, cwd=ROOT)


@pytest.mark.skipif(not LAUNCHER.exists(), reason="run from an installed copy, not the tree")
def test_the_launcher_runs_the_command_line_without_re():
    code = ("sys.argv = ['jqmagic', 'query', '-c', '.a']\n"
            f"exec(compile(open({str(LAUNCHER)!r}).read(), 'jqmagic', 'exec'), "
            "{'__name__': '__main__'})")
    probe = ("import sys, atexit\n"
             "atexit.register(lambda: print('re' in sys.modules, file=sys.stderr))\n")
    run = _run(probe + code, b'{"a": [1]}')
    assert (run.returncode, run.stdout) == (0, b"[1]\n"), run.stderr
    assert run.stderr.split()[-1] == b"False"  # pip's own launcher imports re


def test_atexit_functions_run_and_the_status_is_kept():
    code = ("import atexit, sys\natexit.register(print, 'said at exit', file=sys.stderr)\n"
            "sys.argv = ['jqmagic', 'query', '-e', '.a']\n"
            "from jqmagic.cli import command\ncommand()\n")
    run = _run(code, b'{"a": false}')
    assert (run.returncode, run.stdout) == (1, b"false\n")
    assert b"said at exit" in run.stderr


def test_output_still_in_python_buffers_is_written(tmp_path):
    code = ("import sys\nsys.argv = ['jqmagic', 'query', '-n', '1']\n"
            "print('x' * 100000, end='')\n"  # held in sys.stdout's buffer until the end
            "from jqmagic.cli import command\ncommand()\n")
    with open(tmp_path / "out", "wb") as out:
        run = subprocess.run([sys.executable, "-c", code], stdout=out, stderr=subprocess.PIPE,
                             timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out").read_bytes().startswith(b"x" * 100000)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full is Linux's")
def test_a_buffer_that_cannot_be_written_gets_pythons_exit():
    code = ("import sys\nsys.argv = ['jqmagic', 'query', '-n', '1']\nprint('x', end='')\n"
            "from jqmagic.cli import command\ncommand()\n")
    with open("/dev/full", "wb") as full:
        run = subprocess.run([sys.executable, "-c", code], stdout=full, stderr=subprocess.PIPE,
                             timeout=60, cwd=ROOT)
    assert run.returncode != 0  # the interpreter's own exit says the lost write
