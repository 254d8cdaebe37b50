"""``X[]?`` (``X as $v | try $v[]``, as the parser writes it) over values that can and
cannot be iterated, in closures and fused loops, and ``any``/``all`` with a one-output
condition: answers as libjq gives them, errors of X itself not swallowed."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.jqlang.oracle import fast, libjq
from tests.core.jqlang.test_columns import rows

PROGRAMS = ["[.[] | .a[]?]",
            "[.[] | .a.b[]?.c[:2]]",
            '[.[] | .a[]?["c"]]',
            "[.[] | (.a, .c)[]?]",
            "[.[] | .a | keys[]?]",
            "[.[] | select(any(.a[]?; . == 1))] | length",
            "[.[] | select(all(.a[]?; type == \"number\"))] | length",
            "map(any(.a[]?; .c))",
            "[.[] | .a[]? | .c] | unique",
            "[.[] | (.a | error)[]?]"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=rows, program=st.sampled_from(PROGRAMS))
def test_optional_iteration_answers_as_libjq(value, program):
    text = json.dumps(value)
    got = fast(program, text, {}, compact=True)
    if got is not None:
        assert got.text == libjq(program, text, {}, compact=True).text


def test_items_that_cannot_be_iterated_are_passed_over_in_the_fast_path():
    text = json.dumps([{"a": [1, {"c": "xyz"}], "c": 3}, {"a": None}, {"a": "str", "c": [4]},
                       {"a": {"b": {"c": [1]}, "c": True}}, None])
    for program in ("[.[] | .a[]?]", "[.[] | (.a, .c)[]?]",
                    "[.[] | select(any(.a[]?; . == 1))] | length",
                    "[.[] | select(all(.a[]?; type == \"number\"))] | length"):
        got = fast(program, text, {}, compact=True)
        assert got is not None and got.text == libjq(program, text, {}, compact=True).text
