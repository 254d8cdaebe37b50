"""Where jq runs: a supervised worker that a runaway program cannot take down."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from dataclasses import replace

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from jqmagic.core.query.supervisor import Supervisor, shared_worker, stopped_by
from jqmagic.core.settings import settings


def test_runaway_program_stops_at_its_timeout_and_the_next_query_works():
    started = time.monotonic()
    with pytest.raises(JqMagicError) as info:
        query("def f: f; f", null_input=True, timeout=1)
    assert info.value.code == "TIMEOUT"
    assert time.monotonic() - started < 5
    assert query("1 + 1", null_input=True).values == [2]


def test_interrupt_kills_the_worker_not_the_caller():
    # Python's own Ctrl-C handler: a test before this one in the same process may have left
    # another (an asyncio runner's swallows the first SIGINT; the run then ends in TIMEOUT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(JqMagicError) as info:
            query("last(range(1e18))", null_input=True, timeout=30)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert info.value.code == "INTERRUPTED"
    assert query("[limit(3; repeat(1))]", null_input=True).values == [[1, 1, 1]]


def test_a_crash_is_reported_and_the_worker_restarts(monkeypatch):
    monkeypatch.setattr(settings, "fast_path", False)  # these queries must reach the worker
    worker = shared_worker()
    query(".", value=1)  # make sure it runs
    pid = worker._process.pid
    threading.Timer(0.3, lambda: os.kill(pid, signal.SIGKILL)).start()  # mid-request
    with pytest.raises(JqMagicError) as info:
        query("last(range(1e10))", value=2)
    assert info.value.code in {"TOO_LARGE", "QUERY_ERROR"}
    assert query(".", value=3).values == [3]


def test_memory_cap_turns_an_explosion_into_too_large():
    worker = Supervisor(memory_limit=400 * 1024 * 1024)
    request = QueryRequest("[range(1e9)] | length", SourceSpec("null", None, {}),
                           RunSpec(null_input=True, timeout=60), keep=10,
                           layout={"indent": 2, "compact": False, "sort_keys": False,
                                   "tab": False})
    try:
        with pytest.raises(JqMagicError) as info:
            worker.request(request, timeout=60)
        assert info.value.code == "TOO_LARGE"
        end, texts = worker.request(replace(request, program="[range(3)]"), timeout=10)
        assert end.error is None and texts == [b"[\n  0,\n  1,\n  2\n]"]
    finally:
        worker.stop()


def test_a_stopped_query_leaves_no_temporary_file_or_partial_payload(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    monkeypatch.setattr(settings, "fast_path", False)  # libjq: only the kill stops it
    big = tmp_path / "big.yaml"
    big.write_text("".join(f"- {{a: {i}}}\n" for i in range(2000)))
    with pytest.raises(JqMagicError) as info:
        query(".[] | (range(1000), last(range(1e18)))", str(big), timeout=1)  # 900 spilled
    assert info.value.code == "TIMEOUT"
    assert not list((tmp_path / "payloads").glob("*/payload.json"))
    worker = shared_worker()
    assert worker._process is None  # killed; its folder of temporary files went with it
    assert query(".", value=1).values == [1]
    folder = worker._tmpdir
    worker.stop()
    assert not os.path.exists(folder)


def test_a_slow_call_does_not_hold_up_another():
    """While the shared worker runs a long program, another thread's query is answered by
    a spare worker within its own time."""
    worker, done = shared_worker(), threading.Event()
    slow = threading.Thread(target=lambda: _quietly(query, "last(range(1e8))", value=None,
                                                     timeout=20, stop=done))
    slow.start()
    try:
        time.sleep(1.0)  # the slow one holds the shared worker now
        started = time.monotonic()
        assert query("[1, 2] | add", value=None, timeout=5).values == [3]
        assert time.monotonic() - started < 5
        assert worker._lock.locked()  # still busy: a spare answered
    finally:
        done.set()  # the slow one is stopped, not run out (20 s of a core)
        slow.join()


def _quietly(function, *args, stop: threading.Event, **kwargs):
    """``function`` run until it ends or ``stop`` is set, its error ignored."""
    with contextlib.suppress(JqMagicError), stopped_by(stop):
        function(*args, **kwargs)


def test_a_parse_has_a_clock_of_its_own(tmp_path, monkeypatch):
    """A parse that takes far longer than its size needs ends in TIMEOUT (here made to
    look slow by a parse allowance of nothing): never a worker waiting forever."""
    from jqmagic.core.query import supervisor

    monkeypatch.setattr(supervisor, "PARSE_SECONDS", 0.0)
    monkeypatch.setattr(supervisor, "PARSE_RATES", {"yaml": 1e15})
    path = tmp_path / "slow.yaml"
    path.write_text("".join(f"- {{a: {i}, b: [x, y, z]}}\n" for i in range(100_000)))
    with pytest.raises(JqMagicError) as info:
        query("length", str(path), timeout=60)
    assert info.value.code == "TIMEOUT" and "Parsing" in info.value.message
    assert query(".", value=1).values == [1]


def test_a_queued_call_takes_whichever_worker_frees_first():
    """Every worker busy: a call waits for the first to free, not for one named worker
    (the first member's lock was waited on even when a spare freed at once)."""
    pool = Supervisor(spares=1)
    forever, short = threading.Event(), threading.Event()
    request = QueryRequest("last(range(1e9))", SourceSpec("null", None, {}),
                           RunSpec(null_input=True, timeout=60), keep=10,
                           layout={"indent": 2, "compact": False, "sort_keys": False,
                                   "tab": False})
    slow = threading.Thread(target=_quietly, args=(pool.request, request, 60),
                            kwargs={"stop": forever})
    try:
        slow.start()
        time.sleep(1.0)  # the first worker is busy for a minute
        brief = threading.Thread(target=_quietly, args=(pool.request, request, 60),
                                 kwargs={"stop": short})
        brief.start()
        time.sleep(1.0)  # now the spare too, until `short` is set
        threading.Timer(1.0, short.set).start()
        started = time.monotonic()
        end, texts = pool.request(replace(request, program="1 + 1"), timeout=30)
        assert (end.error, texts) == (None, [b"2"])
        assert time.monotonic() - started < 30 and slow.is_alive()  # the spare took it
    finally:
        forever.set()
        slow.join()
        pool.stop_all()


def test_idle_work_that_meets_a_line_orjson_refuses_leaves_the_worker_alive(tmp_path):
    """A second question extends a JSON Lines file and marks it to be read whole in the
    worker's idle time; a member no question read holds a number orjson refuses
    (``1e1000``): the idle read gives up, the worker lives on with its cache."""
    path = tmp_path / "log.jsonl"
    path.write_text("".join(f'{{"a": {i}, "b": {i}, "c": [1e1000]}}\n' for i in range(2000)))
    worker = shared_worker()
    assert query("[inputs | .a] | add", str(path), null_input=True).values == [1999000]
    assert query("[inputs | .b] | add", str(path), null_input=True).values == [1999000]
    pid = worker._process.pid
    time.sleep(0.5)  # idle time
    answer = query("[inputs | .a + .b] | add", str(path), null_input=True)
    assert answer.values == [3998000] and answer.engine == "fast"
    assert worker._process.pid == pid
