"""Heavy reads happen in the worker: a shape or a hint of a file never loads it in the
caller, and what comes back can only be plain data."""

from __future__ import annotations

import json
import os
import pickle

import pytest

from jqmagic import JqMagicError, query, shape
from jqmagic.core import sources
from jqmagic.core.query import forkworker, protocol
from jqmagic.core.query.supervisor import Supervisor
from jqmagic.core.shape import hints, infer
from jqmagic.core.shape import source as shape_source


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "users.json"
    path.write_text(json.dumps({"users": [{"name": "a", "id": 1}, {"name": "b", "id": 2}]}))
    return str(path)


@pytest.fixture
def nothing_read_here(monkeypatch):
    """Reading a document in this process fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a document was read in the caller")

    for module in (shape_source, infer, hints):
        monkeypatch.setattr(module, "open_source", refuse)
    monkeypatch.setattr(sources, "load_values", refuse)
    # a worker forked from here would inherit the refusals: one started now is spawned
    monkeypatch.setattr(forkworker, "can_fork", lambda: False)


def test_a_files_shape_comes_from_the_worker(doc, nothing_read_here):
    result = shape(doc, stats=True)
    assert result.value["children"]["users"]["arrayLength"] == 2
    assert result.node.count == 1 and result.node.keys["users"].items.count == 2


def test_hints_come_from_the_worker(doc, nothing_read_here):
    assert "did you mean .users?" in query(".usr", doc).message
    with pytest.raises(JqMagicError) as info:
        query(".users.name", doc)
    assert ".users[].name" in info.value.hint


def test_a_python_values_shape_is_made_here():
    assert shape(value=[1, 2]).value["arrayLength"] == 2


def test_a_call_that_runs_out_of_memory_costs_the_worker_only(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "w") as out:  # about 60 MB of small objects: far past a 256 MB cap
        out.write("[" + ",".join(['{"a":[1,2,3],"b":"x"}'] * 2_500_000) + "]")
    worker = Supervisor(memory_limit=256 * 2**20)
    try:
        with pytest.raises(JqMagicError) as info:
            worker.call("shape", None, source={"kind": "file", "spec": str(big),
                                              "formats": {}}, stream=False)
        assert info.value.code == "TOO_LARGE"
        assert worker.call("shape", None, source={"kind": "text", "spec": "[1]",
                                                  "formats": {}}).value["arrayLength"] == 1
    finally:
        worker.stop()


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_an_answer_can_only_build_plain_data():
    assert protocol.answer_value(protocol.answer_bytes({"a": [1, {2}]})) == {"a": [1, {2}]}
    with pytest.raises(pickle.UnpicklingError):
        protocol.answer_value(pickle.dumps(_Evil()))
