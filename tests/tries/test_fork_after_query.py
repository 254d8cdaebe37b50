"""A process forked after it asked a question (multiprocessing's fork pool, a pre-forking
server) asks its own: every query in the child raised ChildProcessError (the parent's
worker is no child of its), and a child leaving by exit must not stop the parent's."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

import jqmagic

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")


def _ask(number: int) -> list:
    return jqmagic.query(".a", text=f'{{"a": {number}}}').values


def test_a_fork_pool_answers_after_the_parent_asked():
    assert _ask(0) == [0]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map(_ask, [1, 2, 3]) == [[1], [2], [3]]
    assert _ask(4) == [4]


SCRIPT = """
import os, sys
import jqmagic
from jqmagic.core.query import supervisor

assert jqmagic.query(".a", text='{"a": 5}').values == [5]
worker = supervisor.shared_worker()._process
pid = os.fork()
if pid == 0:  # the child asks, then leaves by the interpreter's exit: atexit runs
    sys.exit(0 if jqmagic.query(".a", text='{"a": 6}').values == [6] else 1)
assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0, "the child failed"
assert supervisor.shared_worker()._process is worker and worker.poll() is None
assert jqmagic.query(".a", text='{"a": 7}').values == [7]
print("ok")
"""


def test_a_child_that_exits_leaves_the_parents_worker_running(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr
