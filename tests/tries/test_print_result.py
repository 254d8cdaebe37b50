"""``print(jqmagic.query(...))`` shows the results as jq prints them (it showed
``<QueryResult '.[]': 3 results>``), bounded: a huge text is cut at a line end with a line
saying how much more ``.text`` holds; no results says so."""

from __future__ import annotations

import jqmagic
from jqmagic.core.query.result import PRINTED_CHARS


def test_print_shows_jq_text():
    assert str(jqmagic.query(".[]", value=[{"a": 1}, 2, "x"])) == '{\n  "a": 1\n}\n2\n"x"'
    assert str(jqmagic.query(".[]", value=["x"], raw=True)) == "x"
    assert str(jqmagic.query("empty", value=1)) == "Query returned no results"
    assert repr(jqmagic.query(".", value=1)) == "<QueryResult '.': 1 result>"


def test_print_is_bounded():
    result = jqmagic.query("range(100000)", value=None)
    shown = str(result)
    assert len(shown) < PRINTED_CHARS + 200 and len(result.text) > 5 * PRINTED_CHARS
    body, last = shown.rsplit("\n", 1)
    assert result.text.startswith(body + "\n")  # cut at a line end
    assert f"{len(result.text) - len(body):,} more characters" in last
    assert "100,000 results" in last
