"""After `.[` the offers are the keys as strings (issue 56: builtins were offered there,
and `.export` made `.[.export`, an index by another value)."""

from __future__ import annotations

from jqmagic.core.complete import complete

DATA = {"export": {"number": 1, "a b": 2}, "x": [1]}


def _texts(program: str) -> list[str]:
    return complete(program, value=DATA).texts


def test_keys_as_strings_right_after_the_bracket():
    assert _texts(".[") == ['"export"', '"x"']
    assert _texts(".export[") == _texts(".export.[") == ['"number"', '"a b"']
    assert _texts(".export | .[") == ['"number"', '"a b"']


def test_a_term_begun_inside_the_bracket_and_an_array_construction_are_left_as_they_were():
    assert _texts(".export[.") == [".export", ".x"]  # `.` there is the input again
    assert "map(" in _texts("[") and ".export" in _texts("[")
    assert _texts(".[0") == []
