"""The agent tools' errors are said in the tool's parameter words, not the Python API's."""

from __future__ import annotations

import jqmagic.tools as tools


def test_no_examples_is_said_as_the_examples_field():
    """jq_suggest with examples=[] said "suggest() got no examples" with a hint naming
    suggest(input, output): words of the Python API, which an agent cannot call."""
    out = tools.call("jq_suggest", {"examples": []})
    assert out["error_code"] == "INVALID_ARGUMENT"
    assert out["error"] == "Field 'examples' needs at least 1 item."
    assert out["hint"].startswith("examples: ") and "suggest(" not in out["hint"]


def test_the_schema_says_so():
    [spec] = tools.definitions("mcp", names=["jq_suggest"])
    assert spec["inputSchema"]["properties"]["examples"]["minItems"] == 1


def test_strict_forms_say_it_in_words():
    for fmt in ("openai", "anthropic"):
        text = str(tools.definitions(fmt, strict=True, names=["jq_suggest"]))
        assert "At least 1 item(s)." in text and "minItems" not in text


def test_a_request_nested_too_deep_is_still_one_json_answer():
    """A request whose input value was 100,000 arrays deep printed the command line's
    "error TOO_LARGE" on stderr and nothing on stdout: no answer for the caller to read."""
    import io
    import json

    from jqmagic.tools.protocol import serve

    out, err = io.StringIO(), io.StringIO()
    deep = '{"query": ".", "input": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert serve("jq", io.StringIO(deep), out, err) == 1
    answer = json.loads(out.getvalue())
    assert answer["error_code"] == "TOO_LARGE" and "request" in answer["error"]
    assert "in a string" in answer["hint"] and err.getvalue() == ""


def test_a_request_opening_with_a_bom_is_read():
    """PowerShell's `Out-File -Encoding utf8` opens with a BOM; jq takes one. It was
    refused: "Unexpected UTF-8 BOM (decode using utf-8-sig)", Python's words."""
    import io
    import json

    from jqmagic.tools.protocol import serve

    out = io.StringIO()
    request = '\ufeff{"query": ". + 1", "input": "1"}'
    assert serve("jq", io.StringIO(request), out, io.StringIO()) == 0
    assert json.loads(out.getvalue())["output"] == "2"
