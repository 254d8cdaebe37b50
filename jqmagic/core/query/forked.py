"""Work done beside this process on the other core: a forked child that computes, writes
its answer to a pipe and leaves at once (nothing of the parent's is cleaned up)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable


def beside(send: Callable[[int], None]) -> tuple[int, int] | None:
    """Fork a child that runs ``send(writing_fd)``; (its pid, the pipe's reading end), or
    None when it cannot be started (the caller then does the work itself)."""
    try:
        reading, writing = os.pipe()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the child only computes
            child = os.fork()
    except OSError:
        return None
    if child == 0:
        status = 1
        try:
            send(writing)
            status = 0
        finally:
            os._exit(status)
    os.close(writing)
    return child, reading


def answer(started: tuple[int, int]) -> bytes:
    """What the child wrote (all of it), once it has left."""
    child, reading = started
    with os.fdopen(reading, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    return data
