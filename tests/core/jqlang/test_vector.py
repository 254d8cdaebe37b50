"""Answers over a whole column (:mod:`jqmagic.core.jqlang.vector`) are libjq 1.8.2's: the
same outputs in the same order, the same first error, and no answer where Python's
equality is not jq's (1 and true, 1 and 1.0)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.jqlang import (
    JqError,
    columns,
    compile_subset,
    runtime,
    sortedcut,
    sorting,
    vector,
)
from jqmagic.core.jqlang.compiled import NOTHING
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.literals import Literals
from jqmagic.core.jqlang.printer import tojson
from tests.core.jqlang.oracle import jq_texts


def _fast(program: str, rows: list, root: dict | None = None) -> tuple[list[str], bool]:
    """The fast path's compact texts of ``program`` over ``rows`` (an owned list whose
    columns the first run builds or records), or over a ``root`` object holding them,
    ``error: MESSAGE`` last on an error; and whether a column answer (:mod:`.vector`)
    made them."""
    saved, answered, fewest = vector._table, [], columns.MIN_ITEMS

    def table(column, fn):
        made = saved(column, fn)
        answered.append(made is not None)
        return made

    class Counting(Counter):  # the counts of reduce ... += 1
        def __init__(self, values):
            answered.append(True)
            super().__init__(values)

    columns.MIN_ITEMS = 0
    columns.own(rows, 1 << 30)
    vector._table, vector.Counter = table, Counting
    try:
        literals = Literals.of_text(json.dumps(rows).encode()).settle()
        runtime.start(None, literals)
        compiled = compile_subset(program)
        assert compiled is not None, program
        for _ in range(2):  # the first run may read the items; the second has columns
            runtime.start(None, literals)
            answered.clear()
            texts: list[str] = []
            try:
                texts.extend(tojson(out) for out in compiled.run(
                    rows if root is None else root, {}))
            except JqError as exc:
                texts.append(f"error: {exc.value}")
        return texts, any(answered)
    finally:
        vector._table, vector.Counter, columns.MIN_ITEMS = saved, Counter, fewest
        columns.forget(rows)


CHAINS = [".a", ".b.c"]
AFTER = ["ascii_downcase", "tostring", "type", ". + 1", "length", 'startswith("Z")',
         'test("o")', "[., .]", "empty", "(., .)", "select(. != null)", "tojson",
         "if . then 1 else 2 end", 'ascii_downcase? // "-"', ".[0]?", 'error("e \\(.)")',
         "ascii_downcase | select(startswith(\"z\"))"]
TESTS = ['startswith("Z")', 'test("o")', "[., .]", "empty", "(true, ., 1)", "length > 1"]
CONDITIONS = ['== "Zo"', "!= null", "< 2", "== 1", "== true", ">= \"m\""]
SHAPES = (
    [f"[.[] | {c}]{then}" for c in CHAINS for then in ("", " | unique", " | group_by(.)")]
    + [f"[.[] | {c} | {f}]" for c in CHAINS for f in AFTER]
    + [f"[.[] | select({c} | {f})]" for c in CHAINS for f in TESTS]
    + [f"[.[] | select({c} {op})]" for c in CHAINS for op in CONDITIONS]
    + [f"[.[] | select({c} | {f})] | length" for c in CHAINS for f in TESTS]
    + [f"[.[] | select({c} {op})] | length | . + 1" for c in CHAINS for op in CONDITIONS]
    + [f"reduce .[] as $e ({{}}; .[$e{c}] += {n})" for c in CHAINS for n in (1, 2, "true")]
    + [f"[.[] | select({c} {op}) | {d}]" for c in CHAINS for d in CHAINS
       for op in CONDITIONS[:3]]
    + [f"[.[] | select({c} | {f}) | {d}]" for c in CHAINS for d in CHAINS for f in TESTS])

_keyable = st.one_of(st.none(), st.integers(-2, 2),
                     st.sampled_from(["Zo", "zo", "ann", "Ünï", "1"]))
_scalar = st.one_of(_keyable, st.booleans(), st.just(1.0), st.just([1]), st.just({"c": "x"}))


def _rows(value, item=None):
    row = st.fixed_dictionaries({}, optional={"a": value, "b": st.one_of(
        st.fixed_dictionaries({}, optional={"c": value}), st.none(), value)})
    return st.lists(row if item is None else st.one_of(row, item), min_size=1, max_size=10)


rows = st.one_of(_rows(_keyable), _rows(st.one_of(_keyable, st.booleans(), st.just(1.0))),
                 _rows(_scalar, st.sampled_from([None, "s"])))
"""Rows whose chains a column answers; rows with booleans and 1.0 beside ints and strings;
and rows with arrays, objects and items where the chain is an error, which it must leave
to the loop."""


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=st.sampled_from(SHAPES), sample=rows, times=st.integers(1, 60))
def test_column_answers_are_libjqs(program, sample, times):
    """Repeated rows (so that their values repeat, as a log's do) with nulls, booleans,
    ints beside 1.0, strings, arrays and objects among them, and items where the chain
    is an error."""
    data = sample * times
    texts, _ = _fast(program, data)
    assert texts == jq_texts(program, json.dumps(data)), program
    inner = program.replace(".[]", ".rows[]", 1)  # the list an object holds
    texts, _ = _fast(inner, data, {"rows": data})
    assert texts == jq_texts(inner, json.dumps({"rows": data})), inner


EVENTS = [{"type": "Push", "actor": {"login": "Zoe"}, "n": 1},
          {"type": "Watch", "actor": {"login": "ann"}, "n": 2},
          {"type": "Push", "actor": {"login": "zed"}},
          {"type": "Fork", "actor": {"login": "Ann"}, "n": 3}] * 500


@pytest.mark.parametrize("program", [
    '[.[] | .actor.login | ascii_downcase | select(startswith("z"))]',
    '[.[] | select(.actor.login | test("^[Zz]"))]',
    '[.[] | select(.type == "Push")]',
    "[.[] | select(.type | (true, ., 1))]",  # three times each item
    "[.[] | .type | (., ascii_downcase)]",
    "reduce .[] as $e ({}; .[$e.type] += 1)",
    '[.[] | select(.type == "Push")] | length',
    '[.[] | select(.type == "Push") | .actor.login]',
    "[.[] | select(.type | (true, ., 1)) | .n]",
    "[.[] | select(.type | (true, ., 1))] | length",
])
def test_a_column_of_repeated_strings_answers_through_its_table(program):
    texts, answered = _fast(program, [dict(e) for e in EVENTS])
    assert answered, "the column answer declined"
    assert texts == jq_texts(program, json.dumps(EVENTS))
    inner, rows = program.replace(".[]", ".events[]"), [dict(e) for e in EVENTS]
    texts, answered = _fast(inner, rows, {"events": rows})  # a list an object holds
    assert answered, "the column answer declined"
    assert texts == jq_texts(inner, json.dumps({"events": EVENTS}))


_BOTH = ["[.[] | .a | tostring]", "reduce .[] as $e ({}; .[$e.a] += 1)"]


@pytest.mark.parametrize(("programs", "rows"), [
    (_BOTH, [{"a": "x"}, {"a": 1}, {"a": True}] * 400),  # equal in Python, not in jq
    (_BOTH, [{"a": "x"}, {"a": 1.0}, {"a": 1}] * 400),  # one number, printed as written
    (_BOTH, [{"a": f"id-{i}"} for i in range(1200)]),  # no repeats: the loop is cheaper
    (_BOTH[1:], [{"a": "x"}, {"a": None}] * 600),  # a null key: the loop raises jq's error
])
def test_no_column_answer_where_it_would_differ_or_not_pay(programs, rows):
    for program in programs:
        texts, answered = _fast(program, rows)
        assert not answered, (program, rows[:2])
        assert texts == jq_texts(program, json.dumps(rows))


def test_the_first_error_is_the_first_items_in_order():
    rows = [{"a": "ok"}, {"a": 7}, {"a": [1]}] * 700
    program = "[.[] | .a | ascii_downcase]"
    texts, answered = _fast(program, rows)
    assert texts == jq_texts(program, json.dumps(rows)) == [
        "error: explode input must be a string"]


def test_a_column_keeps_one_object_per_distinct_value():
    rows = [{"t": "".join(["Pu", "sh"])} for _ in range(2000)]  # equal, not the same
    assert len({id(r["t"]) for r in rows}) > 1
    columns.own(rows, 1 << 30)
    try:
        runtime.start(None)
        column = columns.column(rows, ("t",))
        assert column == ["Push"] * 2000
        assert len({id(value) for value in columns.shared(rows, ("t",))}) == 1
    finally:
        columns.forget(rows)


def test_a_count_adds_the_number_1_only():
    """``+= true`` is an error in jq (true == 1 in Python): the loop raises it."""
    rows = [{"a": "x"}, {"a": "y"}] * 600
    program = "reduce .[] as $x ({}; .[$x.a] += true)"
    texts, answered = _fast(program, rows)
    assert not answered
    assert texts == jq_texts(program, json.dumps(rows))


def test_values_a_sample_says_repeat_but_do_not_are_left_to_the_loop(monkeypatch):
    rows = [{"a": f"v{i}"} for i in range(3000)]
    monkeypatch.setattr(columns, "repeats", lambda items, chain: True)  # a sample misled
    program = "[.[] | .a | ascii_upcase]"
    texts, answered = _fast(program, rows)
    assert not answered
    assert texts == jq_texts(program, json.dumps(rows))


_odd = st.one_of(st.none(), st.sampled_from([-0.0, 0.0, 1.0, 1e-05, 0, -3, 2.5, 7, 7.0, True,
                                             False, 9007199254740993, "b", "ä", "a", [1], {}]))
_row = st.one_of(st.fixed_dictionaries({"id": st.integers(0, 9)}, optional={
    "a": st.one_of(_odd, st.fixed_dictionaries({}, optional={"b": _odd}))}),
    st.sampled_from([None, 3, "s"]))  # an item whose chain is an error: the pipe raises it
_numbers = st.fixed_dictionaries({"id": st.integers(0, 9)}, optional={"a": st.one_of(
    st.none(), st.fixed_dictionaries({}, optional={"b": st.one_of(
        st.none(), st.sampled_from([-0.0, 0.0, 1.0, 1e-05, 0, -3, 2.5, 7, 7.0]),
        st.floats(-5, 5, allow_nan=False))}))})
_strings = st.fixed_dictionaries({"id": st.integers(0, 9)}, optional={"a": st.one_of(
    st.none(), st.fixed_dictionaries({"b": st.sampled_from(["b", "ä", "a", "😀", "ｚ"])}))})
_bound = st.sampled_from(["", "0", "1", "2", "-1", "-3", "1.5", "-2.5", "50", "-50", "3"])
_cuts = st.one_of(st.builds(lambda lo, hi: f".[{lo}:{hi}]", _bound, _bound).filter(
    lambda cut: cut != ".[:]"),
                  st.sampled_from([".[0]", ".[-1]", ".[2]", ".[-4]", ".[99]"]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=st.one_of(st.lists(_row, min_size=1, max_size=8),
                        st.lists(_numbers | _strings, min_size=1, max_size=8),
                        st.lists(_numbers, min_size=1, max_size=8)),
       times=st.integers(1, 40), cut=_cuts, picked=st.sampled_from([2, 256]),
       shape=st.sampled_from(["[.[] | {id, k: .a.b}] | sort_by(.k)",
                              "[.[] | {k: .a.b, id}] | sort_by(.k)",
                              "[.[]] | sort_by(.a.b)", "[.[] | {id, k: .a}] | sort_by(.k)"]),
       then=st.sampled_from(["", " | map(.id)", " | length"]))
def test_a_sort_by_cut_is_libjqs(sample, times, cut, picked, shape, then):
    """``[ITEMS[] | {...}] | sort_by(.k) | CUT``: keys with nulls, -0.0, 1.0, 1e-05, ints
    past 2^53, booleans, strings, containers and items whose chain is an error; the few
    kept picked from either end or the whole sorted (``PICKED`` small)."""
    data = [dict(row) if type(row) is dict else row for row in sample] * times
    program = f"{shape} | {cut}{then}"
    saved, sorting.PICKED = sorting.PICKED, picked
    try:
        texts, _ = _fast(program, data)
    except NotMine:  # the fast path declines (2^53 + 1 beside a double): libjq answers
        return
    finally:
        sorting.PICKED = saved
    assert texts == jq_texts(program, json.dumps(data)), program


@pytest.mark.parametrize("program", ["[.[] | {id, lat: .geo.lat}] | sort_by(.lat) | .[-4:]",
                                     "[.[]] | sort_by(.geo.lat) | .[0] | .id",
                                     "[.[] | {lat: .geo.lat}] | sort_by(.lat) | .[100:103]"])
def test_a_sort_by_cut_makes_only_the_kept_objects(program, monkeypatch):
    rows = [{"id": i, "geo": None if i % 7 == 0 else {"lat": (i * 37 % 101) / 4}}
            for i in range(3000)]
    answered, saved = [], sortedcut._sorted_cut

    def recording(*args):
        answer = saved(*args)

        def recorded(v, env):
            kept = answer(v, env)
            answered.append(kept is not NOTHING)
            return kept
        return recorded

    monkeypatch.setattr(sortedcut, "_sorted_cut", recording)
    texts, _ = _fast(program, rows)
    assert answered and all(answered), "the column answer declined"
    assert texts == jq_texts(program, json.dumps(rows))


@pytest.mark.parametrize("program", ["[] | add", "[] | sort_by(.a) | .[0]", "[] | length",
                                     "[] | map(.a)", "[] | add | length"])
def test_an_empty_array_is_no_stream_of_items(program):
    """``[]`` holds no stream: the plans of ``[ITEMS[] | ...] | f`` pass it by (they read
    its stream and failed to compile ``[] | add``)."""
    compiled = compile_subset(program)
    assert compiled is not None
    assert [tojson(v) for v in compiled.run(None, {})] == jq_texts(program, "null")
