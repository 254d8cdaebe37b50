"""Failed writes to standard output as jq 1.8.2's ``main.c`` treats them: remembered, the
run goes on, and ``jq: error: writing output failed: ...`` is said last (status 2)."""

from __future__ import annotations

import fcntl
import os


def failure_line(errno: int) -> str:
    """jq's line for a failed write (``strerror`` of its errno)."""
    return f"jq: error: writing output failed: {os.strerror(errno)}\n"


def writable(fd: int) -> bool:
    """Whether ``fd`` is open for writing (a descriptor the caller closed is held by a
    read-only /dev/null: jq's fclose(stdout) fails on it with EBADF)."""
    try:
        return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE != os.O_RDONLY
    except OSError:
        return False


def discard_writes(stream) -> None:
    """What is left in ``stream``'s buffer goes to /dev/null: no later flush (the
    interpreter's own at exit) fails again. A caller's stream (a test's) is left."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
