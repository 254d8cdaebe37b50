"""The shapes suggest() deduces over collections (select conditions, counts, groups,
entries) and the comparisons it prefers, checked on their own (no timed search)."""

from __future__ import annotations

import pytest

from jqmagic.core.suggest.predicates import fitting
from jqmagic.core.suggest.programs import Entry
from jqmagic.core.suggest.rank import answer_literals, embeds
from jqmagic.core.suggest.records import Records
from jqmagic.core.suggest.steps import threshold
from jqmagic.core.suggest.verify import outputs


@pytest.mark.parametrize(("elements", "keep", "condition"), [
    ([{"want": {"n": 3}, "have": {"n": 1}}, {"want": {"n": 2}, "have": {"n": 2}}],
     [True, False], ".want.n > .have.n"),
    (["a ERROR b", "c INFO d", "e ERROR f"], [True, False, True], 'test("ERROR")'),
    (["tmp_a", "main.c", "tmp_b"], [True, False, True], 'startswith("tmp_")'),
    (["a.json", "b.yaml", "c.json"], [True, False, True], 'endswith(".json")'),
    ([{"n": "a", "mail": "x"}, {"n": "b"}], [False, True], 'has("mail") | not'),
    ([{"n": 1, "on": True}, {"n": 2, "on": False}], [True, False], ".on"),
    ([{"lvl": "error"}, {"lvl": "info"}, {"lvl": "error"}], [True, False, True],
     '.lvl == "error"'),
    ([{"tags": ["bug", "ui"]}, {"tags": ["docs"]}, {"tags": ["bug"]}], [True, False, True],
     'any(.tags[]; . == "bug")'),
    ([{"score": 71}, {"score": 42}, {"score": 55}], [True, False, True], ".score >= 50"),
    ([{"price": 9.99}, {"price": 14.2}, {"price": 7.5}], [True, False, True], ".price < 10"),
])
def test_a_condition_is_read_off_the_elements_kept(elements, keep, condition):
    assert fitting(elements, keep)[0] == condition


@pytest.mark.parametrize(("kept", "dropped", "comparison"), [
    ([3, 5], [0], (">", 0)),  # positive, not >= 1
    ([71, 55, 90], [42, 38], (">=", 50)),  # a pass mark, not > 42
    ([9.99, 7.5], [14.2, 11], ("<", 10)),  # books under 10
    ([1, 5], [3], None),  # no one bound splits them
])
def test_a_threshold_is_the_round_bound_a_teacher_writes(kept, dropped, comparison):
    assert threshold(kept, dropped) == comparison


def deduced(examples) -> list[str]:
    """The programs Records deduces from the input itself, each checked in libjq."""
    targets = tuple(tuple(outs) for _, outs in examples)
    root = Entry(0, ".", tuple((given,) for given, _ in examples))
    found = [e.text for e in Records(targets).deduce([root])]
    for text in found:
        assert all(outputs(text, given) == outs for given, outs in examples), text
    return found


def test_totals_per_key_are_a_group_by():
    examples = [([{"c": "a", "v": 1}, {"c": "b", "v": 2}, {"c": "a", "v": 4}],
                 [[{"c": "a", "total": 5}, {"c": "b", "total": 2}]]),
                ([{"c": "z", "v": 3}, {"c": "z", "v": 3}], [[{"c": "z", "total": 6}]])]
    assert deduced(examples) == ["group_by(.c) | map({c: .[0].c, total: map(.v) | add})"]


def test_lists_per_key_are_an_object_from_entries():
    examples = [([{"t": "x", "n": "a"}, {"t": "y", "n": "b"}, {"t": "x", "n": "c"}],
                 [{"x": ["a", "c"], "y": ["b"]}])]
    assert deduced(examples) == \
        ["group_by(.t) | map({key: .[0].t, value: map(.n)}) | from_entries"]


def test_no_group_by_where_no_two_records_share_a_key():
    examples = [([{"id": 1, "t": "a", "x": 0}, {"id": 2, "t": "b", "x": 0}],
                 [[{"id": 1, "t": "a"}, {"id": 2, "t": "b"}]])]
    assert not any(text.startswith("group_by") for text in deduced(examples))


def test_pairs_become_an_object():
    examples = [([["a", 1], ["b", 2]], [{"a": 1, "b": 2}]), ([["c", True]], [{"c": True}])]
    assert deduced(examples) == ["map({key: .[0], value: .[1]}) | from_entries"]


def test_a_count_under_a_condition():
    examples = [([{"l": "error"}, {"l": "info"}, {"l": "error"}], [2]),
                ([{"l": "info"}, {"l": "error"}], [1])]
    assert deduced(examples) == ['map(select(.l == "error")) | length']
    stock = [([{"q": 0}, {"q": 4}, {"q": 2}, {"q": 1}], [3]), ([{"q": 0}, {"q": 5}], [1])]
    assert deduced(stock) == ["map(select(.q > 0)) | length"]


def test_whether_any_element_meets_a_condition():
    examples = [([{"s": "ok"}, {"s": "failed"}], [True]), ([{"s": "ok"}, {"s": "ok"}], [False]),
                ([{"s": "skipped"}, {"s": "ok"}], [False])]
    assert deduced(examples) == ['any(.[]; .s == "failed")']


def test_a_field_of_the_items_each_record_lists():
    examples = [([{"lines": [{"sku": "a"}, {"sku": "b"}]}, {"lines": [{"sku": "c"}]}],
                 [["a", "b", "c"]])]
    assert "[.[].lines[].sku]" in deduced(examples)


def test_a_sum_of_products():
    examples = [([{"qty": 2, "price": 3}, {"qty": 1, "price": 10}], [16]),
                ([{"qty": 5, "price": 2}], [10])]
    assert deduced(examples) == ["map(.qty * .price) | add"]


def test_entries_kept_by_their_value():
    examples = [({"a": 3, "b": 0, "c": 1}, [{"a": 3, "c": 1}]), ({"x": 0, "y": 2}, [{"y": 2}])]
    assert deduced(examples) == ["with_entries(select(.value > 0))"]


def test_a_constant_is_the_answer_unless_the_inputs_hold_it():
    counted = answer_literals([([{"id": "a"}, {"id": "b"}], [2])])
    assert embeds("length | . - 2", counted) and not embeds(".[1].id", counted)
    held = answer_literals([([{"id": 2}, {"id": 5}], [2])])
    assert not embeds("length | . - 2", held)
    word = answer_literals([(["x ERROR y"], [["x ERROR y"]]), (["ERROR"], ["ERROR"])])
    assert not embeds('map(select(test("ERROR")))', word)


def test_a_stage_that_changes_nothing_is_dropped_either_side():
    from jqmagic.core.suggest.rank import ranked
    found = ranked([Entry(5, "reverse | map(.a) | add", ()), Entry(4, "map(.a) | add", ()),
                    Entry(6, "map(.a) | add | floor", ())])
    assert [e.text for e in found] == ["map(.a) | add"]


def test_position_picks_and_walks_cost_more_than_naming_a_field():
    from jqmagic.core.suggest.steps import constants, steps
    pool = constants([([{"a": 1}, {"a": 2}], [1])])
    costs = dict(steps([[{"a": 1}, {"a": 2}]], pool))
    assert costs["length"] < costs[".[1]"] == costs["last"] < costs["[.[] | .. ]"] < \
        costs["combinations"]
