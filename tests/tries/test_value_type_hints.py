"""A hint about a Python value names the kind jq was given: ``query('.a.b', value={'a':
(1, 2)})`` hinted "at .a there is a number" for a tuple (jq read an array), and so for an
OrderedDict, a Counter, a set, bytes and a date (``type_name`` knew only the exact JSON
types, anything else being "number")."""

from __future__ import annotations

import collections
import datetime

import pytest

import jqmagic
from jqmagic.core.words import type_name


@pytest.mark.parametrize("value, program, kind", [
    (collections.OrderedDict(a=collections.OrderedDict(b=1)), ".a[0]", "an object"),
    (collections.Counter(a=1), ".[0]", "an object"),
    ({"a": (1, 2)}, ".a.b", "an array"),
    ({"a": {1, 2}}, ".a.b", "an array"),
    ({"a": b"xy"}, ".a.b", "a string"),
    ({"a": datetime.date(2020, 1, 2)}, ".a.b", "a string"),
])
def test_hints_name_the_kind_jq_was_given(value, program, kind):
    with pytest.raises(jqmagic.JqMagicError) as caught:
        jqmagic.query(program, value=value)
    assert f"there is {kind}, not" in caught.value.hint, caught.value.hint


def test_json_types_and_numbers_are_as_before():
    assert [type_name(v) for v in (None, True, 1, 1.5, "s", [], {})] == [
        "null", "boolean", "number", "number", "string", "array", "object"]
    assert type_name(10 ** 30) == "number"
