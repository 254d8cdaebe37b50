"""Issue 40: every cut answer names its next call as ``next_arguments`` (the arguments to
change, in the tool's own parameters); following them pages through to the end, each
page within the bound, never standing still (870,000 control characters included)."""

from __future__ import annotations

import json

import pytest

from jqmagic.core import payloads
from jqmagic.tools import call, transport


def follow(name: str, request: dict, most: int = 200) -> list[dict]:
    """Every answer of ``name`` from ``request`` on, following next_arguments."""
    answers = [call(name, request)]
    while "next_arguments" in answers[-1]:
        assert answers[-1]["success"], answers[-1]
        assert transport.wire_size(answers[-1]) <= transport.limit()
        request = {**request, **answers[-1]["next_arguments"]}
        answers.append(call(name, request))
        assert len(answers) < most, "no end"
    assert answers[-1].get("success", True), answers[-1]  # a failed last page said, not a KeyError
    return answers


def test_text_page_always_advances():
    text = "\x01" * 870_000
    assert len(transport.text_page(text, 0, 200_000)) == 200_000 // 6
    assert transport.text_page(text, 5, 3) == "\x01"  # one character even over the budget
    assert transport.text_page("", 0, 10) == "" and transport.text_page("ab", 2, 10) == ""


@pytest.mark.parametrize("char", ["\x01", '"', "é", "a"])
def test_web_fetch_pages_to_the_end(web, char):
    text = char * 870_000
    url = web.add(f"/c{ord(char)}", text, "text/plain; charset=utf-8")
    answers = follow("web_fetch", {"url": url, "max_length": 200_000})
    assert "".join(a["content"] for a in answers) == text
    assert all(a["content"] for a in answers)  # every page advanced
    assert answers[-1]["next_start_index"] is None


def test_web_fetch_lines_page_to_the_end(web):
    text = "\n".join(f'{i} {chr(34) * 300}' for i in range(3_000))
    url = web.add("/lines", text, "text/plain")
    answers = follow("web_fetch", {"url": url, "offset": 1, "limit": 3_000})
    assert "\n".join(a["content"] for a in answers) == text and len(answers) > 2


def test_read_file_pages_to_the_end(tmp_path):
    path = tmp_path / "log.txt"
    lines = [f"{i} " + "\x02" * 150 for i in range(2_000)]
    path.write_text("\n".join(lines) + "\n")
    answers = follow("read_file", {"file_path": str(path), "large_file_passthrough": True})
    assert "\n".join(a["content"] for a in answers).split("\n") == lines
    window = call("read_file", {"file_path": str(path), "offset": 11, "limit": 5})
    assert window["next_arguments"] == {"offset": 16}  # the caller's window names the next


def test_a_query_pages_to_the_end(tmp_path):
    path = tmp_path / "items.json"
    items = [{"id": i, "text": '"' * 200} for i in range(3_000)]
    path.write_text(json.dumps({"items": items}))
    answers = follow("query_json", {"file_path": str(path), "jq_expression": ".items[]",
                                    "large_result_passthrough": True})
    got = [json.loads(line) for a in answers for line in a["output"].splitlines()]
    assert got == items and len(answers) > 2


def test_an_answer_too_big_to_send_names_the_call_that_reads_it(tmp_path, monkeypatch):
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({f"key{i}": {f"sub{j}": j for j in range(50)}
                                for i in range(1_000)}))
    out = call("json_inspect", {"filePath": str(path), "format": "jsonschema"})
    assert out["truncated"] and out["next_call"]["tool"] == "jq"
    keys = call("jq", out["next_call"]["arguments"])  # the biggest field's start (issue 54)
    schema = payloads.payload(out["payload_id"])["schema"]
    assert json.loads(keys["output"]) == list(schema)[:100]


def test_a_schema_too_big_to_send_is_shown_shallower_and_names_its_biggest_part(tmp_path):
    path = tmp_path / "wide.json"
    doc = {f"key{i}": {f"sub{j}": {"n": j} for j in range(40)} for i in range(1_000)}
    doc["key7"]["extra"] = {"more": [1, 2]}  # the biggest part
    path.write_text(json.dumps(doc))
    answers = follow("json_inspect", {"filePath": str(path), "format": "jsonschema"})
    first, last = answers[0], answers[-1]
    assert len(answers) == 2 and first["truncated"]
    assert first["next_arguments"] == {"path": "/key7"}
    assert 'path="/key7"' in first["message"] and "1 level of nesting" in first["message"]
    assert set(first["schema"]["properties"]) == set(doc)  # every key, each cut below
    assert first["schema"]["properties"]["key3"] == {"type": "object",
                                                     "$comment": "cut: inspect this path"}
    whole = payloads.payload(first["payload_id"])  # the cut answer kept it whole
    assert whole["schema"]["properties"]["key7"]["properties"]["sub3"]["type"] == "object"
    assert transport.wire_size(last) <= transport.limit() and "truncated" not in last
    assert last["path"] == "/key7"
    assert last["schema"]["properties"]["extra"]["properties"]["more"]["type"] == "array"


def test_a_dry_run_diff_pages_to_the_end_and_writes_nothing(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"items": [{"id": i, "text": "\x01" * 40} for i in range(8_000)]},
                               indent=1))
    before = path.read_bytes()
    request = {"filePath": str(path), "operation": "set", "path": "/items", "value": "[]",
               "dryRun": True, "force": True}
    answers = follow("json_patch", request)
    assert len(answers) > 2 and all(a["diff"] for a in answers)
    assert transport.wire_size(answers[-1]) <= transport.limit()
    whole = payloads.payload(answers[0]["payload_id"])
    assert "".join(a["diff"] for a in answers) == whole
    assert whole.startswith(f"--- a/{path.name}") and whole.count("\n-") > 8_000
    assert answers[-1]["message"].endswith("This is its last part.")
    assert path.read_bytes() == before


def test_read_file_shows_bytes_that_are_not_utf8_as_jq_reads_them(tmp_path):
    """A file with a stray byte is read (each odd sequence one U+FFFD, as ``jq -R`` cuts
    it), and the answer says on which line: it was refused whole."""
    path = tmp_path / "log.json"
    path.write_bytes(b'{"ok": 1}\n{"name": "caf\xe9 \xf0\x9f\xe2"}\n{"ok": 2}\n')
    out = call("read_file", {"file_path": str(path)})
    assert out["success"] and out["total_lines"] == 3
    assert out["content"].splitlines()[1] == '{"name": "caf\ufffd \ufffd\ufffd"}'
    assert "Line 2 holds bytes that are not UTF-8" in out["message"]
    clean = call("read_file", {"file_path": str(path), "offset": 3})
    assert "message" not in clean or "not UTF-8" not in clean["message"]
