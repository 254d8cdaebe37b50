"""The query core: every source, jq option, bound and error of the foundation issue."""

from __future__ import annotations

import itertools
import json
import sys
import time

import pytest

from jqmagic import JqMagicError, payload, query
from jqmagic.core.query import bounds, query_iter
from jqmagic.core.settings import settings


def codes(fn, *args, **kwargs) -> JqMagicError:
    with pytest.raises(JqMagicError) as info:
        fn(*args, **kwargs)
    return info.value


@pytest.fixture
def files(tmp_path):
    (tmp_path / "users.json").write_text(json.dumps(
        {"users": [{"id": 1, "name": "ada", "tags": ["x"]}, {"id": 2, "name": "bob"}]}))
    (tmp_path / "events.jsonl").write_text('{"id": 1, "kind": "a"}\n{"id": 2, "kind": "b"}\n')
    (tmp_path / "deploy.yaml").write_text("kind: Deployment\nspec: {replicas: 3}\n---\n"
                                          "kind: Service\nspec: {ports: [80]}\n")
    (tmp_path / "settings.jsonc").write_text('{\n  // editor\n  "tabSize": 4,\n}\n')
    (tmp_path / "a1.json").write_text('{"n": 1}')
    (tmp_path / "a2.json").write_text('{"n": 2}')
    return tmp_path


# ---------------------------------------------------------------- sources

def test_file_path_and_tilde(files, monkeypatch):
    monkeypatch.setenv("HOME", str(files))
    assert query(".users[].name", file="~/users.json").values == ["ada", "bob"]
    assert query(".users | length", files / "users.json").values == [2]
    assert query(".users | length", file=files / "users.json").values == [2]


def test_glob_and_several_files_with_input_filename(files):
    result = query("[.n, (input_filename | split(\"/\") | last)]", str(files / "a*.json"),
                   compact=True)
    assert result.values == [[1, "a1.json"], [2, "a2.json"]]
    both = query(".n", file=[str(files / "a2.json"), str(files / "a1.json")])
    assert both.values == [2, 1]


def test_inline_text_and_positional_json(files):
    assert query(".a", text='{"a": [1, 2]}').values == [[1, 2]]
    assert query(".a", '{"a": 3}').values == [3]


def test_python_value():
    assert query("map(. * 2)", value=[1, 2, 3]).values == [[2, 4, 6]]
    assert query(".", value=None, value_given=True).values == [None]


def test_exec_stdout_and_failure():
    assert query(".x", exec="echo '{\"x\": 42}'").values == [42]
    error = codes(query, ".", exec="echo oops >&2; exit 3")
    assert error.code == "EXEC_ERROR" and "status 3" in error.message and "oops" in error.message


def test_exec_timeout():
    error = codes(query, ".", exec=f"{sys.executable} -c 'import time; time.sleep(5)'",
                  timeout=0.5)
    assert error.code == "TIMEOUT" and "command" in error.message


def test_json_lines_auto_and_forced(files):
    assert query(".id", files / "events.jsonl").values == [1, 2]
    assert query(".kind", files / "events.jsonl", slurp=False, jsonl=True).values == ["a", "b"]
    assert query("length", files / "events.jsonl", slurp=True).values == [2]


def test_yaml_multi_document(files):
    assert query(".kind", files / "deploy.yaml").values == ["Deployment", "Service"]
    assert query(".a", text="a: [1, 2]", yaml=True).values == [[1, 2]]


def test_jsonc_by_suffix_and_flag(files):
    assert query(".tabSize", files / "settings.jsonc").values == [4]
    plain = files / "settings.json"
    plain.write_text((files / "settings.jsonc").read_text())
    error = codes(query, ".", plain)
    assert error.code == "INVALID_JSON" and "--jsonc" in error.hint
    assert "settings.json, line" in error.message and "^" in error.detail
    assert query(".tabSize", plain, jsonc=True).values == [4]


def test_exactly_one_source(files):
    assert codes(query, ".", text="1", value=2).code == "AMBIGUOUS_SOURCE"
    assert codes(query, ".").code == "AMBIGUOUS_SOURCE"
    assert query("1 + 1", null_input=True).values == [2]


def test_missing_file_suggests_close_names(files):
    error = codes(query, ".", file=str(files / "user.json"))
    assert error.code == "NOT_FOUND" and "users.json" in error.hint
    assert codes(query, ".", file=str(files / "*.nothing")).code == "NOT_FOUND"
    assert codes(query, ".", file=str(files)).code == "FILE_ERROR"


# ---------------------------------------------------------------- jq semantics

def test_arg_and_argjson():
    result = query("[$name, $n + 1, $ARGS.named.name]", null_input=True, compact=True,
                   args={"name": "x", "n": 41})
    assert result.values == [["x", 42, "x"]]
    # any text names an argument, as jq binds it; only a name that is not text is refused
    assert query("$ARGS.named", null_input=True, compact=True,
                 args={"bad name": 1}).values == [{"bad name": 1}]
    assert codes(query, "$a", null_input=True, args={7: 1}).code == "INVALID_ARGUMENT"


def test_slurp_null_input_inputs_and_input():
    assert query(".", text="1 2 3", slurp=True).values == [[1, 2, 3]]
    assert query("[inputs]", text="1 2 3", null_input=True).values == [[1, 2, 3]]
    assert query("[., input]", text="1 2 3 4", compact=True).values == [[1, 2], [3, 4]]
    assert query("input", text="7", null_input=True).values == [7]


def test_several_top_level_values():
    assert query(".a", text='{"a": 1} {"a": 2}\n{"a": 3}').values == [1, 2, 3]


def test_raw_and_compact_text():
    result = query(".[]", value=["café", {"a": [1, 2]}], raw=True)
    assert result.text == 'café\n{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert query(".", value={"a": [1, 2]}, compact=True).text == '{"a":[1,2]}'
    assert query(".", value={"b": 1, "a": 2}, compact=True, sort_keys=True).text == \
        '{"a":2,"b":1}'


def test_64_bit_integers_survive():
    result = query(".id", text='{"id": 1234567890123456789}')
    assert result.values == [1234567890123456789]
    assert result.text == "1234567890123456789"
    assert query(".", text="1.50").text == "1.50"  # literals print as written, as jq 1.8


def test_unbound_variable_from_namespace():
    result = query("[.[] | select(. > $limit)]", value=[1, 5, 9], namespace={"limit": 4})
    assert result.values == [[5, 9]]
    error = codes(query, "$nope", null_input=True, namespace={"limit": 4})
    assert error.code == "INVALID_QUERY" and "--arg nope" in error.hint


def test_compile_cache_gives_the_same_answers():
    first = query(".a + $b", value={"a": 1}, args={"b": 1}).values
    again = query(".a + $b", value={"a": 1}, args={"b": 2}).values
    assert (first, again) == ([2], [3])


# ---------------------------------------------------------------- bounds

def test_the_core_gathers_every_result():
    assert query(".[]", value=list(range(1000))).values == list(range(1000))
    assert len(query(".[]", value=list(range(1000)), limit=None).values) == 1000
    big = query('"x" * 300000', null_input=True)  # one value past any token bound
    assert big.values == ["x" * 300000] and not big.truncated


def test_a_complete_result_past_its_memory_budget_is_too_large(monkeypatch):
    monkeypatch.setattr(settings, "result_bytes", 10_000)
    with pytest.raises(JqMagicError) as info:
        query("range(100000)", null_input=True)
    assert info.value.code == "TOO_LARGE" and "query_iter" in info.value.hint
    assert query(".", value=1).values == [1]  # the worker stopped the run and goes on


def test_query_iter_yields_as_the_worker_produces_and_stops_early():
    started = time.monotonic()
    first = list(itertools.islice(query_iter("range(1e12)", null_input=True), 3))
    assert first == [0, 1, 2] and time.monotonic() - started < 10
    assert query(".", value=2).values == [2]  # stopped, not killed: the worker answers


def test_query_iter_raises_after_the_values_before_the_error():
    seen = []
    with pytest.raises(JqMagicError) as info:
        for value in query_iter('.[] | if . == 3 then error("boom") else . end',
                                value=[1, 2, 3, 4]):
            seen.append(value)
    assert seen == [1, 2] and info.value.code == "QUERY_ERROR"


def test_results_before_a_timeout_are_kept():
    with pytest.raises(JqMagicError) as info:
        query("range(1e12)", null_input=True, timeout=1)
    assert info.value.code == "TIMEOUT" and info.value.result.values[:3] == [0, 1, 2]


def test_result_bound_and_truncation_line(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path))
    result = query(".[]", value=list(range(250)), limit=100)
    assert len(result.values) == 100 and result.total == 250 and result.truncated
    assert result.message.startswith("Truncated. Showing 100 of 250 results.")
    assert ".[100:200][]" in result.message and result.payload_id in result.message
    assert result.payload_path.startswith(str(tmp_path))
    assert payload(result.payload_id) == list(range(250))
    assert len(query(".[]", value=list(range(250)), limit=10).values) == 10


def test_passthrough_lifts_bounds():
    result = query(".[]", value=list(range(250)), passthrough=True)
    assert len(result.values) == 250 and not result.truncated and result.message == ""


def test_token_bound_cuts_text_and_keeps_values(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path))
    big = ["x" * 1000] * 50
    result = query(".", value=big, max_tokens=1000)
    assert result.truncated and len(result.text) <= 4000
    assert "over the 1,000-token limit" in result.message
    assert result.values == [big]
    assert payload(result.payload_id) == big


def test_no_results_is_said_and_is_not_an_error():
    result = query(".[] | select(. > 10)", value=[1, 2])
    assert result.values == [] and result.message.startswith(bounds.NO_RESULTS)


