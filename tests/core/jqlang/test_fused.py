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
          "(reduce .[]? as $y (0; . + $y))", "(.a | length)", "(. as $z | $z.a)",
          "(.a.b // 1)", "($x // .a)", "(.a // .b // 2)", "(.a * .b)", "(0 * .a)",
          "(.a + 9007199254740991)", "(.a - .b * 3)", "(-1 * .a)", "ascii_downcase",
          '(tostring | startswith("1"))', '(.a | ltrimstr("a"))', "(.a | fromdate)",
          "(.a | todate)", 'strftime("%H")', "length", "(.a | keys)", "splits(\"a\")"]
CONDITIONS = [".a", ".a > 1", ".a == 1.5", '.a < "b"', ".a != 2", '. == "s"', ".a == null",
              ".b and .a", ". != 0", 'type == "number"', '(.a | test("1"))', "(.a, .b)",
              "empty", "error", ".a.b", '(.a | strings | test("^S"; "i"))', "(.[]? | . > 1)",
              '(.a | test("s"; "x"))', "(.a | numbers | . >= 1)", "(arrays | length > 1)",
              "(.b | booleans)", "(objects | .a)", "(.a | nulls | not)", "(.a | test(\"s\"; null))",
              ". == true", ".a != false", ".b == null", ".a.b != null", ". == false"]
SHAPES = ["[.[]? | {v}]", "[.[] | {v}]", "[.[]? | select({c}) | {v}]", "map({v})",
          "[.[]?.a?]", "[.[]? | select({c})]", "[.[]?, 1 | {v}]", "[.a[]? | {v}]",
          "reduce .[]? as $x (0; . + $x)", "reduce .[]? as $x (0; . + $x.a)",
          "reduce .[]? as $x (null; . + {v})", "reduce .[]? as $x (.; {v})",
          "reduce .[]? as $x (1.5; . + ($x | {v}))", "[.[]? | [.[]? | {v}]]",
          "try ([.[] | {v}]) catch .", "try (reduce .[] as $x (0; . + $x.a)) catch .",
          "[.[]? | select({c}) | select({c}) | {v}]", "[.. | {v}?]", "[.[]? | .[]? | {v}]",
          "reduce .[]? as $x ({{}}; .[$x.a] += 1)", "reduce .[]? as $x (.; .[$x] += $x)",
          "reduce .[]? as $x (null; .[$x.a] -= $x.b)", "reduce .[]? as $x ($x; .[$x.a] *= 2)",
          "reduce .[]? as $x ({{}}; .[$x | tostring] += [$x])", "[.[]? | .a.b[]? | {v}]",
          "[.[]? as $y | $y | {v}]", "[.[]? | . as $y | select({c}) | $y]",
          "[.[]? | .a[]? as $z | {v}]", "[.[]? | select({c}) | .a, .b.c]",
          "[.[]? | .a, ., $x, 1 | {v}]", "[.[]? | (.a, .b) as $y | {v}]",
          "[.[]? | .a | select({c}) | {v}]", "[.[] | .b | {v}]", "[.[]? | .a.b? | {v}]",
          "[.[]? | .a? | {v}]", "[.[]? | .b.a?, .a?]", "[.[]? | ({v})? | {v}]",
          "[.[]? | .a | ({v})?]", "[.[]? | try ({v}) | select({c})]", "[.[]? | .a | floor?]",
          "[.[]? | ceil?, (.a | floor?) | {v}]", "[.[]? | [{v}, .[0]?, length, .a.b]]",
          "[.[]? | [{v}, .b] | select({c})]"]

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
    '[.orders[] | select(.r | strings | test("^E"; "i"))] | length',
    '[.orders[] | select(.price | numbers | . > 10) | .id]',
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


EVENTS = '[{"t": "a", "n": 1}, {"t": "b", "n": 2.5}, {"t": "a", "n": null}, {"t": null},' \
         ' {"n": 3}, {"t": "c", "n": 9007199254740991}]'


KEYED_AND_OPTIONAL = [
    ('reduce .[] as $e ({}; .[$e.t] += 1)', EVENTS),  # a null key: the closure's error
    ('reduce .[1:3][] as $e ({}; .[$e.t] += $e.n)', EVENTS),  # may decline: a slice
    ('reduce .[:2][] as $e (null; .[$e.t] -= 1)', EVENTS),
    ('reduce .[:3][] as $e ({"a": 2}; .[$e.t] *= 3)', EVENTS),
    ('reduce .[:3][] as $e ({"a": "x"}; .[$e.t] += 1)', EVENTS),  # string + number
    ('reduce (.[5], .[5])as $e ({"c": 1}; .[$e.t] += $e.n)', EVENTS),  # may decline: past 2^53
    ('reduce ("a", 0, "b") as $k ({}; .[$k] += 1)', "null"),  # a number key on an object
    ('reduce (0, 1) as $k ([]; .[$k] += 1)', "null"),  # an array: the closure's path
    ('{m: {"a": 1}} | [reduce ("a", "b") as $k (.m; .[$k] += 1), .m]', "null"),  # shared
    ('reduce ("a", "a") as $k (.; .[$k] /= 2)', '{"a": 3}'),
    ('reduce ("a", "b") as $k (.; .[$k] %= 2)', '{"a": 3, "b": 0}'),
    ('[.[] | .x[]? | . * 2]', '[{"x": [1, 2]}, {"x": null}, {"x": "s"}, {"x": {"y": 3}}, 5]'),
    ('[.[] | .x.y[]?]', '[{"x": {"y": [1]}}, {"x": 4}]'),  # .x on 4 is not under the ?
    ('[.[] | (.a.b // 0) * 2 + (.c // 1)]', '[{"a": {"b": 3}}, {"a": null, "c": 2}, {}]'),
    ('[.[] | .a.b // 0]', '[{"a": "text"}]'),  # may decline: an error left of //
    ('[.[] | -1 * .a]', '[{"a": 2}, {"a": null}]'),  # jq: (-1) * .a
    ('[.[] | .a * .b, .a - .b, .a + .b]',  # may decline: past 2^53
     '[{"a": 0, "b": -3}, {"a": 9007199254740991, "b": 2}, {"a": 3, "b": 1.5}]'),
    ('[.[] | .a * .b, .a - .b, .a + .b]', '[{"a": 0, "b": -3}, {"a": 3, "b": 1.5}]'),
    ('[.[] as $x | $x.a]', '[{"a": 1}, {"a": [2]}]'),
]
MAY_DECLINE = {KEYED_AND_OPTIONAL[i] for i in (1, 5, 14, 16)}


@pytest.mark.parametrize("program, document", KEYED_AND_OPTIONAL)
def test_keyed_updates_optional_iterations_and_alternatives_answer_as_libjq(program, document):
    wrapped = f"try ({program}) catch ."  # an error is an answer too (else libjq's)
    got = fast(wrapped, document, compact=True)
    if got is None:
        assert (program, document) in MAY_DECLINE, "the fast path declined"
    else:
        assert got == libjq(wrapped, document, compact=True)
