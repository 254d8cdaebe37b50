"""Programs outside the fast path skip the parse too: libjq's parsed files are kept per
file version, within the budget, and give the answers a fresh parse gives."""

from __future__ import annotations

import json
import os

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.query import worker
from jqmagic.core.query.run import clear_cache
from jqmagic.core.settings import settings

# nan is outside the fast path's subset (libjq answers)
OUTSIDE_THE_FAST_PATH = 'nan as $nan | [.items[] | "\\(.name)=\\(.n)"] | join(",")'


def write(path, n: int) -> str:
    path.write_text(json.dumps({"items": [{"name": f"i{k}", "n": k} for k in range(n)]}))
    return str(path)


def test_a_file_is_parsed_once_for_every_later_question(tmp_path, parses):
    path = write(tmp_path / "a.json", 3)
    first = query(OUTSIDE_THE_FAST_PATH, path)
    again = query(OUTSIDE_THE_FAST_PATH + ' | ascii_upcase', path)
    assert first.engine == again.engine == "libjq"
    assert first.values == ["i0=0,i1=1,i2=2"] and again.values == ["I0=0,I1=1,I2=2"]
    assert parses == ["a.json"]


def test_a_file_rewritten_with_its_old_mtime_is_parsed_again(tmp_path, parses):
    path = write(tmp_path / "a.json", 3)
    stamp = os.stat(path)
    query(OUTSIDE_THE_FAST_PATH, path)
    write(tmp_path / "a.json", 3)
    text = (tmp_path / "a.json").read_text().replace('"i1"', '"XX"')
    with open(path, "w") as handle:  # same size, same mtime: only the ctime tells
        handle.write(text)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert query(OUTSIDE_THE_FAST_PATH, path).values == ["i0=0,XX=1,i2=2"]
    assert parses == ["a.json", "a.json"]


def test_programs_that_read_their_inputs_read_the_file(tmp_path, parses):
    path = write(tmp_path / "a.json", 2)
    result = query('[inputs | .items | length], (input_filename | ltrimstr("x"))', path,
                   null_input=True)
    assert result.values[0] == [2] and result.values[1].endswith("a.json")
    assert parses == []


def test_a_bad_file_falls_back_to_libjq_reading_it(tmp_path, parses):
    path = tmp_path / "bad.json"
    path.write_text('{"items": []} {"items": [')
    with pytest.raises(Exception) as info:
        query(OUTSIDE_THE_FAST_PATH, str(path))
    assert info.value.code == "INVALID_JSON"
    assert info.value.result.values == [""]  # the first value's answer, as jq prints it


def test_over_the_budget_is_not_parsed_whole_and_clear_cache_empties(tmp_path, parses,
                                                                      monkeypatch):
    path = write(tmp_path / "a.json", 50)
    monkeypatch.setattr(settings, "doc_cache_bytes", 10)
    with pytest.raises(JqMagicError) as caught:  # it streams (streameval) or is refused
        query(OUTSIDE_THE_FAST_PATH + " | length", path)
    assert caught.value.code == "TOO_LARGE" and parses == []
    assert worker.jv_documents.size == 0
    monkeypatch.setattr(settings, "doc_cache_bytes", 1 << 30)
    query(OUTSIDE_THE_FAST_PATH, path)
    assert worker.jv_documents.size > 0


def test_clear_cache_empties_the_real_worker(tmp_path):
    path = write(tmp_path / "a.json", 2)
    assert query(OUTSIDE_THE_FAST_PATH, path).values == ["i0=0,i1=1"]
    clear_cache()
    assert query(OUTSIDE_THE_FAST_PATH, path).values == ["i0=0,i1=1"]


HELD_PROGRAMS = [
    "[inputs | .n] | add",
    "first(inputs | select(.n > 2)) | .name",
    "[limit(2; inputs | .name)]",
    "input, input | .n",
    "[inputs] | length, (try input catch .)",  # past the end: "No more inputs"
    "reduce inputs as $r ({}; .[$r.name[:1]] += $r.n)",
    "inputs | if .n == 3 then error(\"three\") else .n end",  # stops at the error
    "[inputs | .n | debug] | length",
    "[inputs | .name | test(\"I\"; \"ix\")] | map(select(.)) | length",
]


@pytest.mark.parametrize("program", HELD_PROGRAMS)
def test_inputs_of_a_held_file_answer_as_reading_it(tmp_path, parses, monkeypatch, program):
    """``-n`` programs over ``inputs`` the fast path leaves to libjq get the values libjq
    parsed before (``heldinputs``): the answers, messages and errors of reading the files,
    each file parsed once for every later question."""
    monkeypatch.setattr(settings, "fast_path", False)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(json.dumps({"name": f"i{k}", "n": k}) + "\n" for k in range(4)))
    second.write_text(json.dumps({"name": "last", "n": 10}) + "\n")
    files = [str(first), str(second)]

    def answer(cache: bool):
        try:
            result = query(program, files, null_input=True, cache=cache, compact=True)
            return result.text, result.messages, None
        except JqMagicError as exc:
            return exc.result.text, exc.result.messages, exc.message

    expected = answer(cache=False)
    assert parses == []
    assert answer(cache=True) == expected
    assert answer(cache=True) == expected
    assert parses == ["a.jsonl", "b.jsonl"]


def test_a_program_asking_the_reader_reads_the_file(tmp_path, parses, monkeypatch):
    """``input_line_number`` and ``input_filename`` ask jq's reader: no held values."""
    monkeypatch.setattr(settings, "fast_path", False)
    path = tmp_path / "a.jsonl"
    path.write_text('{"n": 1}\n{"n": 2}\n')
    result = query("[inputs | input_line_number]", str(path), null_input=True, compact=True)
    assert result.values == [[1, 2]] and parses == []
