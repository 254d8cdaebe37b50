"""The pool sends a query about a file to the worker that parsed it, and side work (a
shape, a hint) elsewhere: a file is parsed once per kernel, not once per worker."""

from __future__ import annotations

import json
import threading

import pytest

from jqmagic.core.options import Source
from jqmagic.core.query import affinity, protocol
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from jqmagic.core.query.supervisor import Supervisor

LAYOUT = {"indent": 2, "compact": False, "sort_keys": False, "tab": False}


@pytest.fixture
def pool(monkeypatch):
    """A pool of two whose answering members are recorded in order."""
    members: list[Supervisor] = []
    asked = Supervisor._asked

    def recorded(self, request, timeout):
        members.append(self)
        return asked(self, request, timeout)

    monkeypatch.setattr(Supervisor, "_asked", recorded)
    made = Supervisor(spares=1)
    made.members = members
    yield made
    made.stop_all()


def _query(path, cwd: str = "") -> QueryRequest:
    return QueryRequest(".a", SourceSpec("file", str(path), {}), RunSpec(timeout=30),
                        keep=10, layout=LAYOUT, caller=protocol.Caller(cwd=cwd))


def test_side_work_leaves_the_file_s_worker_to_the_next_query(pool, tmp_path):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"a": 1}))
    assert pool.request(_query(path), 30)[1] == [b"1"]
    # a shape made after the cell (the completion's warming) takes another worker...
    pool.call("shape", 30, source=Source.of(file=str(path)).to_wire(), path="", depth=0)
    # ...so the next question meets its parsed file where it was parsed
    assert pool.request(_query(path), 30)[1] == [b"1"]
    first, side, again = pool.members
    assert side is not first and again is first


def test_a_query_waits_for_the_busy_worker_that_holds_its_file(pool, tmp_path,
                                                                monkeypatch):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"a": 2}))
    pool.request(_query(path), 30)
    monkeypatch.setattr(affinity, "PATIENCE", (10.0, 10.0))
    pool._lock.acquire()  # the holder is busy (another thread's question) for a moment
    threading.Timer(0.5, pool._release, [pool]).start()
    assert pool.request(_query(path), 30)[1] == [b"2"]
    assert pool.members == [pool, pool]


def test_past_its_patience_another_worker_parses_the_file(pool, tmp_path, monkeypatch):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"a": 3}))
    pool.request(_query(path), 30)
    monkeypatch.setattr(affinity, "PATIENCE", (0.05, 0.05))
    pool._lock.acquire()
    try:
        assert pool.request(_query(path), 30)[1] == [b"3"]
    finally:
        pool._release(pool)
    assert pool.members[1] is not pool


def test_a_file_is_known_by_its_absolute_path_from_the_caller_s_directory(tmp_path):
    relative = _query("doc.json", cwd=str(tmp_path))
    absolute = _query(tmp_path / "doc.json", cwd="/")
    assert affinity.file_key(relative) == affinity.file_key(absolute) == (
        str(tmp_path / "doc.json"),)
    assert affinity.file_key(protocol.Control("stop")) is None
    assert affinity.file_key(QueryRequest(".", SourceSpec("null", None, {}))) is None


def test_a_restarted_worker_holds_nothing(pool, tmp_path):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"a": 4}))
    request = _query(path)
    pool.request(request, 30)
    key = affinity.file_key(request)
    assert pool._holders.holder(key).member is pool
    pool.stop()
    assert pool._holders.holder(key) is None
