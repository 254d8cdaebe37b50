"""The no-results hint names a comparison of numbers with a string (or strings with a
number), which jq's ordering makes never true."""

from __future__ import annotations

import pytest

from jqmagic.core.shape.comparehint import mixed_comparison
from jqmagic.core.shape.hints import hint_for
from tests.core.jqlang.oracle import jq_texts

REPOS = [{"full_name": f"o/r{i}", "stars": i * 10, "version": f"{i}.0", "tag": f"v{i}"}
         for i in range(30)]


@pytest.mark.parametrize(("program", "said"), [
    ('.[] | select(.stars > "100") | .full_name', "compare with 100 (no quotes)"),
    ('.[] | select("100" < .stars)', 'so .stars > "100" is never true'),
    ('map(select(.stars == "20"))', "compare with 20"),
    ('.[] | select(.stars >= "many")', "compare with a number, or .stars | tostring"),
    (".[] | select(.version < 2)", "compare with (.version | tonumber) < 2"),
    (".[] | select(.tag == 3)", 'compare with a string ("3")'),
])
def test_a_comparison_jq_orders_away_is_named(program, said):
    import json
    assert jq_texts(program, json.dumps(REPOS)) in ([], ["[]"])  # jq: nothing, no error
    hint = hint_for(program, REPOS, results=[])
    assert said in hint and "jq orders every number before every string" in hint


@pytest.mark.parametrize("program", [
    ".[] | select(.stars > 100)",  # numbers with a number
    '.[] | select(.tag == "v3")',  # strings with a string
    '.[] | select(.missing > "1")',  # no such key
    '.[] | select(.stars < "1")',  # always true: not why nothing came
    ".[] | select(.tag > 1)",
])
def test_no_comparison_hint_where_the_kinds_agree(program):
    assert mixed_comparison(program, [REPOS]) == ""


def test_the_hint_is_for_no_results_only():
    program = '.[] | select(.stars > "100") | .full_name'
    assert "number" not in hint_for(program, REPOS, results=["x"])
