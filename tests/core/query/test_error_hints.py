"""A run error's hint fits the error: a type error gets the shape's words or "the types
along the path"; a message the program raised itself (``error("custom")``) gets neither
(issue 42)."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.query.failures import about_types


@pytest.mark.parametrize("program, text", [
    ('error("custom")', "1"), ('.a | error("custom")', '{"a": 1}'), ("error({a: 1})", "1"),
    ('"no such user" | error', "1"), ('.[] | if . > 1 then error("too big") else . end', "[1, 2]"),
    ('error("Cannot find the user")', "1"), ('error("Cannot index the catalogue")', "1"),
])
def test_the_programs_own_error_gets_no_hint_about_types(program, text):
    with pytest.raises(JqMagicError) as info:
        query(program, text=text)
    assert "types" not in info.value.hint and "at ." not in info.value.hint
    assert "raised this error itself" in info.value.hint


@pytest.mark.parametrize("program, text, hint", [
    (".a.b", '{"a": 1}', "at .a there is a number, not an object"),
    (".a[]", '{"a": 1}', "[] iterates only arrays and objects"),
    ("keys", "1", "Check the types along the path"),
    (".[] + 1", '["x"]', "at .[] there is 1 value (string)"),
])
def test_a_type_error_gets_the_shapes_words(program, text, hint):
    with pytest.raises(JqMagicError) as info:
        query(program, text=text)
    assert hint in info.value.hint


@pytest.mark.parametrize("message, types", [
    ('Cannot index number with string ("b")', True), ("Cannot iterate over null (null)", True),
    ('string ("x") and number (1) cannot be added', True), ("number (1) has no keys", True),
    ('object ({"a":1}) is not valid in a csv row', True),
    ("jq error (after 2 results): Cannot index array with string", True),
    ("custom", False), ('(not a string): {"a":1}', False), ("too big", False),
    ("jq error: the number was wrong", False),
    ("Cannot find the user", False), ("jq error: Cannot index the catalogue", False),
    ("Cannot check whether object has a key of type number", True),
    ("Cannot use null (null) as object key", True), ("Cannot delete field at index 2", False),
    ("Cannot update field at object index of array", True),
])
def test_about_types(message, types):
    assert about_types(message) is types


@pytest.mark.parametrize("program, hint", [
    ("lenght", "did you mean length (taking no arguments)?"),
    ("mapp(.)", "did you mean map (taking 1 argument)?"),
    ('splitt("a")', "did you mean split (taking 1 or 2 arguments)?"),
])
def test_an_unknown_function_gets_its_neighbour_and_how_many_arguments_it_takes(program, hint):
    with pytest.raises(JqMagicError) as info:
        query(program, text="1")
    assert info.value.hint.endswith(hint), info.value.hint
    assert "(s)" not in info.value.hint


@pytest.mark.parametrize("program, hint", [
    ("map({owner: .x, n: length)", "The { opened at column 5 is closed by ) at column 26: "
                                   "close it with }."),
    (".a)", "The ) at column 3 closes nothing: remove it."),
    ('"a)b" | (.x]', "The ( opened at column 9 is closed by ] at column 12"),
    ('"\\(.a]"', "The ( opened at column 2 is closed by ] at column 6"),
    ("# )\nmap(.a\n  | {b: 1)", "The { opened at line 3, column 5 is closed by ) at line 3, "
                                "column 10"),
])
def test_a_bracket_closed_by_another_kind_is_named(program, hint):
    with pytest.raises(JqMagicError) as info:
        query(program, text="[]")
    assert info.value.code == "INVALID_QUERY" and hint in info.value.hint


def test_brackets_that_pair_keep_the_syntax_hint():
    with pytest.raises(JqMagicError) as info:
        query('[.a, {b: "x)"}] | .. ]', text="[]")  # strings and pairs read as jq reads them
    assert "closes nothing" in info.value.hint and "column 22" in info.value.hint
    with pytest.raises(JqMagicError) as info:
        query("{a: 1} {b: 2}", text="[]")
    assert "opened at" not in info.value.hint and "closes nothing" not in info.value.hint
