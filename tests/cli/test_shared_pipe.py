"""Standard output and standard error into one pipe (`jq ... 2>&1 | less`): the command
line buffers its results as jq's stdout is buffered (blocks of the pipe's size, written
when full and at the end), so what is said on stderr meanwhile lands where jq's lands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jqmagic.core.query import mainloop
from tests.cli.dropin import ORACLE, needs_oracle

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")


def _shared(command: list[str]) -> bytes:
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=60, check=False).stdout


@needs_oracle
@pytest.mark.parametrize("program", ['1, ("x\\n" | halt_error)', "1, (2 | debug), 3",
                                     "range(3000), ({a: 2} | stderr), 3",
                                     '"a", ({} | halt_error)'])
def test_one_pipe_holds_jqs_bytes_in_jqs_order(program):
    mine = _shared([sys.executable, "-m", "jqmagic", "query", "-n", program])
    assert mine == _shared([str(ORACLE), "-n", program])


def test_an_error_is_said_before_the_results_still_buffered():
    mine = _shared([sys.executable, "-m", "jqmagic", "query", "-n", '1, error("boom"), 2'])
    assert mine.startswith(b"error QUERY_ERROR") and mine.endswith(b".\n1\n"), mine
