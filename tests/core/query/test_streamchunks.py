"""An array read in runs of whole elements (streaming/chunks.py): every cut is after an
element, whatever the layout or the strings hold; the document around it is checked; and
the streamed answers are libjq's own, text for text."""

from __future__ import annotations

import io
import json

import orjson
import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import query
from jqmagic.core.query.streaming import chunks

ITEMS = [{"s": "a},{b", "n": [{"x": 1}, {"y": [2, 3]}]}, {"s": "]", "v": -1.5},
         {"s": "\\\",{", "v": 10}, {}, {"deep": {"a": {"b": [{"c": "},{"}]}}}] * 40


def _read(text: str, keys: tuple[str, ...], monkeypatch, block: int = 64) -> tuple[list, bytes]:
    monkeypatch.setattr(chunks, "BLOCK_BYTES", block)  # many cuts, elements across blocks
    handle = io.BytesIO(text.encode())
    start = chunks.array_start(handle, keys)
    assert start is not None
    runs = chunks.Runs(handle, start, orjson.loads)
    elements = [element for run in runs for element in run]
    chunks.check_skeleton(handle, start, runs.suffix or b"", keys)
    return elements, runs.suffix


@pytest.mark.parametrize("layout", [{"separators": (",", ":")}, {}, {"indent": 2}])
def test_runs_are_whole_elements_in_order_whatever_the_layout(layout, monkeypatch):
    text = json.dumps({"meta": {"a": [1, {"b": "readings"}]}, "readings": ITEMS,
                       "after": True}, **layout)
    elements, suffix = _read(text, ("readings",), monkeypatch)
    assert elements == ITEMS and b"after" in suffix


def test_an_array_of_numbers_and_an_empty_one(monkeypatch):
    assert _read(json.dumps({"a": list(range(500))}), ("a",), monkeypatch)[0] == \
        list(range(500))
    assert _read('{"a": []}', ("a",), monkeypatch)[0] == []


def test_what_does_not_read_this_way_says_so():
    assert chunks.array_start(io.BytesIO(b'{"a": {"b": 1}}'), ("a",)) is None  # no array
    assert chunks.array_start(io.BytesIO(b'{"b": [1]}'), ("a",)) is None  # no such key
    handle = io.BytesIO(b'{"a": [1, 2], "a": [3]}')  # jq keeps the last: not this way
    start = chunks.array_start(handle, ("a",))
    runs = chunks.Runs(handle, start, orjson.loads)
    assert [e for run in runs for e in run] == [1, 2]
    with pytest.raises(chunks.Unchunked):
        chunks.check_skeleton(handle, start, runs.suffix, ("a",))


def _readings(tmp_path, monkeypatch) -> str:
    monkeypatch.setattr(chunks, "BLOCK_BYTES", 256)
    rows = ",".join(f'{{"v": {v}, "s": "{s}"}}' for v, s in [
        ("-0", "zero"), ("1.50", "\\u00e9 escaped"), ("100000000000000000001", "big"),
        ("3", "é},{"), ("2.5e-3", "x")] * 60)
    path = tmp_path / "r.json"
    path.write_text('{"station": "n", "r": [' + rows + "]}")
    return str(path)


@pytest.mark.parametrize("program", ["[.r[] | select(.v > 2)] | length", "[.r[].v] | add",
                                     ".r | length", ".r[] | .s", "first(.r[] | .v)",
                                     "[.r[] | .v] | max", ".r[]", ".r[] | .v, .s",
                                     ".r[] | select(.v < 2)"])
@pytest.mark.parametrize("compact", [True, False])
def test_streamed_answers_are_libjq_s_own(program, compact, tmp_path, monkeypatch):
    """Each run's outputs printed in one C call (``PATH[] | F``) or one by one."""
    path = _readings(tmp_path, monkeypatch)
    whole = query(program, file=path, compact=compact)
    streamed = query(program, file=path, compact=compact, stream_eval=True)
    assert streamed.printed == whole.printed and streamed.engine.startswith("stream")


@pytest.mark.parametrize("program", ['.r[] | if .s == "x" then error("at x") else .v end',
                                     '.r[] | if .s == "big" then halt_error else .s end'])
def test_a_run_that_fails_prints_what_came_before_the_error(program, tmp_path, monkeypatch):
    """F fails in the first run: its outputs before the error are printed, then the error,
    as libjq's whole answer says (the run is run again output by output)."""
    path = _readings(tmp_path, monkeypatch)
    said = []
    for stream_eval in (False, True):
        with pytest.raises(JqMagicError) as caught:
            query(program, file=path, compact=True, stream_eval=stream_eval)
        said.append((caught.value.code, str(caught.value)))
    assert said[0] == said[1]
