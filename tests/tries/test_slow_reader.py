"""A caller that reads slowly (a paused iterator, `jqmagic query --timeout 2 ... | less`)
does not make --timeout fire: the time the results wait for it is not the program's, on
the caller's clock (the end already in the pipe) nor on the worker's (its writes blocked
on a full pipe). A runaway is still stopped."""

import time

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import open_results

LIBJQ = " | . as $x | input_filename | $x"  # (libjq's engine: the fast path has no input_filename)


def _read_with_a_pause(program: str, pause: float, after: int = 1) -> int:
    count = 0
    with open_results(program, null_input=True, timeout=1, passthrough=True) as run:
        for _ in run.texts():
            count += 1
            if count == after:
                time.sleep(pause)
    return count


def test_a_finished_run_waits_for_its_caller():
    assert _read_with_a_pause("range(10)" + LIBJQ, 1.5) == 10


def test_a_run_blocked_on_a_full_pipe_is_not_timed_meanwhile():
    program = 'range(2000)' + LIBJQ + ' | tostring * 500'  # ~1 MB: more than a pipe holds
    assert _read_with_a_pause(program, 1.5, after=10) == 2000


def test_a_runaway_after_a_result_is_still_stopped():
    started = time.monotonic()
    with pytest.raises(JqMagicError) as stopped:
        _read_with_a_pause("1, last(range(1e11))" + LIBJQ, 0)
    assert stopped.value.code == "TIMEOUT" and time.monotonic() - started < 8


def test_the_fast_path_is_not_timed_while_its_results_wait():
    """The fast path's own deadline stands still while its chunks wait on the pipe."""
    assert _read_with_a_pause("range(50000) | tostring * 20", 1.5, after=10) == 50000


def test_a_fast_path_runaway_after_a_wait_is_still_stopped():
    started = time.monotonic()
    with pytest.raises(JqMagicError) as stopped:
        _read_with_a_pause("(range(50000) | tostring * 20), last(range(1e11))", 1.5,
                           after=10)
    assert stopped.value.code == "TIMEOUT" and time.monotonic() - started < 12
