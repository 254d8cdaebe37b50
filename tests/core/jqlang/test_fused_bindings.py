"""``S as $x | body`` with ``S`` a pipe, and ``reduce``/``foreach`` with several inits,
inside every fused form (``[S]``, ``map(f)``, ``[.[] | f]``, a reduction's source and
update): the fast path answers as libjq 1.8.2 or declines (issue 42: the body once got
the pipe's value as ``.``; a reduction's later inits once ran their source on ``.``, where
jq 1.8.2 runs it on null)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import compile_subset
from tests.core.jqlang.oracle import fast, jq_texts
from tests.core.jqlang.test_properties import documents

PIPES = ["(1 | 2)", '("x" | ascii_upcase)', "(.a? | tostring)", "(.[]? | .a?)",
         "(.a?, .b? | length?)", "(.a? // 1 | . + 1)", "([.[]?] | length)", "(1, 2 | . * 10)",
         "(. | type)", "(.[]? | numbers | . + 1)", "(.a? | .b?)", "({a: .} | .a | length?)"]
BODIES = [".", "$y", "[$y, .]", "{a: ., y: $y}", "($y | tostring)", "(.a? // $y)",
          "select($y != null) | .", "(. as $z | [$z, $y])", "($y, .)"]
BINDINGS = ["{p} as $y | {b}", "{p} as $y | {q} as $w | [$w, $y, .]",
            "({p} as $y | $y) as $w | [$w, .]", "{p} as $y | {p} | {b}",
            "{p} as [$y] ?// $y | {b}", "(. as $o | {p}) as $y | {b}"]
INITS = ["(0, 10)", "([], [1])", "(., null)", "(.a?, 1)", "empty", "((1, 2) as $y | [$y])",
         "(null, ., 3)"]
SOURCES = [".[]?", ".[]", "(.[]? | numbers)", "(1, 2)", ".", "(.a?, .b?)"]
REDUCTIONS = ["reduce {s} as $i ({i}; . + [$i]?)", "reduce {s} as $i ({i}; [., $i])",
              "[foreach {s} as $i ({i}; [., $i])]", "[foreach {s} as $i ({i}; 1; [., $i])]",
              "reduce {s} as $i ({i}; .)"]
FUSED = ["[{e}]", "map({e})?", "[.[]? | {e}]", "[.[]? as $i | {e}]",
         "reduce ({e}) as $r ([]; . + [$r])", "reduce .[]? as $r (0; [., ({e})])",
         "[.[]? | select(({e}) != 1)]", "[({e}) | [.]]", "try [.[] | {e}] catch ."]

bindings = st.builds(lambda form, p, q, b: form.format(p=p, q=q, b=b),
                     st.sampled_from(BINDINGS), st.sampled_from(PIPES),
                     st.sampled_from(PIPES), st.sampled_from(BODIES))
reductions = st.builds(lambda form, s, i: form.format(s=s, i=i), st.sampled_from(REDUCTIONS),
                       st.sampled_from(SOURCES), st.sampled_from(INITS))
programs = st.builds(lambda form, e: form.format(e=e), st.sampled_from(FUSED),
                     st.one_of(bindings, reductions))


def answers_as_libjq(program: str, document: str) -> bool:
    """Whether the fast path answered (it declined else); an answer is libjq's."""
    got = fast(program, document, compact=True)
    expected = jq_texts(program, document)
    if got is None:
        return False
    assert not (expected and expected[-1].startswith("error:")), (program, got.text, expected)
    assert (got.text.split("\n") if got.text else []) == expected, program
    return True


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs, document=documents)
def test_pipe_bindings_and_generator_inits_in_fused_forms_answer_as_libjq(program, document):
    event("answered" if answers_as_libjq(program, document) else "declined")


@pytest.mark.parametrize("program, document", [
    ("[(1|2) as $y | .]", "null"),
    ('map(("x"|ascii_upcase) as $y | $y, {a: .})', "[1]"),
    ("[.[] | (.a | tostring) as $y | {y: $y, v: .}]", '[{"a": 1}, {"a": "s"}]'),
    ("reduce .[] as $x (0, 10; . + $x)", "[1,2]"),
    ("reduce .[]? as $x (0, 10; . + $x)", "[1,2]"),
    ("[.[] | reduce . as $x (0, 1; . + $x)]", "[1,2]"),
    ("[foreach .[] as $x (0, 10; . + $x)]", "[1,2]"),
    ("reduce empty as $x (., .; .)", "[1,2]"),
])
def test_the_issues_programs_are_fused_and_answer_as_libjq(program, document):
    assert compile_subset(program) is not None
    fails = jq_texts(program, document)[-1].startswith("error:")
    assert answers_as_libjq(program, document) or fails  # a jq error is libjq's to word
