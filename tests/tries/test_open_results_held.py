"""A script that holds its query_iter results open (zip over streams) while it asks again:
the call after the pool's last worker waited for ever for a worker only its own thread
could free, and ``clear_cache()`` with one result open did too; threads that each ask a
query inside a loop over another's results, more threads than workers, waited for each
other for ever. When every worker is held by this thread or threads waiting too, one more
is started; ``clear_cache`` leaves the worker its own open results hold."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import jqmagic
from jqmagic.core.query.run import query_iter
from jqmagic.core.settings import settings

settings.workers = 2
streams = [query_iter("range(1e9) | . * %d" % k, null_input=True) for k in range(1, 5)]
print([next(s) for s in streams], [next(s) for s in streams])
print(jqmagic.query("1 + 1", value=None).values)
jqmagic.clear_cache()
print([next(s) for s in streams])
for s in streams:
    s.close()
print(jqmagic.query("[range(3)]", value=None, compact=True).text)
"""


def test_streams_held_open_by_one_thread_never_wait_for_ever():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["[0, 0, 0, 0] [1, 2, 3, 4]", "[2]",
                                        "[2, 4, 6, 8]", "[0,1,2]"]


THREADS = """
import time
from concurrent.futures import ThreadPoolExecutor

import jqmagic
from jqmagic.core.query.run import query_iter
from jqmagic.core.settings import settings

settings.workers = 2


def job(k):
    out = []
    for x in query_iter("range(%d; %d + 3)" % (k, k), null_input=True):
        time.sleep(0.02)
        out.append(jqmagic.query(". * 2", value=x).values[0])
    return out


with ThreadPoolExecutor(6) as pool:
    print(list(pool.map(job, range(6))))
"""


def test_threads_asking_inside_their_loops_never_wait_for_each_other():
    done = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str([[2 * (k + i) for i in range(3)] for k in range(6)])


def test_results_left_open_at_exit_say_nothing():
    """A script that ends with results open: their generators closed after the workers
    were stopped at exit printed 'Exception ignored in: <generator object
    Supervisor._asked ...> ValueError: I/O operation on closed file', one a result."""
    script = ("from jqmagic.core.query.run import query_iter\n"
              "streams = [query_iter('range(1e9)', null_input=True) for _ in range(2)]\n"
              "print([next(s) for s in streams])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[0, 0]\n", "")
