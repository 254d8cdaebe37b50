"""Number literals jq 1.8.2 prints as written (``-0.0``, ``1.0``, ``1e-05`` as ``0.00001``,
``1.50``, ``1E+2``, integers past 2^53): on generated programs over generated texts of
them, the fast path answers exactly as libjq or declines (issue 53), and it answers most."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.jqlang.oddtexts import odd_texts
from tests.core.jqlang.oracle import fast, libjq
from tests.core.jqlang.test_properties import ATOMS, BINARY, UNARY

LITERALS = ["-0.0", "0.0", "-0", "0", "1.0", "1.00", "1e-05", "0.00001", "1E+2", "1e2", "1.50",
            "1.5", "0.1", "0.10", "9007199254740993", "9007199254740992", "-9007199254740993",
            "12345678901234567890", "100000000000000000000000", "1e-7", "2.5", "-3", "12.0",
            "-1.0", "1.5e300", "-1e-05", "250.0", "-0.00", "7e-1"]
NUMERIC = ["-.", "map(-.)", "length", "map(length)", "map(abs)", "add", "min", "max", "sort",
           "unique", "map(. * 1)", "map(. + 0)", "map(tostring)", "tojson", "map(. == 0)",
           "map(. < 1)", "group_by(.)", "[.[]? | select(. > 1)]", "map(-(-(.)))", "map(floor)",
           "map(. / 1)", "sort_by(-.)", "[.[]? | numbers] | add", "map(. == 1.0)",
           "map(. > 9007199254740992)", "map(tojson)", ".[0]", "first(.[]?)", "[.[]?]",
           "map(. - .)", "[.[]? | -. ] | add", "map([., -.])", "to_entries", "map(abs) | add",
           '"\\(.)"', "min_by(.)", "max_by(-.)", "unique_by(.)", "map(fabs)",
           "map(. * -1)", "map(0 * .)", "map(-(. * 0))"]
scalars = st.one_of(st.sampled_from(LITERALS), st.sampled_from(["null", '"ß"', "true"]))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(["a", "b"]), inner), max_size=3).map(
            lambda kv: "{" + ",".join(f'"{k}":{v}' for k, v in kv) + "}"),
    ),
    max_leaves=8,
)
programs = st.recursive(
    st.sampled_from(NUMERIC + ATOMS[:40]),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(UNARY), inner).map(lambda p: p[0].format(p[1])),
        st.tuples(st.sampled_from(BINARY), inner, inner).map(lambda p: p[0].format(p[1], p[2])),
    ),
    max_leaves=4,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs, document=documents, more=st.lists(documents, max_size=2))
def test_literals_answered_as_libjq_or_declined(program, document, more):
    """Several values too, a line each: JSON Lines whose literals differ line to line."""
    text = "\n".join([document, *more])
    got = fast(program, text, compact=True)
    event("declined" if got is None else "answered")
    if got is not None:
        assert got == libjq(program, text, compact=True)


@pytest.mark.parametrize("program", ['first(.[] | select(.id == "a"))', "[.[] | .v]",
                                     "map(.v) | unique", "map(.v | tostring)",
                                     "map(.v) | sort", "map(.v | length)", "map(-.v)",
                                     "map(-.v | -.)", "[.[] | .n] | max",
                                     "[.[] | select(.n > 9007199254740992)]"])
def test_a_text_with_odd_literals_is_answered(program):
    """The issue's forms: any output that may hold a -0.0 literal used to decline."""
    text = ('[{"id":"a","v":-0.0,"n":9007199254740995},{"id":"b","v":1e-05,"n":3},'
            '{"id":"c","v":1.0,"n":-0.0},{"id":"d","v":1.50,"n":null}]')
    got = fast(program, text, compact=True)
    assert got is not None and got == libjq(program, text, compact=True)


@pytest.mark.parametrize(("text", "texts"), [
    (b"[1.50, 1e-05, 12.0, -0.0, 3.25]", {1.5: "1.50", 1e-05: "0.00001"}),
    (b"[0.1, 0.10]", {0.1: None}),  # the double written two ways
    (b"[-0.0, -0.00, 0.00]", {"-0.0": None, "0.0": "0.00"}),
    (b"[7e-1, 1E+2, 1.5e300]", {100.0: "1E+2", 1.5e300: "1.5E+300"}),
    (b'{"a": "1.50 in a string", "b": 2.5}', {}),
])
def test_odd_texts_are_learnt_without_strings(text, texts):
    assert Literals.of_text(text).settle().odd_texts == texts


def test_a_text_given_with_its_strings_teaches_no_texts():
    assert odd_texts(lambda: [b'{"a": "0.10", "b": 0.1}']) is None


def test_long_integers_are_no_long_fractions():
    """Integers past 2^53 are held exactly: doubles compare as jq compares them."""
    assert not Literals.of_text(b"[9007199254740993, 2.5, 1e-05]").settle().long
    assert Literals.of_text(b"[0.10000000000000000001, 2.5]").settle().long


def test_a_side_process_sends_the_texts_back():
    from jqmagic.core.jqlang.oddtexts import OddTexts
    sent = OddTexts({1.5: "1.50", "-0.0": None, 1e-05: "0.00001"}, True)
    back = OddTexts.loads(sent.dumps())
    assert back.texts == sent.texts and back.long_fraction
    assert json.loads(sent.dumps())[0] is True


NEGATIONS = ["[.[] | -(.a // 0)]", "[.[] | -(.a)]", "[.[] | (.a | -.)]", "-(0)",
             "[.[] | -(.a - .a)]", "reduce .[] as $x (0; -.)", "[.[] | select(.a) | -.a]",
             "[.[] | -(.b // 0)]", "def f: -.; [.[] | .a // 0 | f]", "[.[] | -(.a? // 0)]",
             "[.[] | .a as $x | -$x]", "[.[] | -(length)]", "[.[] | -(.a // (1 - 1))]",
             "try error(0) catch -.", "[.[] | -(if .a then .a else 0 end)]"]


@pytest.mark.parametrize("program", NEGATIONS)
def test_negation_of_a_literal_zero_and_a_computed_one(program):
    """jq 1.8.2: ``-(0)`` of a literal zero is ``0``, of a computed one ``-0``; the fast
    path marks the negations whose operand is literal (provenance.py), answers those, and
    declines a zero it cannot place."""
    with_minus_zero = '[{"a":0},{},{"a":-0},{"a":-0.0},{"a":1.5},{"a":0.0}]'
    got = fast(program, with_minus_zero, compact=True)
    assert got is None or got == libjq(program, with_minus_zero, compact=True)
    text = '[{"a":0},{},{"a":-0.0},{"a":1.5},{"a":0.0},{"a":-1e-05}]'
    got = fast(program, text, compact=True)
    assert got is None or got == libjq(program, text, compact=True)
    if program in ("[.[] | -(.a // 0)]", "-(0)",
                   "[.[] | select(.a) | -.a]", "[.[] | -(if .a then .a else 0 end)]"):
        assert got is not None
