"""Sums over whole columns (:mod:`jqmagic.core.jqlang.columnsum`) are libjq 1.8.2's: a
reduce into an object keyed by a string column, ``+=`` a number column (``// N``), and
``[ITEMS[] | .a[]? | .x * .y] | add``, over rows with -0.0, 1.0, 1e-05, ints past 2^53,
sums past 2^53, nulls, booleans, strings and missing members (where the loop answers)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import columns, columnsum
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.errors import NotMine
from tests.core.jqlang.oracle import jq_texts
from tests.core.jqlang.test_vector import _fast

_NUMBER = st.sampled_from([-0.0, 0.0, 1.0, 1e-05, 0, -3, 2.5, 7, 7.0, 0.1, 19.99, -4.5,
                           9007199254740993, 4e15])
_ODD = st.one_of(_NUMBER, st.none(), st.sampled_from([True, False, "s", [1]]))
_KEY = st.sampled_from(["a", "b", "ä", "Σ"])


def _row(value, key, item):
    return st.fixed_dictionaries({"k": key}, optional={
        "v": value, "w": st.fixed_dictionaries({}, optional={"v": value}),
        "items": st.one_of(st.none(), st.lists(item, max_size=3)), "q": value, "p": value})


_item = st.fixed_dictionaries({"q": _NUMBER, "p": _NUMBER})
_odd_item = st.one_of(_item, st.fixed_dictionaries({}, optional={"q": _ODD, "p": _ODD}))
ROWS = st.one_of(
    st.lists(_row(_NUMBER | st.none(), _KEY, _item), min_size=1, max_size=8),
    st.lists(_row(st.sampled_from([-0.0, 0.0, 0, 1e-05]), _KEY, _item), min_size=1,
             max_size=3),  # the signs of zeros, few additions
    st.lists(_row(_ODD, _KEY | st.sampled_from([None, 1]), _odd_item) |
             st.sampled_from([None, "x", {"k": "a", "items": {"q": 1, "p": 2}}]),
             min_size=1, max_size=8))
PROGRAMS = [
    "reduce .[] as $e ({}; .[$e.k] += ($e.v // 0))",
    "reduce .[] as $e ({}; .[$e.k] += $e.v)",
    "reduce .[] as $e ({}; .[$e.k] += ($e.w.v // 5))",
    "[.[] | .items[]? | .q * .p] | add",
    "[.[] | .items[] | .q * .p] | add",
    "[.[] | .q * .p] | add",
    "[.[] | .items[]? | .q * .p] | add | [., . * 2]",
]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=st.sampled_from(PROGRAMS), sample=ROWS, times=st.integers(1, 30),
       in_c=st.booleans())
def test_column_sums_are_libjqs(program, sample, times, in_c):
    """Both ways: the groups summed and the lists joined in C, or by Python's builtins."""
    data = [dict(row) if type(row) is dict else row for row in sample] * times
    saved = columnsum.C_GROUPS, columns.C_JOINED, columnsum.C_PRODUCTS
    if not in_c:
        columnsum.C_GROUPS = columns.C_JOINED = columnsum.C_PRODUCTS = None
    try:
        texts, _ = _fast(program, data)
    except NotMine:  # the fast path declines (an error on the left of //): libjq answers
        return
    finally:
        columnsum.C_GROUPS, columns.C_JOINED, columnsum.C_PRODUCTS = saved
    assert texts == jq_texts(program, json.dumps(data)), program


@pytest.mark.parametrize("in_c", [True, False])  # the lists joined by C's pass, or Python's
@pytest.mark.parametrize("program", [p for p in PROGRAMS if ".items[] |" not in p])
def test_a_log_is_summed_from_its_columns(program, in_c, monkeypatch):
    rows = [{"k": "abc"[i % 3], "v": [0.1, None, 2, -0.0, 1e-05][i % 5],
             "w": {"v": 1.5}, "q": i % 4, "p": [19.99, 7, -0.0][i % 3],
             "items": None if i % 4 == 0 else [{"q": i % 5, "p": 0.5}] * (i % 3)}
            for i in range(3000)]
    answered, saved, summed, products = [], columnsum._sum, columnsum._summed, \
        columnsum._product_sum

    def recording(numbers):
        total = saved(numbers)
        answered.append(total is not NOTHING)
        return total

    def recording_groups(groups):
        sums = summed(groups)
        answered.append(sums is not None)
        return sums

    def recording_products(found):
        total = products(found)
        answered.append(total is not NOTHING)
        return total

    monkeypatch.setattr(columnsum, "_sum", recording)
    monkeypatch.setattr(columnsum, "_summed", recording_groups)
    monkeypatch.setattr(columnsum, "_product_sum", recording_products)
    if in_c:  # projected.py hands them over where the extension is built
        assert None not in (columnsum.C_GROUPS, columns.C_JOINED, columnsum.C_PRODUCTS)
    else:
        monkeypatch.setattr(columns, "C_JOINED", None)
        monkeypatch.setattr(columnsum, "C_GROUPS", None)
        monkeypatch.setattr(columnsum, "C_PRODUCTS", None)
    texts, _ = _fast(program, rows)
    assert answered and all(answered), "the column answer declined"
    assert texts == jq_texts(program, json.dumps(rows))


def test_a_null_iterated_is_the_loops_error():
    rows = [{"items": [{"q": 1, "p": 2.5}]}, {"items": None}] * 1000
    program = "[.[] | .items[] | .q * .p] | add"
    texts, _ = _fast(program, rows)
    assert texts == jq_texts(program, json.dumps(rows)) == [
        "error: Cannot iterate over null (null)"]


def test_a_sum_that_may_pass_2_53_is_the_loops():
    rows = [{"k": "a", "v": 4e15}] * 3000
    assert columnsum._sum([4e15] * 3000) is NOTHING
    assert columnsum._summed([("a", 3000, 4e15, 1.2e19, 1.2e19)]) is None
    program = PROGRAMS[0]
    texts, _ = _fast(program, rows)
    assert texts == jq_texts(program, json.dumps(rows))
