"""--explain: each construct split and counted, samples, null and error origins, paths,
the views, and the public door (a child process, its errors)."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.explain import explain
from jqmagic.core.explain.render import Explanation, bounded, html_view, text_view
from jqmagic.core.explain.run import explain_values
from jqmagic.core.explain.values import parse

ISSUE_2206 = ('map(ascii_upcase) | reverse | .[] | [match("[ACD]").string] '
              '| map(ascii_downcase) | reverse | add')


def run(program: str, *inputs: str, **kw) -> dict:
    data = explain_values(program, [parse(text) for text in inputs], kw.get("args"))
    assert data["same_as_plain"], data
    return data


def stage(data: dict, text: str) -> dict:
    return next(s for s in data["stages"] if s["stage"] == text)


def branch(found: dict, name: str) -> dict:
    return next(b for b in found["branches"] if b["name"].startswith(name))


def counts(stages: list[dict]) -> list[tuple[str, int, int]]:
    return [(s["stage"], s["in"], s["out"]) for s in stages]


def test_issue_2206_names_the_stage_where_null_comes_from():
    data = run(ISSUE_2206, '["a","b","c"]')
    assert data["null_origin"]["stage"] == "add"
    assert data["null_origin"]["at"] == "stage 7" and data["null_origin"]["how"] == "made"
    assert data["null_origin"]["input"]["text"] == "[]"
    assert data["null_origin"]["input_made_at"] == 'stage 4 `[match("[ACD]").string]`'
    assert [r["text"] for r in data["results"]] == ['"c"', "null", '"a"']
    inside = branch(stage(data, '[match("[ACD]").string]'), "inside [...]")["stages"]
    assert inside[0]["dropped"] == 1 and inside[0]["dropped_samples"][0]["text"] == '"B"'


def test_pipeline_counts_select_drops_and_paths():
    data = run(".[] | select(.a > 1) | .b", '[{"a":1,"b":2},{"a":3,"b":4},{"a":5}]')
    assert counts(data["stages"]) == [(".[]", 1, 3), ("select(.a > 1)", 3, 2), (".b", 2, 2)]
    picked = stage(data, "select(.a > 1)")
    assert picked["dropped"] == 1 and picked["dropped_samples"][0]["text"] == '{"a":1,"b":2}'
    assert [r.get("path") for r in data["results"]] == [[1, "b"], [2, "b"]]
    assert data["null_origin"]["stage"] == ".b"  # {"a":5} has no b: read, not made
    assert data["null_origin"]["how"] == "read"
    assert data["null_origin"]["input"]["null_at"] == [2, "b"]
    assert branch(picked, "select's filter")["stages"][0]["out"] == 3


def test_comma_branches_and_if_routing():
    data = run('.[] | (. * 2, "x"), (if . > 1 then "big" elif . == 1 then "one" '
               'else "small" end)', "[0,1,2]")
    both = data["stages"][1]
    assert both["out"] == 9
    assert [(b["name"], b["stages"][0]["out"]) for b in both["branches"]] == [
        ("branch 1 of ,", 3), ("branch 2 of ,", 3), ("branch 3 of ,", 3)]
    ifs = run('.[] | if . > 1 then "big" elif . == 1 then "one" else "small" end', "[0,1,2]")
    names = {b["name"].split(" (")[0]: b["stages"][0]["in"]
             for b in ifs["stages"][1]["branches"]}
    assert names == {"if condition": 3, "then 1": 1, "elif condition": 3, "then 2": 1,
                     "else": 1}


def test_alternative_right_side_gets_only_what_the_left_could_not_answer():
    data = run('.[] | .a // "none"', '[{"a":1},{},{"a":false}]')
    alt = data["stages"][1]
    assert alt["out"] == 3
    left, right = alt["branches"]
    assert left["stages"][0]["in"] == 3 and right["stages"][0]["in"] == 2


def test_reduce_and_foreach_show_source_and_states():
    data = run("reduce .[] as $x (0; . + $x)", "[1,2,3]")
    source, states = data["stages"][0]["branches"]
    assert source["stages"][0]["out"] == 3
    assert [s["text"] for s in states["stages"][0]["samples_out"]] == ["1", "3", "6"]
    each = run("foreach .[] as [$a, $b] (0; . + $a; [., $b])", "[[1,2],[3,4]]")
    assert each["outputs"] == 2 and each["stages"][0]["branches"][1]["stages"][0]["out"] == 2


def test_bindings_destructuring_and_defs_carry_into_later_stages():
    data = run(". as [$a, {b: $c}] | $a + $c | . * $k", '[1, {"b": 2}]', args={"k": 10})
    assert data["stages"][0]["binds"] == ["$a", "$c"]
    assert [r["text"] for r in data["results"]] == ["30"]
    defs = run("def inc: . + 1; def twice(f): f | f; .[] | inc | twice(inc)", "[1,2]")
    assert counts(defs["stages"]) == [(".[]", 1, 2), ("inc", 2, 2), ("twice(inc)", 2, 2)]
    assert branch(defs["stages"][1], "body of inc")["stages"][0]["out"] == 2
    assert defs["stages"][2]["note"] == "not split: twice takes parameters"


def test_what_is_not_split_says_so():
    rec = run("def f: if . > 0 then . - 1 | f else . end; f", "3")
    assert "branches" not in rec["stages"][0]
    assert rec["stages"][0]["note"] == "not split: f calls itself"
    label = run("label $out | .[] | if . > 1 then break $out else . end", "[1,2,3]")
    assert "label/break" in label["stages"][0]["note"]
    env = run("$ENV | type", "null")
    assert env["split"] is False and "not split" in env["note"]
    alts = run(". as [$a] ?// $a | $a", "[1]")
    assert "?//" in alts["stages"][0]["note"]


def test_error_stage_and_value_and_later_inputs_go_on():
    data = explain_values(".[] | 1 / .", [parse("[1,0,2]"), parse("[4]")])
    assert data["same_as_plain"]
    assert data["error_origin"]["stage"] == "1 / ."
    assert data["error_origin"]["on"]["text"] == "0"
    assert "divided" in data["error_origin"]["message"]
    assert data["outputs"] == 2 and data["error_count"] == 1  # 1 then the error; then 0.25


def test_big_values_show_their_shape_and_branches_are_sampled():
    data = run("[.[] | select(. % 2 == 0)] | length", json.dumps(list(range(5000))))
    first = data["stages"][0]
    assert first["samples_in"][0] == {"type": "array", "length": 5000,
                                      "text": '[0,1,2,3,4,5,6,7,"…"]'}
    assert "(2500 items)" in text_view(data)
    inside = branch(first, "inside")["stages"]
    assert counts(inside) == [(".[]", 1, 5000), ("select(. % 2 == 0)", 5000, 2500)]
    assert branch(inside[1], "select's filter")["sampled_inputs"] == 20
    assert branch(inside[1], "select's filter")["stages"][0]["in"] == 20


def test_a_branch_stops_after_enough_values_and_says_so(monkeypatch):
    from jqmagic.core.explain import trace

    monkeypatch.setattr(trace, "BRANCH_STEPS", 100)
    data = run("[.[] | . + 1] | length", json.dumps(list(range(1000))))
    inside = data["stages"][0]["branches"][0]
    assert "stopped after 100 values" in inside["partial"]
    assert inside["stages"][0]["out"] < 1000 and data["results"][0]["text"] == "1000"


def test_views_text_html_and_bounded_dict():
    data = run(ISSUE_2206, '["a","b","c"]')
    text = text_view(data)
    assert ("null first made at stage 7 `add` (1x), from [], itself made at stage 4 "
            '`[match("[ACD]").string]`') in text
    assert "7. add   3 -> 3" in text
    page = html_view(data)
    assert page.count("<details class='st'>") >= 7 and "null made from []" in page
    many = run(" | ".join(["[.[] | . + 1]"] * 60), json.dumps(list(range(30))))
    assert len(Explanation(many)._repr_mimebundle_()["text/html"]) < 250_000
    assert text_view(many).count("\n") <= 201
    small = bounded(data, 2500)
    assert len(json.dumps(small)) <= 2500 and small["cut"]
    assert small["null_origin"]["stage"] == "add"


def test_public_explain_runs_in_a_child_with_sources_and_errors():
    found = explain(".a | length", text='{"a": [1, 2]}')
    assert found.outputs == 1 and found.same_as_plain and found.stages[0]["stage"] == ".a"
    assert set(found._repr_mimebundle_()) == {"text/plain", "text/html"}
    slurped = explain("length", text="1 2 3", slurp=True)
    assert slurped.results[0]["text"] == "3"
    assert explain("1, 2", null_input=True).outputs == 2
    with pytest.raises(JqMagicError) as bad:
        explain(".a |", value={})
    assert bad.value.code == "INVALID_QUERY"
    with pytest.raises(JqMagicError) as broken:
        explain(".", text="{")
    assert broken.value.code == "INVALID_JSON"
    with pytest.raises(JqMagicError) as reads:
        explain("[inputs] | length", text="1 2", null_input=True)
    assert reads.value.code == "INVALID_ARGUMENT" and "input" in str(reads.value)
    assert explain(".inputs, $inputs", text='{"inputs": 1}', args={"inputs": 2}).outputs == 2
    with pytest.raises(JqMagicError) as slow:
        explain("[range(1e9)] | length", null_input=True, timeout=1)
    assert slow.value.code == "TIMEOUT"


def test_an_error_swallowed_by_a_question_mark_or_try_is_said():
    data = run(".a.b?", '{"a":"str"}', '{"a":{"b":1}}')
    found = stage(data, ".a.b?")
    assert (found["dropped"], found["swallowed"]) == (1, 1)
    assert found["swallowed_error"]["message"] == 'Cannot index string with string ("b")'
    assert data["swallowed"]["at"] == "stage 1"
    view = text_view(data)
    assert "an error was raised there and swallowed by `?`" in view
    inner = run(".[] | try .a", '[1, {"a": 2}]')
    assert inner["swallowed"]["count"] == 1 and "`try`" in text_view(inner)
    plain = run(".[] | select(. > 1)", "[1, 2]")  # dropped by a filter: no error hidden
    assert plain["swallowed"] is None and "swallowed" not in text_view(plain)


def test_a_comparison_between_types_gets_a_note():
    data = run('.[] | select(.x == "1")', '[{"x": 1}, {"x": 2}]')
    assert data["mismatch"]["left"] == "number" and data["mismatch"]["right"] == "string"
    assert data["mismatch"]["at"] == "stage 2 > select's filter > stage 1"
    assert "a number was compared with a string (2x): values of different types are " \
           "never equal" in text_view(data)
    same = run('.[] | select(.x == 1 or .x == null)', '[{"x": 1}, {"y": 2}]')
    assert same["mismatch"] is None  # null is how a missing key is asked about
    order = run('.[] | select(.x < "5")', '[{"x": 1}]')
    assert "by type (null < false < true < numbers" in text_view(order)


def test_computed_is_said_once_and_the_exit_status_is_the_plain_runs():
    data = run('.[] | .x + 1 | tostring | length', '[{"x": 1}]')
    view = text_view(data)
    assert view.count("computed") == 1
    assert "computed values (not paths in the input): stage 2, 3, 4" in view
    assert data["exit_status"] == 0
    assert run(".a.b", '{"a":"str"}')["exit_status"] == 5
    assert run("halt_error(3)", "1")["exit_status"] == 3


def test_counts_are_said_in_words():
    """"1 input", "2 inputs", "1 error": never "input(s)" (issue 41's wording)."""
    data = run(".a.b?", '{"a":"str"}', '{"a":{"b":1}}')
    view = text_view(data)
    assert view.splitlines()[1].startswith("2 inputs -> 1 output (same as the plain run")
    assert "1 input dropped at stage 1" in view
    failed = run(".a.b", '{"a":"str"}', '{"a":"s"}')
    assert "(2 errors)" in text_view(failed) and "2 errors" in html_view(failed)
    assert not [v for v in (view, html_view(data), text_view(failed)) if "(s)" in v]


@pytest.mark.parametrize("program", [
    '(.a.x)? // "none"', 'try .a.x // "none"', '.a? // "none"', '.a.x? // "none"',
    '[.[]?] | length', '(.a | .b)?.c // "none"', '.[] | (.x)? // (.y)?'])
def test_a_stage_keeps_the_programs_own_try_or_question_mark(program):
    from jqmagic.core.explain import unparse
    from jqmagic.core.jqlang.parser import parse as jqlang_parse

    data = run(program, '{"a": {"x": 1}}', '{"a": "s"}', '[{"y": 2}]')
    text = data["stages"][0]["stage"] if len(data["stages"]) == 1 else \
        " | ".join(s["stage"] for s in data["stages"])
    spelled = program.replace("(.a | .b)?.c", "((.a | .b)?).c")  # a step after ( )? : (( )?)
    assert text == spelled, data["stages"]
    tree = jqlang_parse(program)
    with unparse.written_as(program, tree):  # the text printed reads back as the same tree
        assert jqlang_parse(unparse.text(tree)) == tree
