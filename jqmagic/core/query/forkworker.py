"""A worker forked from the calling process instead of started as a new interpreter: for
a command line (one thread, its modules already imported), a worker costs a fork, not an
interpreter's start-up and a second import of the package. It is the same worker
(:func:`jqmagic.core.query.worker.main`: confined, capped, dying with its caller) behind
the part of :class:`subprocess.Popen` the supervisor uses.

A process with other threads (a notebook kernel, an MCP server) never forks: a lock
another thread holds would stay held in the child forever."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import IO


def can_fork() -> bool:
    """Whether this process may fork a worker: POSIX, and no other thread running."""
    return hasattr(os, "fork") and threading.active_count() == 1


class ForkedWorker:
    """A forked worker process, its request pipe as ``stdin`` and replies as ``stdout``."""

    def __init__(self, env: dict[str, str], stderr: IO[bytes]):
        requests_read, requests_write = os.pipe()
        replies_read, replies_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _serve(env, stderr, requests_read, replies_write, (requests_write, replies_read))
        os.close(requests_read)
        os.close(replies_write)
        self.pid = pid
        self.returncode: int | None = None
        self.stdin = os.fdopen(requests_write, "wb", buffering=0)
        self.stdout = os.fdopen(replies_read, "rb", buffering=0)

    def poll(self) -> int | None:
        """The exit status (negative: the signal), or None while it runs."""
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)


def _serve(env: dict[str, str], stderr: IO[bytes], requests: int, replies: int,
           parents: tuple[int, int]) -> None:
    """The child's life: the worker's descriptors and environment, then its loop."""
    status = 1
    try:
        os.setsid()  # as start_new_session: a Ctrl-C at the terminal is the caller's
        for fd in parents:
            os.close(fd)
        os.dup2(requests, 0)
        os.dup2(replies, 1)
        os.dup2(stderr.fileno(), 2)
        os.close(requests)
        os.close(replies)
        os.environ.clear()
        os.environ.update(env)
        import tempfile

        tempfile.tempdir = None  # $TMPDIR is the worker's own folder now
        from jqmagic.core.query import worker

        worker.main()
        status = 0
    except BaseException:  # said as an interpreter says it (the caller shows the last line)
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(status)