def test_slice_suggestions():
    assert bounds.slice_suggestion(".items[]", 100, 200) == ".items[100:200][]"
    assert bounds.slice_suggestion(".a[] | .b", 100, 200) == "[.a[] | .b][100:200][]"


# ---------------------------------------------------------------- errors

def test_invalid_query_points_at_the_column():
    error = codes(query, ".a | map(", value={})
    assert error.code == "INVALID_QUERY" and "syntax error" in error.message
    assert error.detail.splitlines()[-1].strip() == "^"


def test_empty_program():
    assert codes(query, "  ", value={}).code == "INVALID_QUERY"


def test_runtime_error_keeps_what_came_before():
    error = codes(query, ".[] | .a", value=[{"a": 1}, [2]])
    assert error.code == "QUERY_ERROR" and "Cannot index array" in error.message
    assert error.result.values == [1]


@pytest.mark.parametrize(("text", "says"), [
    ('{"b": 1} true', "(after 1 result)"),  # the error ended the run
    ('true {"b": 1}', "(1 result in all)"),  # an earlier input failed, the last ran on
    ('{"b": 1} 3 true', "(1 result in all)"),  # two failed
])
def test_a_runtime_error_says_whether_it_ended_the_run(text, says):
    error = codes(query, ".b", text=text)
    assert error.code == "QUERY_ERROR" and says in error.message
    assert error.result.values == [1]


def test_invalid_json_with_line_column_and_caret(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "a": 1,\n  "b": tru\n}\n')
    error = codes(query, ".", bad)
    assert error.code == "INVALID_JSON" and "bad.json, line 3" in error.message
    assert '"b": tru' in error.detail and "^" in error.detail


def test_invalid_yaml_with_caret(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\nb: [1, 2\nc: 3\n")
    error = codes(query, ".", bad)
    assert error.code == "INVALID_YAML" and "bad.yaml, line" in error.message
    assert "^" in error.detail


def test_yaml_never_constructs_objects(tmp_path):
    evil = tmp_path / "evil.yaml"
    evil.write_text("!!python/object/apply:os.system ['echo hacked']\n")
    assert codes(query, ".", evil).code == "INVALID_YAML"


def test_halt_error_and_halt():
    error = codes(query, '"stop" | halt_error', null_input=True)
    assert error.code == "QUERY_ERROR" and "stop" in error.message
    assert query("1, halt, 2", null_input=True).values == [1]


def test_debug_messages_are_returned():
    result = query("debug | . + 1", value=1)
    assert result.values == [2] and result.messages == ['["DEBUG:",1]']


def test_non_json_python_value():
    assert codes(query, ".", value=object()).code == "INVALID_ARGUMENT"


def test_raw_input_reads_lines_as_strings():
    assert query(".", text="a b\nc\n", raw_input=True).values == ["a b", "c"]
    assert query(".", text="a\nb\n", raw_input=True, slurp=True).values == ["a\nb\n"]


def test_shape_hints_for_errors_empty_and_null_results():
    doc = {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "user": {"n": 1}}
    error = codes(query, ".items.name", value=doc)
    assert error.code == "QUERY_ERROR" and ".items[].name" in error.hint
    nulls = query(".usr", value=doc)
    assert nulls.values == [None] and "did you mean .user?" in nulls.message
    empty = query(".items[] | select(.id > 5)", value=doc)
    assert empty.message.startswith("Query returned no results")


def test_payload_keeps_json_even_for_raw_output(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path))
    lines = [f"line {i} " + "x" * 100 for i in range(100)]
    result = query(".[]", value=lines, raw=True, max_tokens=500)
    assert result.truncated and result.text.startswith("line 0 x")
    assert payload(result.payload_id) == lines


def test_compile_error_hints_name_the_builtin_meant():
    for program, meant in (("mapp(.a)", "did you mean map "), ("lenght", "did you mean length "),
                           ("[.[] | selct(. > 1)]", "did you mean select ")):
        assert meant in codes(query, program, null_input=True).hint, program
    unknown = codes(query, "zzqx(1; 2)", null_input=True).hint
    assert "def zzqx(f1; f2): ...;" in unknown
    assert "ends with a pipe" in codes(query, ".a |", null_input=True).hint


def test_bad_inline_json_points_at_the_place_and_knows_yaml():
    error = codes(query, ".name", text="name: x\nlist:\n  - 1\n")
    assert error.code == "INVALID_JSON" and "^" in error.detail  # the caret under the place
    assert "It reads as YAML" in error.hint
    assert "YAML" not in codes(query, ".", text='{"a":').hint


def test_a_slow_second_result_of_a_program_reading_stdin():
    """libjq's runs lend fd 0 to the text they read: a chunk sent mid-run must not read
    that text as the caller's message (the worker once exited there)."""
    program = "1, ([range(2000000)] | length), input_filename"
    assert query(program, text="null").values == [1, 2000000, "<stdin>"]
