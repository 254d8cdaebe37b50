"""Each construct the fast path took over from libjq, on inputs chosen to reach its corners
(scoping, closures, error texts, copy-on-write, order of outputs): answered, and answered
exactly as libjq 1.8.2."""

from __future__ import annotations

import pytest

from tests.core.jqlang.oracle import fast, libjq

DOC = '{"a": [1, 2, {"b": null}], "c": "xyz", "d": {"e": 1.5, "f": [true, false]}}'
CASES = [
    # def: closures, $params, recursion, scoping by unique keys
    "def f(g): 1 as $x | g; 2 as $x | f($x)",
    "def f: def g: 3; g * 2; [f, (def g: 4; g)]",
    "def f($a; $b): [$a, $b]; [f(1, 2; 3, 4)]",
    "def f(g): [g, g]; f(.a[])",
    "def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; [range(8) | fac]",
    "def r(f): def rr: f | if . > 50 then . else rr end; rr; 1 | r(. * 3)",
    "def f(x): x as $v | [$v, x]; f(.a[0], .c)",
    "1 as $x | def f: $x; 2 as $x | [f, $x]",
    # nested definitions called twice each: compiled in place only so often (2^14 calls)
    " ".join(["def f0: . + 1;"] + [f"def f{i}: f{i - 1} | f{i - 1};" for i in range(1, 15)])
    + " .a[0] | [f14, (def g(x): x | x; g(g(g(f3))))]",
    # try/catch and libjq's error texts
    "[.a[] | try .b catch .]",
    "try (.c | ltrimstr(1)) catch .",
    "[try error({x: 1}) catch .x, try error(null) catch ., try error catch .]",
    "try (.a + .c) catch .",
    "try (.d - 1) catch .",
    "try ({} | keys | .[0] | -.) catch .",
    'try ("very-long-long-long-long-long-text" | -.) catch .',
    'try ("xx☆☆☆☆☆☆☆☆☆☆☆☆" | -.) catch .',
    "try (1 / 0) catch ., try (1 % 0) catch .",
    "try (.c | .[0]) catch ., try (.a | .x) catch ., try (.d[]| .[]) catch .",
    "try ({(.a): 1}) catch .",
    "[.[] | try tostring catch .] | length",
    "try error(\"\\(.c)!\") catch ., (.a[] | .b?), [.a[]?.b?]",
    "[.a[] | (try error catch .)] | length",
    "try (try error(\"inner\") catch error(\"outer \" + .)) catch .",
    "(error(\"x\"), 1)?",
    # which error comes first: jq runs the right operand, slice bounds and the last
    # interpolation first, and checks an object key's kind after its value
    ".c | [try (.x + .y) catch ., try .[.x:.y] catch ., try \"\\(.x) \\(.y)\" catch .]",
    ".c | [try {k: .x, l: .y} catch ., try {(.x): .y} catch ., try {(length): .y} catch .]",
    "[limit(0; error)], [first(1, error)]",
    # label and break
    "[label $out | .a[] | if type == \"object\" then break $out else . end]",
    "[label $a | label $b | 1, break $b, 2], 3",
    # destructuring and ?//
    ". as {a: [$x, $y], $c, d: {e: $e}} | [$x, $y, $c, $e]",
    "[.a[] as [$x] ?// $x | $x]",
    "[.a[] as {b: $x} ?// [$x] ?// $x | [$x]]",
    ". as [$x] ?// {c: $x} | $x",
    "reduce (.a[0, 1] | [.]) as [$x] (0; . + $x)",
    "[foreach (.a | to_entries[]) as {key: $k, value: $v} (0; . + 1; [$k, $v])]",
    '. as {"c": $x, ("a"): [$y]} | [$x, $y]',
    # paths and assignment
    "[paths]", "[paths(type == \"number\")]", "[path(..)]", "path(.a[1:])",
    "[path(.a[]?, .d[]?.x?)]", "[path(first(.a[]))]", "[path(.a | last)]",
    "[path(getpath([\"d\", \"f\", 0]))]", "[path(.a[] | select(type == \"number\"))]",
    "del(.a[0, 2])", "del(.a[] | select(. == 2))", "del(.d, .c)", "del(.a[1:])", "del(.)",
    "delpaths([[\"a\", 0], [\"d\"]])", "to_entries", "with_entries(.value |= type)",
    "setpath([\"x\", 2]; 1)", "getpath([\"d\", \"f\", 1])", "[getpath([\"zz\", 0])]",
    "try getpath(\"a\") catch .", "try setpath([-5]; 1) catch .", "pick(.d.e, .a[1])",
    ".a[0] = 9", ".a[0, 1] += 1", ".a[5] = 1", ".d.e *= 2", ".d.f[] |= not", ".x //= 3",
    ".a[] |= empty", ".d |= del(.e)", ".c |= ascii_upcase", ".a[1:] = [\"y\"]",
    ".a[1:2] |= map(. * 10)", ".. |= (if type == \"number\" then . + 1 else . end)",
    ".d[] = 0", "(.a, .d.f)[0] = null", ".a[] as $x | .c = $x", "try (.a[-9] = 1) catch .",
    "try (.c[0] = 1) catch .", "try (.a.b = 1) catch .", "try (.a[1:] = 3) catch .",
    "(.. | select(type == \"boolean\")) |= not", "map_values(type)",
    "to_entries | map(select(.key != \"c\")) | from_entries",
    # jq's library in Python
    "[tostream]", "fromstream(tostream)", "[1 | truncate_stream([[0], 1], [[1, 0], 2])]",
    "walk(if type == \"number\" then . * 2 else . end)", "[skip(1; .a[])]",
    "add(.a[] | numbers)", "[.a[] | IN(1, 2)]", "[\"a\", \"zz\"] | map(in({\"a\": 1}))",
    "[1, 2, 3] | bsearch(2, 0, 9)", "[[1, 2], [3, 4]] | [combinations]",
    "[[0, 1] | combinations(2)]", "[.a[0, 1] | tostring | tonumber]",
    "[\"true\", \"false\"] | map(toboolean)",
    "try (\"nope\" | tonumber) catch .", "\"%41%e2%98%86\" | @urid",
    "INDEX(.a[] | numbers; .)", ".c | [splits(\"y\")]", ".c * 2, (.c / \"y\")",
    "[.c | ltrimstr(\"x\"), rtrimstr(\"z\"), trimstr(\"x\")]",
    "try (.c | trimstr(1)) catch .", "1 | [limit(3; recurse(. * 2; . < 100))]",
    "$__loc__", "[1, 2 as $x | $x * 10, 3]", "\"[1, {\\\"a\\\": 2.5}]\" | fromjson",
    "[1425599507 | gmtime, todate, (todate | fromdate)]",
    "\"2015-03-05T23:51:47Z\" | strptime(\"%Y-%m-%dT%H:%M:%SZ\") | mktime",
    "[3.7, -3.7, 0.5] | map(round, trunc, fabs, significand, logb, frexp)",
    "[pow(2; 10), atan2(1; 1), fmod(7; 3), ldexp(3; 2)]",
    "try (\"a\" | sin) catch .",
    ".c | [gsub(\"(?<x>.)\"; if .x == \"y\" then \"0\", \"1\" else \"-\" end)]",
    "[.a[] | numbers] | join(\"-\")", "try join(\",\") catch .",
]


@pytest.mark.parametrize("program", [
    # jq's ?// takes a break (or an error further down the pipe) for its pattern's
    # failure and tries the next one: the fast path declines, libjq answers
    "label $out | ([1]) as [$v] ?// {a: $v} | (., break $out)",
    "first(.a as [$x] ?// {b: $x} | $x)",
])
def test_a_break_through_alternatives_is_declined(program):
    assert fast(program, DOC, compact=True) is None


@pytest.mark.parametrize("program", CASES)
def test_answered_exactly_as_libjq(program):
    got = fast(program, DOC, compact=True)
    assert got is not None, "declined"
    assert got == libjq(program, DOC, compact=True)
