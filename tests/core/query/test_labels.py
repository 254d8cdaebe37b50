"""libjq numbers labels per ``jq_state`` and never resets the count; a caught ``break``
shows it (``{"__jq": N}``). A long-lived worker answers each query as a new jq process
does: counted from 0, and on across the inputs of one run (issue 42)."""

from __future__ import annotations

from jqmagic import query

PROGRAM = "label $a | try break $a catch ."


def test_each_query_counts_labels_from_zero():
    assert [query(PROGRAM, null_input=True).values for _ in range(3)] == [[{"__jq": 0}]] * 3


def test_one_run_counts_on_across_its_inputs_as_jq():
    assert query(PROGRAM, text="1 2").values == [{"__jq": 0}, {"__jq": 1}]
    assert query(PROGRAM, text="1 2").values == [{"__jq": 0}, {"__jq": 1}]
