"""A JSON file over the document budget, asked by the notebook's and agents' faces
(``jqmagic.query``, the ``jq`` tool): the streaming pass answers only a file the document
scan vouches for (one array or object jq's parser takes, no key repeated on the program's
path); a file of several documents that each fit is read by libjq, one at a time, as jq
reads it; anything else is TOO_LARGE, saying why. Answers are jq 1.8.2's (the oracle)."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError, query, tools
from jqmagic.core.query.streaming import documents
from jqmagic.core.settings import settings
from tests.cli import dropin

pytestmark = pytest.mark.skipif(documents.of_file(__file__, 1) is None,
                                reason="the document scan (_docscan) was not built: no compiler")

BUDGET = 48  # bytes: every document below fits, no file does
MANY = {  # several documents, each within the budget
    "two.json": '[{"a": 1}, {"a": "x"}] [{"a": -0.0}, {"a": 1E1000}]',
    "lines.json": '{"a": [1, 2]}\n' * 6,
    "dupes.json": '{"a": 1, "b": 2, "a": 3}\n{"a": [4], "a": [5, 6]}\n',
    "errors.json": '[1, "x", 2]\n[3]\n{"a": "b"}\n[4, 5]\n[6, "y"]\n[7, 8, 9]\n',
    "scalars.json": '1 "two" [3, 4] {"a": 4} null [5] -0 {"b": [6, 7]}',
    "damaged.json": '[1, 2]\n[3, "x"]\n[4, 5, 6, 7, 8]\n[{"a": 4}, nul\n[5]\n',
    "nan.json": '[0]\n[1, 2]\n[1, nan]\n[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n[13, 14]\n',
}
ONE = {  # one document past the budget
    "array.json": '[{"a": 1}, {"a": "x"}, {"a": -0.0}, {"a": [1.10, 100000000000000000001]}]',
    "object.json": '{"k": {"a": "\\u00e9\\ud83d\\ude00"}, "j": {"a": 3}, "m": [1, 2, 3, 4]}',
}
TOO_LARGE = {  # one document past the budget that the pass cannot answer exactly
    "repeated.json": ('{"a": [1, 2, 3, 4], "b": [5, 6, 7, 8, 9], "a": [10]}',
                      "the key at byte 44 repeats in an object the program walks"),
    "broken.json": ('[{"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}, {"a": nul',
                    "not JSON this pass vouches for at byte 50"),
    "big.json": ('{"a": 1}\n[' + "1, " * 20 + "1]\n",
                 "it holds 2 documents, the biggest 0 MB"),
}
PROGRAMS = [".[]", "first(.[])", "limit(1; .[])", "length", ".[] | tostring",
            "[.[] | type] | length", ".a", ".[] | . + 1", "[.[] | numbers] | add"]


@pytest.fixture
def small_budget(monkeypatch, tmp_path):
    """The files written in ``tmp_path`` and a budget none fits (the worker takes the
    caller's settings)."""
    for name, text in {**MANY, **ONE, **{n: t for n, (t, _) in TOO_LARGE.items()}}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert len(text.encode()) > BUDGET, name
    monkeypatch.setattr(settings, "doc_cache_bytes", BUDGET)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _as_jq(program: str, name: str) -> tuple[str, bool]:
    """jqmagic.query's printed results and whether it failed, as jq's stdout and stderr."""
    try:
        result = query(program, file=name, compact=True, passthrough=True)
    except JqMagicError as exc:
        assert exc.code in ("QUERY_ERROR", "INVALID_JSON"), (exc.code, exc.message)
        return (exc.result.text + "\n" if exc.result and exc.result.total else ""), True
    return (result.text + "\n" if result.total else ""), False


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize("name", sorted({**MANY, **ONE}))
@dropin.needs_oracle
def test_a_big_file_is_answered_as_jq_answers(small_budget, name, program):
    expected = dropin.jq(["-c", program, name], "", cwd=str(small_budget))
    said = b"error" in expected.stderr
    assert _as_jq(program, name) == (expected.stdout.decode(), said), expected.stderr


def test_only_a_vouched_file_streams(small_budget):
    assert query("first(.[])", file="array.json").engine.startswith("stream")
    assert query(".[]", file="two.json", compact=True).engine == "libjq"  # one at a time
    assert query("first(.[])", file="two.json", compact=True).text == '{"a":1}\n{"a":-0.0}'
    assert query(".[]", file="dupes.json").values == [3, 2, [5, 6]]  # jq's: the last value
    together = query(".[]", file=["two.json", "lines.json"], compact=True)
    assert together.engine == "libjq" and together.total == 4 + 6
    with pytest.raises(JqMagicError, match="TOO_LARGE"):  # libjq would read array.json whole
        query(".[]", file=["array.json", "lines.json"])


@pytest.mark.parametrize("name", sorted(TOO_LARGE))
def test_past_the_budget_what_cannot_stream_exactly_is_too_large(small_budget, name):
    with pytest.raises(JqMagicError) as caught:
        query(".[]", file=name)
    assert caught.value.code == "TOO_LARGE"
    assert TOO_LARGE[name][1] in caught.value.message
    assert "JSON Lines" in caught.value.hint  # the notebook's words for the budget:
    assert "%config JqMagic.doc_cache_bytes = N" in caught.value.hint


def test_the_jq_tool_says_it_in_an_agents_words(small_budget):
    opened = {"allow_root": [str(small_budget)]}
    answer = tools.call("jq", {"query": ".[]", "file": str(small_budget / "repeated.json")},
                        **opened)
    assert (answer["success"], answer["error_code"]) == (False, "TOO_LARGE")
    assert "repeats in an object" in answer["error"] and "⟨" not in str(answer)
    assert answer["hint"] == "Convert it to JSON Lines (one value per line)."
    answer = tools.call("jq", {"query": "first(.[])", "file": str(small_budget / "two.json"),
                               "compact": True}, **opened)
    assert answer["success"] is True and answer["output"] == '{"a":1}\n{"a":-0.0}'
