"""Issue 54: a cut answer names a next call that advances, whatever made the cut: a query
whose first result alone is over the bound steps into that result; json_inspect on 20,000
long keys lists what fits and names the jq call listing the document's next keys."""

from __future__ import annotations

import json

import pytest

from jqmagic.tools import call, transport


@pytest.fixture
def docs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "p"))
    (tmp_path / "wrapped.json").write_text(json.dumps(
        {"items": [{"id": i, "text": "x" * 400} for i in range(2_000)]}))
    (tmp_path / "string.json").write_text(json.dumps(["y" * 300_000]))
    (tmp_path / "wide.json").write_text(json.dumps(
        {f"{'k' * 60}{i}": {"v": "z" * 30} for i in range(20_000)}))
    (tmp_path / "longkeys.json").write_text(json.dumps(
        {f"{'k' * 1000}{i}": i for i in range(20_000)}))
    return tmp_path


@pytest.mark.parametrize(("file", "query"), [("wrapped.json", "."), ("string.json", ".[0]"),
                                             ("wide.json", "."), ("string.json", ".")])
def test_a_first_result_over_the_bound_names_a_step_into_it(docs, file, query):
    request = {"query": query, "file": file}
    answer = call("jq", request)
    assert answer["shown"] == 0 and answer["truncated"] and "next_arguments" in answer
    for _ in range(4):  # each step goes deeper until something is shown
        request = {**request, **answer["next_arguments"]}
        answer = call("jq", request)
        assert transport.wire_size(answer) <= transport.limit()
        if answer.get("shown", 1) > 0:
            break
        assert "next_arguments" in answer
    assert answer["success"] and answer["output"]


def test_json_inspect_on_twenty_thousand_long_keys_lists_what_fits(docs):
    answer = call("json_inspect", {"filePath": "longkeys.json"})
    assert transport.wire_size(answer) <= transport.limit()
    shown = len(answer["keys"])
    assert 10 < shown < 100 and answer["keyCount"] == 20_000
    step = answer["next_call"]
    assert step["tool"] == "jq" and step["arguments"]["file"] == "longkeys.json"
    more = call("jq", step["arguments"])
    assert json.loads(more["output"])[0] == f"{'k' * 1000}{shown}"  # the document's next key


def test_a_program_too_long_to_echo_pages_on_from_its_payload(docs):
    long = " | ".join(["."] * 1_500) + " | .items[]"  # over 2,000 characters
    request = {"query": long, "file": "wrapped.json", "compact": True}
    answer = call("jq", request)
    assert answer["shown"] == 100 and answer["truncated"]
    nxt = call("jq", {**request, **answer["next_arguments"]})
    assert json.loads(nxt["output"].split("\n")[0])["id"] == 100


def test_read_file_refusing_a_big_file_names_a_window_that_reads_on(docs):
    (docs / "lines.txt").write_text("\n".join("l" * 500 for _ in range(2_000)))
    request = {"file_path": "lines.txt"}
    refused = call("read_file", request)
    assert refused["error_code"] == "TOO_LARGE" and refused["next_arguments"]["offset"] == 1
    seen = 0
    request = {**request, **refused["next_arguments"]}
    while True:
        answer = call("read_file", request)
        seen += len(answer["content"].split("\n"))
        if "next_arguments" not in answer:
            break
        request = {**request, **answer["next_arguments"]}
    assert seen == 2_000  # window after window, to the file's end


def test_a_string_over_the_bound_is_read_part_after_part(docs):
    request = {"query": ".[0]", "file": "string.json", "raw": True}
    answer = call("jq", request)
    parts = []
    while "next_arguments" in answer:
        request = {**request, **answer["next_arguments"]}
        answer = call("jq", request)
        parts.append(answer["output"])
        assert len(parts) < 50, "no end"
    assert "".join(parts) == "y" * 300_000
