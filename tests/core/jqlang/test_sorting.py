"""Ordering builtins on the fast path (sort, unique, group_by, sort_by and kin, with
their shortcuts for keys of strings alone or numbers alone) answer exactly as libjq
1.8.2, or decline."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.core.jqlang.oracle import fast, libjq

# Code point order (jq's: UTF-8 bytes) differs from UTF-16's for "😀" and "ｚ"; "é" and
# "e\u0301" look alike and differ.
STRINGS = st.text(alphabet="abé😀ｚ\x7f\u0301", max_size=3).map(json.dumps)
NUMBERS = st.one_of(
    st.integers(-3, 3).map(str),
    st.sampled_from(["0.0", "-0.0", "1.0", "9007199254740991", "-9007199254740992"]),
    st.integers(-40, 40).map(lambda i: repr(i / 4)))
LONG = st.sampled_from(["1.50", "1e1000", "9007199254740993", "100000000000000000001",
                        "0.10000000000000000001", "-0", "1e2", "5e-324", "1e-7"])
OTHERS = LONG | st.sampled_from(["null", "true", "false", "[]", "[1]", '["a"]', "{}",
                                 '{"a":1}'])
ONE_KIND = st.sampled_from([STRINGS, NUMBERS]).flatmap(lambda kind: st.lists(kind, max_size=8))
MIXED = st.lists(STRINGS | NUMBERS | OTHERS, max_size=8)
SCALARS = st.sampled_from(["null", "true", "false"])  # with strings: an optional field's keys
OPTIONAL = st.sampled_from([STRINGS, NUMBERS]).flatmap(  # an optional member's values
    lambda kind: st.lists(kind | st.just("null"), max_size=8))
ITEMS = ONE_KIND | MIXED | st.lists(STRINGS | NUMBERS | SCALARS, max_size=8) | OPTIONAL

PROGRAMS = ["sort", "unique", "group_by(.)", "unique_by(.)", "sort_by(.)", "group_by(tostring)",
            "unique_by(tostring)", "sort_by(tostring)", "min", "max", "min_by(.)", "max_by(.)",
            "[sort, unique, group_by(.)] | map(length)", "group_by(.) | map(length)"]
BY_FIELD = ["sort_by(.k)", "sort_by(-.n)", "group_by(.k)", "unique_by(.k)", "sort_by(.k, .n)",
            "group_by(.k) | map(map(.n))", "min_by(.k)", "max_by(.k)", "sort_by(.k | length)",
            "sort_by(.n) | map(.n)", "group_by(.k | ascii_downcase)"]


def _same_as_libjq(program: str, document: str) -> bool:
    """Whether the fast path answered (then as libjq did)."""
    wrapped = f"try ({program}) catch ."
    got = fast(wrapped, document, compact=True)
    if got is not None:
        assert got == libjq(wrapped, document, compact=True)
    return got is not None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=ITEMS, program=st.sampled_from(PROGRAMS))
def test_items_ordered_as_libjq(items, program):
    event("answered" if _same_as_libjq(program, "[" + ",".join(items) + "]") else "declined")


RECORDS = st.lists(st.tuples(STRINGS | NUMBERS | OTHERS, NUMBERS), max_size=8) | \
    st.lists(st.tuples(STRINGS | SCALARS, NUMBERS), max_size=8)
RECORDS_OF_ONE_KIND = st.sampled_from([STRINGS, NUMBERS]).flatmap(
    lambda kind: st.lists(st.tuples(kind, st.integers(-5, 5).map(str)), max_size=8))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=RECORDS | RECORDS_OF_ONE_KIND, program=st.sampled_from(BY_FIELD))
def test_records_ordered_by_a_field_as_libjq(records, program):
    document = "[" + ",".join(f'{{"k":{k},"n":{n}}}' for k, n in records) + "]"
    event("answered" if _same_as_libjq(program, document) else "declined")


@pytest.mark.parametrize("program, document", [
    ("group_by(.)", '["b", "a", "b", "😀", "ｚ", "a"]'),
    ("unique", '["b", "a", "b", "😀", "ｚ", "a"]'),
    ("sort_by(.)", "[1, 1.0, -0, 0, 0.0, -1.5, 9007199254740991]"),
    ("unique", "[1.0, 1, null, -0.0, 0, 0.0, 2.5, null]"), ("unique", "[-0.0, 0, 1.5, 1.50]"),
    ("unique", "[0, -0.0, null, 1e-05, 0.00001]"),
    ("sort_by(-.)", "[1, 1.0, 2, 2.0, 3]"),
    ("unique", "[1, true, 1.0, 0, false]"),
    ("unique", "[2, 1, 2, 1.0, 1]"),
    ("group_by(.)", "[1, true, 1.0, null, false, 0]"),
    ("group_by(.)", "[1.0, 1, -0.0, 0, 2, 0.5]"), ("unique_by(.)", "[1.0, 1, -0.0, 0, 2]"),
    ("group_by(.k)", '[{"k": 1.0, "n": 1}, {"k": 1, "n": 2}, {"k": -1, "n": 3}]'),
    ("group_by(.a)", '{"a": 1}'),
    ("sort_by(.a)", '{"a": 1}'),
    ("group_by(.)", '"abc"'),
    ("unique", "null"),
    ("sort_by(.)", "[9007199254740993, 1]"),
    ("max", "[1, 1.0, 0]"), ("min", "[2, 1.0, 1]"), ("max", "[9007199254740993, 1]"),
    ("[min, max]", "[]"), ("max", '["b", "a", "b"]'), ("unique", "[3, 1, 3]"),
])
def test_edges_as_libjq(program, document):
    """Floats and ints that are equal keep their input order; a set would merge 1, 1.0 and
    true; inputs that are not arrays fail as in jq."""
    _same_as_libjq(program, document)


def test_group_by_identity_holds_every_string():
    got = fast("group_by(.)", '["b", "a", "b", "😀", "ｚ", "a"]', compact=True)
    assert got is not None
    assert json.loads(got.text) == [["a", "a"], ["b", "b"], ["ｚ"], ["😀"]]


# an optional field: nulls beside numbers alone or strings alone (the keys sorted apart)
OPTIONAL = st.sampled_from([NUMBERS, STRINGS]).flatmap(
    lambda kind: st.lists(st.tuples(kind | st.just("null"), st.integers(-3, 3).map(str)),
                          max_size=8))
BY_OPTIONAL = ["map(.k) | unique", "sort_by(.k)", "min_by(.k)", "max_by(.k)",
               "sort_by(.k) | map(.n)", "[min_by(.k), max_by(.k)] | map(.n)",
               "sort_by(.k) | .[-2:]"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=OPTIONAL, program=st.sampled_from(BY_OPTIONAL))
def test_optional_keys_ordered_as_libjq(records, program):
    document = "[" + ",".join(f'{{"k":{k},"n":{n}}}' for k, n in records) + "]"
    assert _same_as_libjq(program, document) or any(k in {"-0.0", "0.0", "1.0"}
                                                    for k, _ in records)


@pytest.mark.parametrize("program, document", [
    ("sort_by(.k) | map(.n)", '[{"k": 2, "n": 1}, {"n": 2}, {"k": null, "n": 3}, '
                              '{"k": -1.5, "n": 4}, {"k": 2.0, "n": 5}]'),
    ("min_by(.k).n", '[{"k": 2, "n": 1}, {"k": null, "n": 2}, {"k": null, "n": 3}]'),
    ("max_by(.k).n", '[{"k": "b", "n": 1}, {"k": null, "n": 2}, {"k": "b", "n": 3}]'),
    ("max_by(.k).n", '[{"k": null, "n": 1}, {"k": null, "n": 2}]'),
])
def test_optional_key_edges_as_libjq(program, document):
    """Nulls come first, equal keys keep their input order, the last greatest wins."""
    assert _same_as_libjq(program, document)
