"""A script that holds its query_iter results open (zip over streams) while it asks again:
the call after the pool's last worker waited for ever for a worker only its own thread
could free, and ``clear_cache()`` with one result open did too. A thread that holds every
worker gets one more; ``clear_cache`` leaves the worker its own open results hold."""

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
