"""A worker that runs out of its memory cap, wherever it was, says TOO_LARGE with the form
that would stream, and the next call answers (issue 52: orjson under an address-space cap
raises SystemError over a MemoryError, which ended the worker with exit status 1)."""

from __future__ import annotations

import pytest

import jqmagic
from jqmagic.core.errors import out_of_memory
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings


def _raised_over(cause: BaseException) -> BaseException:
    try:
        try:
            raise cause
        except BaseException as inner:
            raise SystemError("<built-in function loads> returned a result with an "
                              "exception set") from inner
    except SystemError as outer:
        return outer


def test_out_of_memory_is_seen_through_the_exceptions_raised_over_it():
    assert out_of_memory(MemoryError())
    assert out_of_memory(_raised_over(MemoryError()))
    assert not out_of_memory(_raised_over(ValueError("a bug, not a cap")))
    assert not out_of_memory(None)


@pytest.fixture
def capped_worker():
    saved = settings.worker_memory
    settings.worker_memory = 600 * 2**20
    shared_worker().stop()  # the next call starts a worker under the cap
    try:
        yield
    finally:
        settings.worker_memory = saved
        shared_worker().stop()


def test_a_shape_past_the_cap_is_too_large_and_the_next_call_answers(tmp_path, capped_worker):
    empties = tmp_path / "empties.json"  # 36 MB of text, about 900 MB of Python lists
    empties.write_text("[" + ",".join(["[]"] * 12_000_000) + "]")
    with pytest.raises(jqmagic.JqMagicError) as failed:
        jqmagic.shape(str(empties))
    assert failed.value.code == "TOO_LARGE", failed.value
    assert "--stream" in failed.value.hint
    assert jqmagic.query("[1, 2] | add", null_input=True).values == [3]
    small = tmp_path / "small.json"
    small.write_text("[[], [1]]")
    assert jqmagic.shape(str(small)).value["arrayLength"] == 2
