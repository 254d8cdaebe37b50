"""Hints over several inputs (JSON Lines, a YAML stream, several files): the program ran on
each input, so the hint speaks of each, never of an array of them; a glob is no crash."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.shape.hints import hint_for_inputs


def test_json_lines_hint_speaks_of_each_line(tmp_path):
    path = tmp_path / "qa.jsonl"
    path.write_text('{"answer": 1}\n{"answer": 2}\n')
    assert "did you mean .answer?" in query(".answr", file=str(path)).message


def test_a_yaml_stream_hint_speaks_of_each_document(tmp_path):
    path = tmp_path / "k8s.yaml"
    path.write_text("kind: A\nmetadata:\n  name: a\n---\nkind: B\nmetadata:\n  name: b\n")
    assert "did you mean .metadata.name?" in query(".metadata.nme", file=str(path)).message
    assert "try .[]" not in query(".metadata.nme", file=str(path)).message


def test_several_files_and_globs_get_hints_not_tracebacks(tmp_path):
    for n in (1, 2):
        (tmp_path / f"{n}.json").write_text(f'{{"a": {n}}}')
    result = query(".nosuch", file=[str(tmp_path / "1.json"), str(tmp_path / "2.json")])
    assert result.values == [None, None] and "keys are: a" in result.message
    try:
        query(".[0]", file=str(tmp_path / "*.json"))
    except JqMagicError as exc:
        assert exc.code == "QUERY_ERROR" and "there is an object, not an array" in exc.hint
    else:
        raise AssertionError("indexing an object by number must fail")


def test_slurp_makes_one_array_of_the_inputs(tmp_path):
    path = tmp_path / "qa.jsonl"
    path.write_text('{"answer": 1}\n{"answer": 2}\n')
    try:
        query(".answer", file=str(path), slurp=True)
    except JqMagicError as exc:
        assert "there is an array of 2 objects" in exc.hint and "try .[].answer" in exc.hint
    else:
        raise AssertionError("an array has no key")


def test_the_next_slice_of_several_inputs_takes_them_all(tmp_path):
    path = tmp_path / "qa.jsonl"
    path.write_text("".join(f'{{"answer": "{"x" * (i % 7)}"}}\n' for i in range(250)))
    first = query(".answer | length", file=str(path), limit=100)  # a bound, asked for
    assert first.truncated and "[inputs | .answer | length][100:200][]" in first.message
    following = query("[inputs | .answer | length][100:200][]", file=str(path),
                      null_input=True)
    assert following.values == [i % 7 for i in range(100, 200)]  # the slice it promised


@pytest.mark.parametrize("program", ["map(.level)", ".[].level", ".[] | .level"])
def test_inputs_iterated_as_one_array_are_told_each_is_an_input(program):
    """A newcomer reads JSON Lines as one array (``%inspect`` shows them so) and iterates
    it: each line is the input, and ``.[]`` went inside it."""
    events = [{"level": "info", "n": i} for i in range(5)]
    hint = hint_for_inputs(program, events, error='Cannot index number with "level"')
    assert "the 5 inputs are each an object with .level" in hint
    assert ".level reads it" in hint and "[inputs]" in hint
    one = hint_for_inputs(program, events[:1], error='Cannot index number with "level"')
    assert "inputs are each" not in one  # one input: the shape's own words
