"""The fused loops (``[S]``, ``map(f)``, ``reduce``: one generated Python function each)
answer exactly as libjq 1.8.2, errors and their order included, or decline."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import compile_subset
from tests.core.jqlang.oracle import fast, libjq
from tests.core.jqlang.test_properties import documents

VALUES = [".", ".a", ".a.b", ".b?", "$x", "1", "2.5", '"s"', "null", "-.a", ".a + .b",
          ".a - 1", ".a * 2", ".a / .b", ".a % 3", "length", "(.a | tostring)", "[.a, .b]",
          "{a: .a, n: .b}", "{a}", "(.a // 0)", '"\\(.a):\\(.b)"', '"\\(.)"', "(.a | not)",
          '@csv "\\([.a])"', "(if .a then .b elif .b then 1 else . end)", "(.a and .b)",
          "(.a or .b)", "(.a == .b)", "(.a < 2)", "(.a >= 2.5)", '(.a == "s")', "(. > null)",
          '(.a | test("^a"))', '(tostring | test("1$"))', "[.[]?]", "map(.)?",
          "(reduce .[]? as $y (0; . + $y))", "(.a | length)", "(. as $z | $z.a)"]
CONDITIONS = [".a", ".a > 1", ".a == 1.5", '.a < "b"', ".a != 2", '. == "s"', ".a == null",
              ".b and .a", ". != 0", 'type == "number"', '(.a | test("1"))', "(.a, .b)",
              "empty", "error", ".a.b"]
SHAPES = ["[.[]? | {v}]", "[.[] | {v}]", "[.[]? | select({c}) | {v}]", "map({v})",
          "[.[]?.a?]", "[.[]? | select({c})]", "[.[]?, 1 | {v}]", "[.a[]? | {v}]",
          "reduce .[]? as $x (0; . + $x)", "reduce .[]? as $x (0; . + $x.a)",
          "reduce .[]? as $x (null; . + {v})", "reduce .[]? as $x (.; {v})",
          "reduce .[]? as $x (1.5; . + ($x | {v}))", "[.[]? | [.[]? | {v}]]",
          "try ([.[] | {v}]) catch .", "try (reduce .[] as $x (0; . + $x.a)) catch .",
          "[.[]? | select({c}) | select({c}) | {v}]", "[.. | {v}?]", "[.[]? | .[]? | {v}]"]

programs = st.builds(lambda shape, v, c: shape.format(v=v, c=c), st.sampled_from(SHAPES),
                     st.sampled_from(VALUES), st.sampled_from(CONDITIONS))


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs, document=documents, x=st.sampled_from([1, "s", None, [1]]))
def test_fused_loops_answer_as_libjq_or_decline(program, document, x):
    got = fast(program, document, {"x": x}, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(program, document, {"x": x}, compact=True)


ANALYST = '{"orders": [{"id": 1, "name": "item-1", "price": 12.5, "qty": 3.0, "r": null},' \
          ' {"id": 2, "name": "item-29", "price": 60.25, "qty": 1.0, "r": "east"},' \
          ' {"id": 3, "name": "x", "price": 7, "qty": 2, "r": "west"}]}'


@pytest.mark.parametrize("program", [
    "[.orders[] | select(.price > 50)] | length",
    "[.orders[].price] | add / length",
    '[.orders[] | "\\(.name): \\(.price)"]',
    '[.orders[] | select(.name | test("-9+$"))] | length',
    "reduce .orders[] as $o (0; . + $o.qty)",
    "reduce .orders[] as $o (0.5; . + $o.price)",
    "reduce .orders[] as $o ([]; . + [$o.r])", "reduce .orders[] as $o (null; . + $o.qty)",
    ".orders | map(.price)", ".orders | map({id, total: (.price * .qty)})",
    ".orders | map(if .r == null then 0 elif .r == \"east\" then 1 else 2 end)",
    "[.orders[] | .price > 10 and .qty < 3, .id == 2 or false]",
])
def test_analyst_programs_are_fused_and_answered(program):
    assert compile_subset(program) is not None
    got = fast(program, ANALYST, compact=True)
    assert got is not None, "the fast path declined"
    assert got == libjq(program, ANALYST, compact=True)


@pytest.mark.parametrize("program, document", [
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": 12.0, "xs": []}'),  # the literal stays
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": null, "xs": [12.0]}'),
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": 0, "xs": [1.5, 1.5]}'),  # 3, not 3.0
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": 1, "xs": [0.5, null, 2]}'),
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": -0.0, "xs": [-0.0]}'),
    ("reduce .xs[] as $x (.a; . + $x)", '{"a": 1e308, "xs": [1e308, -1e308]}'),
])
def test_a_sum_in_doubles_prints_as_jq(program, document):
    got = fast(program, document, compact=True)
    if got is not None:
        assert got == libjq(program, document, compact=True)
