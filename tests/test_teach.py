"""jqmagic.check: the verdict, the diff, the words and the hint a learner sees."""

import doctest

import pytest

import jqmagic
from jqmagic.notebook import teach
from jqmagic.notebook.teach import check, same

USERS = [{"name": "ada", "age": 36, "active": True},
         {"name": "alan", "age": 41, "active": False},
         {"name": "grace", "age": 85, "active": True}]


def test_exported_from_the_package():
    assert jqmagic.check is check
    assert "check" in jqmagic.__all__


def test_doctests():
    assert doctest.testmod(teach).failed == 0


def test_a_right_answer_passes_and_says_so():
    result = check("[.[] | select(.active) | .name]", ["ada", "grace"], value=USERS)
    assert result.passed and bool(result)
    assert result.text == "\u2714 Correct: [.[] | select(.active) | .name]"
    bundle = result._repr_mimebundle_()
    assert bundle["text/plain"] == result.text
    assert "Correct" in bundle["text/html"] and "Hint" not in bundle["text/html"]


def test_a_wrong_answer_shows_a_diff_and_the_hint():
    result = check("[.[] | .name]", ["ada", "grace"], value=USERS,
                   hint="Keep only the active users with select(.active).")
    assert not result.passed and not bool(result)
    assert result.notes == ["Expected an array of 2 elements, got 3."]
    assert '+  "alan",' in result.diff
    lines = result.text.splitlines()
    assert lines[0] == "\u2718 Not yet: [.[] | .name]"
    assert "Expected (-) and yours (+), line by line:" in lines
    assert lines[-1] == "Hint: Keep only the active users with select(.active)."
    html = result._repr_mimebundle_()["text/html"]
    assert "<span style='color:#1a7f37'>+  &quot;alan&quot;,</span>" in html
    assert "<b>Hint:</b> Keep only the active users" in html


def test_a_stream_where_one_array_was_expected_suggests_brackets():
    result = check(".[] | .name", ["ada", "alan", "grace"], value=USERS)
    assert not result.passed
    assert result.notes == [
        "Your filter gave 3 separate outputs (a stream); one value was expected.",
        "They are the right values: collect them into one array with [ ... ] around the "
        "filter."]


def test_outputs_mode_compares_the_stream():
    assert check(".[] | .age", [36, 41, 85], value=USERS, outputs=True).passed
    result = check("[.[] | .age]", [36, 41, 85], value=USERS, outputs=True)
    assert not result.passed
    assert result.notes[1].startswith("You gave one array of the right values")
    with pytest.raises(TypeError, match="list of every output"):
        check(".[]", 3, value=USERS, outputs=True)


def test_objects_say_which_keys_differ():
    result = check(".[0] | {name}", {"name": "ada", "age": 36}, value=USERS)
    assert result.notes == ['The object has missing key "age".']
    result = check(".[0] | {name, age: 1}", {"name": "ada", "age": 36}, value=USERS)
    assert result.notes == ['Right keys; a different value at "age".']


def test_types_and_order():
    assert check(".[0].age | tostring", 36, value=USERS).notes == [
        "Expected a number, got a string."]
    result = check("map(.name) | reverse", ["ada", "alan", "grace"], value=USERS)
    assert result.notes == ["Right elements, different order: look at sort_by or the order "
                            "of steps."]
    assert check("empty", 1, value=USERS).notes[0].startswith("Your filter gave no output")


def test_errors_are_reported_not_raised():
    result = check(".[0] | .name +", "ada", value=USERS, hint="Finish the expression.")
    assert not result.passed
    assert result.error.startswith("INVALID_QUERY")
    # one hint line: what jq's error means, then the exercise's own hint
    assert [line for line in result.text.splitlines() if "Hint" in line] == [
        "Hint: The program stops too early: close every (, [, { and \" it opens. Finish "
        "the expression."]
    # the caret after the last character, where something is missing
    program, caret = result.error.splitlines()[1:3]
    assert program.strip() == ".[0] | .name +" and caret.index("^") == len(program)
    result = check(".[0].name | . + 1", "ada", value=USERS)
    assert result.error.startswith("QUERY_ERROR")


def test_counts_are_said_in_words_not_output_s():
    two = check(".[]", [1, 2, 3], value=[1, 2], outputs=True)
    assert two.notes[0] == "Your filter gave 2 outputs; 3 were expected."
    one = check(".[]", [1, 2], value=[1], outputs=True)
    assert one.notes[0] == "Your filter gave 1 output; 2 were expected."
    assert "(s)" not in two.text + one.text


def test_json_equality_is_strict_on_types():
    assert same({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not same(True, 1)
    assert not same([1], [True])
    assert not same(None, 0)
    assert not same("1", 1)


def test_query_options_pass_through():
    assert check("$min", 40, null_input=True, args={"min": 40}).passed
    assert check("[.[] | select(.age > $min) | .name]", ["alan", "grace"], value=USERS,
                 args={"min": 40}).passed
    assert check("length", 3, text='{"a":1} {"a":2} {"a":3}', slurp=True).passed


def test_long_diffs_are_bounded():
    result = check("[range(200)]", [], null_input=True)
    assert len(result.diff.splitlines()) == teach.MAX_DIFF_LINES + 1
    assert result.diff.splitlines()[-1].endswith("more diff lines")


def test_an_empty_answer_is_the_learners_turn_not_a_failure():
    result = check("", ["ada"], value=USERS, hint="Use select.")
    assert not result.passed and result.error == "" and result.got == []
    assert result.text.startswith("\u270e Your turn")
    assert "Hint" not in result.text  # nothing is given away before a try


def test_an_empty_stream_is_said_not_diffed_as_an_empty_array():
    result = check(".[] | select(.age > 100) | .name", ["grace"], value=USERS, outputs=True)
    assert result.diff.splitlines()[-1] == "+" + teach.NOTHING
    assert "+[]" not in result.diff


def test_a_stream_is_diffed_as_separate_values():
    result = check(".[] | .age", [36, 41, 86], value=USERS, outputs=True)
    # no diff machinery (a "@@ -1,3 +1,3 @@" header) for a learner to decode
    assert result.diff.splitlines() == [" 36", " 41", "-86", "+85"]


def test_parts_of_a_long_diff_are_parted_by_an_ellipsis_and_a_key_is_suggested():
    result = check("[.[] | .+1]", [*range(2, 40), 0, *range(41, 90)], value=list(range(1, 90)))
    lines = result.diff.splitlines()
    assert "  …" in lines and not [line for line in lines if line.startswith("@@")]
    missed = check(".nmae", "ada", value={"name": "ada"})
    assert missed.notes == ["Expected a string, got null."]
    assert missed.hint == "no key .nmae at .; did you mean .name?"


def test_the_coloured_diff_has_a_legend():
    html = check("[.[] | .name]", ["ada"], value=USERS)._repr_mimebundle_()["text/html"]
    legend = html.index("<span style='color:#b00'>- expected</span>")
    assert legend < html.index("<pre>")
    assert "<span style='color:#1a7f37'>+ yours</span>" in html
