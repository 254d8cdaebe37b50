"""The document cache and the fast path inside query(): parse once per file version, same
answers as the worker (values, text, bounds, payloads), deadlines, JSON Lines."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.query import doccache, fastpath, worker
from jqmagic.core.settings import settings
from tests.core.jqlang.oracle import worker_only
from tests.core.query.inline import inline_worker


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch):
    """The worker's cache, watched from here: the worker's code runs in this process."""
    doccache.documents.clear()
    worker.jv_documents.clear()
    with inline_worker(monkeypatch):
        yield
    doccache.documents.clear()
    worker.jv_documents.clear()


@pytest.fixture
def loads(monkeypatch):
    """Count the files the cache parses."""
    parsed: list[str] = []
    real = doccache.load_file

    def counting(path, fmt, *rest):
        parsed.append(os.path.basename(path))
        return real(path, fmt, *rest)

    monkeypatch.setattr(doccache, "load_file", counting)
    return parsed


@pytest.fixture
def answered(monkeypatch):
    """Record whether the fast path answered each query (when it is on)."""
    seen: list[bool] = []
    real = fastpath.answer

    def recording(request, sink):
        got = real(request, sink)
        if settings.fast_path:
            seen.append(got)
        return got

    monkeypatch.setattr(fastpath, "answer", recording)
    return seen


def write(path, value) -> str:
    path.write_text(json.dumps(value))
    return str(path)


def test_a_file_is_parsed_once_per_version(tmp_path, loads, answered):
    path = write(tmp_path / "a.json", {"n": [1, 2, 3]})
    assert query(".n | length", path).values == [3]
    assert query(".n | add", path).values == [6]
    assert loads == ["a.json"] and answered == [True, True]
    write(tmp_path / "a.json", {"n": [1, 2, 3, 4]})  # size changes
    assert query(".n | length", path).values == [4]
    os.utime(path, ns=(0, 10**9))  # mtime changes
    query(".n", path)
    assert loads == ["a.json"] * 3


def test_no_cache_parses_again_and_keeps_nothing(tmp_path, loads):
    path = write(tmp_path / "a.json", [1])
    query(".", path, cache=False)
    query(".", path, cache=False)
    assert loads == ["a.json", "a.json"] and doccache.documents.size == 0


def test_least_recently_used_goes_first(tmp_path, loads, monkeypatch):
    paths = [write(tmp_path / f"{name}.json", list(range(40))) for name in "abc"]
    size = os.path.getsize(paths[0])
    monkeypatch.setattr(settings, "doc_cache_bytes", 2 * size)
    for path in paths[:2] + paths[:1] + paths[2:]:  # a, b, a, c: b is the oldest
        query("length", path)
    loads.clear()
    query("length", paths[0])
    query("length", paths[1])
    assert loads == ["b.json"]


def test_a_file_over_the_budget_is_not_kept(tmp_path, loads, monkeypatch):
    monkeypatch.setattr(settings, "doc_cache_bytes", 10)
    path = write(tmp_path / "big.json", list(range(100)))
    assert query("length", path).values == query("length", path).values == [100]
    assert loads == [] and doccache.documents.size == 0  # streamed (streameval), not parsed


def test_yaml_is_cached_and_answers_like_the_worker(tmp_path, loads, answered):
    path = tmp_path / "d.yaml"
    path.write_text("a: 1.5\nb: [x, 2020-01-02]\n---\na: 2\n")
    got = query("[.a, .b]", path, compact=True)
    query(".a", path)
    with worker_only():
        want = query("[.a, .b]", path, compact=True)
    assert (got.text, got.values) == (want.text, want.values)
    assert loads == ["d.yaml"] and answered == [True, True]


def test_bounds_and_payloads_are_the_same_either_way(tmp_path, answered, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    path = write(tmp_path / "many.json", [{"id": i, "x": "y" * 50} for i in range(150)])
    for kwargs in ({"limit": 100}, {"limit": 5}, {"max_tokens": 100}, {"passthrough": True}):
        got = query(".[]", path, **kwargs)
        with worker_only():
            want = query(".[]", path, **kwargs)
        assert (got.values, got.text, got.total, got.truncated) == \
            (want.values, want.text, want.total, want.truncated)
        assert got.message.split(" The full")[0] == want.message.split(" The full")[0]
        if want.payload_id:
            assert Path(got.payload_path).read_text() == Path(want.payload_path).read_text()
    assert answered == [True] * 4


def test_json_lines_are_streamed_and_equal(tmp_path, answered):
    path = tmp_path / "e.jsonl"
    path.write_text("".join(json.dumps({"id": i, "s": i % 7}) + "\n" for i in range(500)))
    got = query("select(.s > 5) | .id", path, passthrough=True)
    slurped = query("map(.s) | add", path, slurp=True)
    with worker_only():
        assert got.values == query("select(.s > 5) | .id", path, passthrough=True).values
        assert slurped.values == query("map(.s) | add", path, slurp=True).values
    assert answered == [True, True]


def test_declines_go_to_the_worker(tmp_path, answered):
    path = tmp_path / "odd.json"
    path.write_text('{"price": 1.50, "n": 1e2, "z": -0}')
    assert query(".price", path).text == "1.50"  # a literal printed as written: learnt
    assert query(".z", path).text == "-0"  # read as 0: libjq prints it
    assert query("[.n > 50, .price < 2]", path, compact=True).text == "[true,true]"
    with pytest.raises(JqMagicError) as info:
        query(".price.x", path)  # a jq error: libjq words it
    assert info.value.code == "QUERY_ERROR" and "Cannot index number" in info.value.message
    assert answered == [True, False, True, False]


def test_namespace_variables_reach_the_fast_path(answered):
    assert query("[.[] | select(. > $low)]", value=[1, 5, 9], namespace={"low": 4},
                 compact=True).text == "[5,9]"
    assert answered == [True]


def test_the_fast_path_keeps_the_deadline():
    started = time.monotonic()
    with pytest.raises(JqMagicError) as info:
        query("[.[] as $x | .[] | select(. == $x)] | length", value=list(range(30_000)),
              timeout=0.3)
    assert info.value.code == "TIMEOUT"
    assert time.monotonic() - started < 5


def test_no_cache_flag_of_the_magic(run_cell, tmp_path, loads):
    path = write(tmp_path / "m.json", {"a": 1})
    run_cell(f"%jq .a {path} --no-cache")
    run_cell(f"%jq .a {path} --no-cache")
    assert loads == ["m.json", "m.json"] and doccache.documents.size == 0
