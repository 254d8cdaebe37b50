"""A worker never outlives its caller: when the process that started it is killed while a
program runs on with no timeout, the worker stops within seconds."""

from __future__ import annotations

import os
import subprocess
import sys
import time

CALLER = """
import sys
from jqmagic import query
from jqmagic.core.query.supervisor import shared_worker
shared_worker().warm()
print(shared_worker()._process.pid, flush=True)
query("last(range(1e18))", null_input=True, timeout=None)
"""


def test_the_worker_stops_when_its_caller_is_killed():
    with subprocess.Popen([sys.executable, "-c", CALLER], stdout=subprocess.PIPE,
                          text=True) as caller:
        worker = int(caller.stdout.readline())
        time.sleep(1.5)  # the runaway program is under way
        assert _alive(worker)
        caller.kill()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(worker), "the worker outlived its caller"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting to be reaped is gone too
        return stat.read().split(") ", 1)[1][0] != "Z"
