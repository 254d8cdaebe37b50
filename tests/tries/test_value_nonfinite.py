"""A Python value holding NaN or an infinity (a DataFrame's, a computation's) answers as
jq 1.8.2 answers the same numbers made by `nan` and `infinite`: the fast path printed an
infinity as null and NaN's tostring as "nan", where jq prints its largest double and
"null"."""

from __future__ import annotations

import math

import pytest

import jqmagic

PROGRAMS = [".", ".a", "-.a", "[.a]", ".a | tostring", "tojson", "{b: .a}", ".a | isinfinite"]


@pytest.mark.parametrize("number, made", [(math.inf, "infinite"), (-math.inf, "-infinite"),
                                          (math.nan, "nan")])
@pytest.mark.parametrize("program", PROGRAMS)
def test_a_python_values_nonfinite_number_answers_as_jqs(number, made, program):
    given = jqmagic.query(program, value={"a": number}, compact=True)
    oracle = jqmagic.query(f"{{a: {made}}} | {program}", null_input=True, compact=True)
    assert oracle.engine == "libjq" and given.text == oracle.text
