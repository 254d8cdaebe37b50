"""The data tools through the dispatcher: success, errors, bounds and the payload store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jqmagic.core import payloads
from jqmagic.tools import call, transport


@pytest.fixture(autouse=True)
def payload_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "payloads"
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(folder))
    return folder


@pytest.fixture
def items(tmp_path) -> Path:
    path = tmp_path / "items.json"
    path.write_text(json.dumps({"items": [{"id": i, "name": f"n{i}", "tags": ["a"]}
                                          for i in range(150)], "meta": {"v": 1}}))
    return path


def ok(name: str, request: dict) -> dict:
    out = call(name, request)
    assert out["success"] is True, out
    return out


def fails(name: str, request: dict, code: str) -> dict:
    out = call(name, request)
    assert out["success"] is False and out["error_code"] == code, out
    assert set(out) <= {"success", "error", "error_code", "hint", "detail", "next_arguments"}
    return out


# ---------------------------------------------------------------- jq


def test_jq_sources(items, tmp_path):
    assert ok("jq", {"query": ".meta.v", "file": str(items)})["output"] == "1"
    assert ok("jq", {"query": ".users | keys", "input": '{"users": {"alice": 1, "bob": 2}}',
                     "compact": True})["output"] == '["alice","bob"]'
    assert ok("jq", {"query": ".name", "input": '{"name": "test"}', "raw": True})["output"] \
        == "test"
    run = ok("jq", {"query": ".[0]", "exec": "echo '[7, 8]'"})
    assert (run["output"], run["count"]) == ("7", 1)
    pretty = ok("jq", {"query": ".meta", "file": str(items)})["output"]
    assert pretty == '{\n  "v": 1\n}'


def test_jq_spec_table():
    for query, data, expected in [(".name", '{"name":"test"}', '"test"'),
                                  (".[0]", "[1,2,3]", "1"),
                                  (".[] | select(. > 2)", "[1,2,3,4]", "3\n4"),
                                  ("{a: .x}", '{"x":1}', '{"a":1}')]:
        assert ok("jq", {"query": query, "input": data, "compact": True})["output"] == expected


def test_jq_source_count(items):
    two = fails("jq", {"query": ".", "file": str(items), "input": "{}"}, "AMBIGUOUS_SOURCE")
    assert two["error"] == ("Cannot specify multiple input sources (file, input, exec, "
                            "payload): got file and input.")
    none = fails("jq", {"query": "."}, "AMBIGUOUS_SOURCE")
    assert none["error"] == ("Must specify one of: 'file', 'input', 'exec' or 'payload' (or "
                             "null_input=true).")
    assert ok("jq", {"query": ".", "file": "", "input": "1"})["output"] == "1"


def test_jq_errors(items, tmp_path):
    bad = fails("jq", {"query": ".items[", "file": str(items)}, "INVALID_QUERY")
    assert bad["error"].startswith("Invalid jq program") and bad["hint"]
    fails("jq", {"query": ".", "input": "{nope"}, "INVALID_JSON")
    missing = fails("jq", {"query": ".", "file": str(tmp_path / "itemz.json")}, "NOT_FOUND")
    assert "items.json" in missing["hint"]
    fails("jq", {"query": ".", "exec": "exit 3"}, "EXEC_ERROR")
    fails("jq", {"query": ".a.b", "input": '{"a": 5}'}, "QUERY_ERROR")
    fails("jq", {"query": ".", "input": "1", "raw": "yes"}, "INVALID_ARGUMENT")


def test_jq_bounds_and_payload(items):
    out = ok("jq", {"query": ".items[]", "file": str(items), "compact": True})
    assert out["count"] == 150 and out["truncated"] is True and out["shown"] == 100
    assert len(out["output"].splitlines()) == 100
    assert out["message"].startswith("Showing results 1-100 of 150.")
    assert out["next_arguments"] == {"query": ".items[100:200][]"}
    assert 'query=".items[100:200][]"' in out["message"] and out["payload_id"] in out["message"]
    rest = ok("jq", {"query": ".items[]", "file": str(items), "compact": True,
                     **out["next_arguments"]})
    assert [json.loads(v)["id"] for v in rest["output"].splitlines()] == list(range(100, 150))
    assert "next_arguments" not in rest  # a page not full is the last one
    full = ok("jq", {"query": ".items[0:50][]", "file": str(items)})
    assert full["next_arguments"] == {"query": ".items[50:100][]"}
    assert full["message"].startswith("This page was full; the next one (if any)")
    kept = ok("jq", {"payload": out["payload_id"], "slurp": True, "query": ".[100:] | length"})
    assert kept["output"] == "50"  # the step the message names
    assert [v["id"] for v in payloads.payload(out["payload_id"])] == list(range(150))
    assert Path(out["payload_path"]).is_file()
    empty = ok("jq", {"query": ".items[] | select(.id > 999)", "file": str(items)})
    assert (empty["count"], empty["output"]) == (0, "")
    assert empty["message"].startswith("Query returned no results")


# ---------------------------------------------------------------- query_json / query_yaml


def test_query_json_is_compact_and_bounded(items):
    out = ok("query_json", {"file_path": str(items), "jq_expression": ".items[0]"})
    assert out["output"] == '{"id":0,"name":"n0","tags":["a"]}'
    cut = ok("query_json", {"file_path": str(items), "jq_expression": ".items[]"})
    assert cut["truncated"] and cut["next_arguments"] == {"jq_expression": ".items[100:200][]"}
    whole = ok("query_json", {"file_path": str(items), "jq_expression": ".items[]",
                              "large_result_passthrough": True})
    assert whole["count"] == 150 and len(whole["output"].splitlines()) == 150
    assert not whole["truncated"] and "payload_id" not in whole


def test_query_json_token_bound(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"text": "x" * 5000} for _ in range(60)]))
    out = ok("query_json", {"file_path": str(path), "jq_expression": "."})
    # over the bound: nothing cut mid-value is sent; the shape, a preview, the payload
    assert out["truncated"] and out["message"].startswith("Not sent: the first result alone")
    assert "output" not in out and out["shape"] == [{"text": "string"}]
    assert len(json.dumps(out)) < 5_000 and out["preview"][0]["text"].startswith("x" * 200)
    assert payloads.payload(out["payload_id"])[59]["text"] == "x" * 5000


def test_query_json_errors_and_timeout(items, tmp_path):
    fails("query_json", {"file_path": str(items), "jq_expression": "]["}, "INVALID_QUERY")
    fails("query_json", {"file_path": str(tmp_path / "no.json"), "jq_expression": "."},
          "NOT_FOUND")
    fails("query_json", {"file_path": str(items), "jq_expression": ".", "timeout": 0},
          "INVALID_ARGUMENT")
    slow = fails("query_json", {"file_path": str(items), "timeout": 1,
                                "jq_expression": "[range(1e9)] | length"}, "TIMEOUT")
    assert slow["error"]


def test_query_yaml(tmp_path):
    path = tmp_path / "compose.yaml"
    path.write_text("services:\n  web:\n    image: nginx\n  db:\n    image: postgres\n")
    out = ok("query_yaml", {"file_path": str(path), "yq_expression": ".services | keys"})
    assert out["output"] == '["db","web"]'
    text = tmp_path / "compose.txt"
    text.write_text(path.read_text())
    images = ok("query_yaml", {"file_path": str(text), "yq_expression": ".services[].image"})
    assert images["output"] == '"nginx"\n"postgres"'
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\n")
    fails("query_yaml", {"file_path": str(bad), "yq_expression": "."}, "INVALID_YAML")
    none = ok("query_yaml", {"file_path": str(path), "yq_expression": ".services[] | .ports"
                             " | select(. != null)"})
    assert none["message"].startswith("Query returned no results")


# ---------------------------------------------------------------- json_inspect


def test_json_inspect(items):
    root = ok("json_inspect", {"filePath": str(items)})
    assert root["type"] == "object" and root["keys"] == ["items", "meta"]
    users = ok("json_inspect", {"filePath": str(items), "path": "/items", "depth": 1})
    assert users["arrayLength"] == 150
    assert users["elementTemplate"] == {"id": "number", "name": "string", "tags": ["string"]}
    assert users["availableKeys"] == ["id", "name", "tags"]
    assert "n0" not in json.dumps(users)  # never the values


def test_json_inspect_errors(items):
    missing = fails("json_inspect", {"filePath": str(items), "path": "/itemz"}, "NOT_FOUND")
    assert "items" in missing["error"] + missing.get("hint", "")
    fails("json_inspect", {"filePath": str(items), "path": "items"}, "INVALID_POINTER")
    fails("json_inspect", {"filePath": str(items), "depth": 11}, "INVALID_ARGUMENT")


def test_json_inspect_bounded_by_the_dispatcher(tmp_path, monkeypatch):
    from jqmagic.core.settings import settings

    path = tmp_path / "wide.json"
    path.write_text(json.dumps({f"key{i}": {f"sub{j}": j for j in range(50)}
                                for i in range(100)}))
    monkeypatch.setattr(settings, "max_message_bytes", 10_000)
    out = ok("json_inspect", {"filePath": str(path), "depth": 2})
    assert out["truncated"] and "children" not in out and len(out["keys"]) == 100
    assert out["next_arguments"] == {"depth": 1} and "depth=1" in out["message"]
    assert len(json.dumps(out).encode()) <= 10_000  # within the wall (paths vary in length)
    shallower = ok("json_inspect", {"filePath": str(path), **out["next_arguments"]})
    assert len(json.dumps(shallower).encode()) <= 10_000
    assert shallower.get("next_arguments", {}).get("depth", 1) < 1 or "children" in shallower


def test_an_answer_over_the_bound_is_kept_by_the_dispatcher(tmp_path, monkeypatch):
    from jqmagic.core.settings import settings

    monkeypatch.setattr(settings, "max_message_bytes", 10_000)
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"a": {f"key{i}": {"b": i} for i in range(400)}}))
    out = ok("json_inspect", {"filePath": str(path), "format": "jsonschema", "path": "/a"})
    assert len(json.dumps(out).encode()) <= 10_000 and out["payload_id"]
    whole = payloads.payload(out["payload_id"])
    assert len(whole["schema"]["properties"]) == 400
    step = ok(out["next_call"]["tool"], out["next_call"]["arguments"])  # into the schema,
    assert '"properties"' in step["output"] and '"success"' not in step["output"]  # not ours


# ---------------------------------------------------------------- json_patch


@pytest.fixture
def config(tmp_path) -> Path:
    path = tmp_path / "config.json"
    path.write_text('{\n  "settings": {"theme": "light"},\n  "users": [\n'
                    '    {"id": "1", "status": "new"},\n    {"id": "2", "status": "new"}\n  ],\n'
                    '  "items": [1, 2, 3]\n}\n')
    return path


def test_json_patch_by_path(config):
    out = ok("json_patch", {"filePath": str(config), "operation": "set",
                            "path": "/settings/theme", "value": '"dark"'})
    assert (out["status"], out["targetPath"], out["previousValue"], out["newValue"]) == (
        "success", "/settings/theme", "light", "dark")
    assert '"settings": {"theme": "dark"},' in config.read_text()
    ok("json_patch", {"filePath": str(config), "operation": "insert", "path": "/items/1",
                      "value": "9"})
    ok("json_patch", {"filePath": str(config), "operation": "remove", "path": "/items/0"})
    merged = ok("json_patch", {"filePath": str(config), "operation": "merge",
                               "path": "/settings", "value": '{"size": 2}'})
    assert merged["changed"] is True
    assert json.loads(config.read_text())["settings"] == {"theme": "dark", "size": 2}
    assert json.loads(config.read_text())["items"] == [9, 2, 3]


def test_json_patch_by_match(config):
    dry = ok("json_patch", {"filePath": str(config), "operation": "remove", "dryRun": True,
                            "match": {"arrayPath": "/users", "where": {"status": "new"}}})
    assert dry["dryRun"] is True and dry["diff"].startswith("---")
    assert len(json.loads(config.read_text())["users"]) == 2
    out = ok("json_patch", {"filePath": str(config), "operation": "set",
                            "match": {"arrayPath": "/users", "where": {"id": "2"}},
                            "value": '{"status": "active"}'})
    assert out["targetPath"] == "/users/1/status"
    every = ok("json_patch", {"filePath": str(config), "operation": "merge", "all": True,
                              "match": {"arrayPath": "/users", "where": {"status": "new"}},
                              "value": '{"seen": true}'})
    assert every["matched"] == 1
    assert [u.get("seen") for u in json.loads(config.read_text())["users"]] == [True, None]


def test_json_patch_errors_leave_the_file(config):
    before = config.read_bytes()
    both = fails("json_patch", {"filePath": str(config), "operation": "remove", "path": "/a",
                                "match": {"arrayPath": "/users", "where": {"id": "1"}}},
                 "INVALID_ARGUMENT")
    assert both["error"] == "Give either path or match, not both."
    neither = fails("json_patch", {"filePath": str(config), "operation": "remove"},
                    "INVALID_ARGUMENT")
    assert neither["error"] == "Give path or match to say what to edit."
    fails("json_patch", {"filePath": str(config), "operation": "set", "path": "/a",
                         "value": "dark"}, "INVALID_JSON")
    gone = fails("json_patch", {"filePath": str(config), "operation": "set",
                                "path": "/users/9/status", "value": '"x"'}, "NOT_FOUND")
    assert "2" in gone["error"] and gone["hint"]
    fails("json_patch", {"filePath": str(config), "operation": "set", "path": "/a"},
          "INVALID_ARGUMENT")
    assert config.read_bytes() == before


def test_json_patch_big_values_go_to_the_payload_store(tmp_path):
    path = tmp_path / "big.json"
    rows = [{"id": i, "text": "y" * 100} for i in range(200)]
    path.write_text(json.dumps({"rows": rows}))
    out = ok("json_patch", {"filePath": str(path), "operation": "remove", "path": "/rows"})
    assert out["previousValue"]["shape"] == [{"id": "number", "text": "string"}]
    assert payloads.payload(out["previousValue"]["payload_id"]) == rows
    assert json.loads(path.read_text()) == {}


# ---------------------------------------------------------------- read_file


def test_read_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("".join(f"line {i}\n" for i in range(1, 11)))
    whole = ok("read_file", {"file_path": str(path)})
    assert whole["content"].splitlines()[-1] == "line 10" and whole["total_lines"] == 10
    assert whole["next_offset"] is None
    part = ok("read_file", {"file_path": str(path), "offset": 3, "limit": 2})
    assert (part["content"], part["next_offset"]) == ("line 3\nline 4", 5)
    past = ok("read_file", {"file_path": str(path), "offset": 40})
    assert past["content"] == "" and past["message"].startswith("No lines at offset 40")
    fails("read_file", {"file_path": str(tmp_path / "nope.txt")}, "NOT_FOUND")
    fails("read_file", {"file_path": str(tmp_path)}, "FILE_ERROR")
    fails("read_file", {"file_path": str(path), "offset": 0}, "INVALID_ARGUMENT")


@pytest.mark.parametrize(("suffix", "pointer"), [(".json", "json_inspect"),
                                                 (".yaml", "query_yaml"),
                                                 (".log", "query_json")])
def test_read_file_refuses_large_files(tmp_path, suffix, pointer):
    path = tmp_path / f"big{suffix}"
    path.write_text(("z" * 99 + "\n") * 5_000)
    out = fails("read_file", {"file_path": str(path)}, "TOO_LARGE")
    assert out["error"] == (f"{path} is about 125,000 tokens, over the 100,000-token limit "
                            "of read_file.")
    assert pointer in out["hint"] and "large_file_passthrough=true" in out["hint"]
    first = ok("read_file", {"file_path": str(path), "large_file_passthrough": True})
    assert first["total_lines"] == 5_000 and first["truncated"] is True
    shown = len(first["content"].splitlines())
    most = transport.content_budget() // 100  # 100 characters and an escaped "\n" a line
    assert most * 0.95 < shown <= most and first["next_offset"] == shown + 1
    assert f"Read on with offset={first['next_offset']}." in first["message"]
    part = ok("read_file", {"file_path": str(path), "offset": 4_501})
    assert part["next_offset"] is None and len(part["content"].splitlines()) == 500


def test_read_file_pages_windows_within_the_bound(tmp_path):
    path = tmp_path / "big.log"
    path.write_text("".join(f'"{i}"' + "\\" * 96 + "\n" for i in range(5_000)))
    lines = path.read_text().splitlines()
    out = ok("read_file", {"file_path": str(path), "offset": 2, "limit": 4_500})
    assert len(json.dumps(out, ensure_ascii=False)) <= 204_000  # escaped: quotes, backslashes
    got, offset = out["content"].splitlines(), out["next_offset"]
    assert got == lines[1:offset - 1] and out["truncated"] is True
    assert f"offset={offset}, limit={4_502 - offset}" in out["message"]
    rest = ok("read_file", {"file_path": str(path), "offset": offset, "limit": 4_502 - offset})
    assert rest["content"].splitlines()[0] == lines[offset - 1]


def test_read_file_one_line_over_the_bound(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("a" * 300_000 + "\nnext\n")
    out = ok("read_file", {"file_path": str(path), "offset": 1})
    assert out["truncated"] and out["content"] == "a" * len(out["content"])
    assert out["next_offset"] == 2 and "offset=2" in out["message"]
    assert ok("read_file", {"file_path": str(path), "offset": 2})["content"] == "next"


def test_json_inspect_summarises_nested_key_lists(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"info": {"v": 1}, "definitions": {
        f"d{i}": {f"p{j}": j for j in range(30)} for i in range(150)}}))
    root = ok("json_inspect", {"filePath": str(path)})
    section = root["children"]["definitions"]
    assert section["keys"] == [f"d{i}" for i in range(20)] and section["keyCount"] == 150
    assert list(section["children"]) == section["keys"]
    follow = ok(root["next_call"]["tool"], root["next_call"]["arguments"])
    assert json.loads(follow["output"]) == [f"d{i}" for i in range(20, 40)]
    whole = ok("json_inspect", {"filePath": str(path), "path": "/definitions", "depth": 0})
    assert len(whole["keys"]) == 100 and whole["keyCount"] == 150


@pytest.mark.parametrize(("tool", "request_"), [
    ("query_yaml", {"file_path": "stream.yaml", "yq_expression": ".n"}),
    ("query_json", {"file_path": "rows.jsonl", "jq_expression": ".n"}),
    ("jq", {"file": "rows.jsonl", "query": ".n", "compact": True}),
])
def test_the_next_step_over_a_stream_takes_every_input(tmp_path, tool, request_):
    (tmp_path / "stream.yaml").write_text("".join(f"---\nn: {i}\n" for i in range(150)))
    (tmp_path / "rows.jsonl").write_text("".join(f'{{"n": {i}}}\n' for i in range(150)))
    request_ = {k: str(tmp_path / v) if k in ("file", "file_path") else v
                for k, v in request_.items()}
    first = ok(tool, request_)
    assert first["next_arguments"]["slurp"] is True and "null input" not in first["message"]
    rest = ok(tool, {**request_, **first["next_arguments"]})
    assert [int(v) for v in rest["output"].splitlines()] == list(range(100, 150))
