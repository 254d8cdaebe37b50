"""Ctrl-C while a loop over jqmagic.query_iter works: INTERRUPTED, as query() says it."""

from __future__ import annotations

import collections
import os
import signal
import threading
import time

import pytest

import jqmagic
from jqmagic import JqMagicError
from jqmagic.core.query.supervisor import shared_worker


@pytest.fixture
def python_ctrl_c():
    """Python's own Ctrl-C handler (an earlier test may have left an asyncio runner's)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupted_after(seconds: float, consume) -> BaseException | None:
    """What ``consume`` raises when a real SIGINT reaches this process after ``seconds``."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        consume()
    except BaseException as error:  # noqa: BLE001 -- the very thing under test
        return error
    finally:
        timer.join()
    return None


@pytest.mark.parametrize("delay", [0.2, 0.35, 0.5])
def test_ctrl_c_mid_iteration_is_interrupted_and_the_worker_answers_next(python_ctrl_c,
                                                                          delay):
    jqmagic.query("1", null_input=True)  # the worker started: the signal lands mid-run
    results = jqmagic.query_iter("range(1e9)", null_input=True)
    # consumed in C: no Python frame of the test's own runs between values, so the
    # signal always lands in the iterator's code (parsing a value, reading a chunk)
    error = interrupted_after(delay, lambda: collections.deque(results, maxlen=0))
    assert isinstance(error, JqMagicError), repr(error)
    assert error.code == "INTERRUPTED"
    started = time.monotonic()
    assert jqmagic.query("1 + 1", null_input=True).values == [2]
    assert time.monotonic() - started < 1.0


def test_an_interrupted_iterator_held_by_the_caller_holds_no_worker(python_ctrl_c):
    jqmagic.query("1", null_input=True)
    results = jqmagic.query_iter("range(1e9)", null_input=True)  # kept in a name
    error = interrupted_after(0.3, lambda: collections.deque(results, maxlen=0))
    assert isinstance(error, JqMagicError) and error.code == "INTERRUPTED"
    pool = shared_worker()
    assert all(m._owner is None for m in (pool, *pool._spares))  # its run was given back
    assert jqmagic.query("[limit(3; repeat(1))]", null_input=True).values == [[1, 1, 1]]
