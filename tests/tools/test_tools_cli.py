"""Golden runs of ``jqmagic tool``: --list, --schema, one JSON request in, one JSON response out."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.web_servers import BRAVE_KEY, fake_brave

NAMES = ["jq", "query_json", "query_yaml", "json_inspect", "jq_suggest", "json_patch",
         "read_file", "web_fetch", "web_search_brave", "web_search_google"]




def tool(env: dict, *args: str, request: object = None, stdin: str | None = None
         ) -> subprocess.CompletedProcess:
    text = json.dumps(request) if stdin is None else stdin
    return subprocess.run([sys.executable, "-m", "jqmagic", "tool", *args], input=text,
                          capture_output=True, text=True, timeout=60, env=env)


def answer(run: subprocess.CompletedProcess, status: int) -> dict:
    assert run.returncode == status, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1, run.stdout  # one JSON response, on one line
    return json.loads(lines[0])


def test_list(env):
    run = tool(env, "--list")
    listed = json.loads(run.stdout)
    assert [t["name"] for t in listed] == NAMES
    patch = listed[NAMES.index("json_patch")]
    assert patch["annotations"]["destructiveHint"] is True
    assert patch["annotations"]["readOnlyHint"] is False
    assert listed[NAMES.index("web_fetch")]["annotations"]["openWorldHint"] is True


def test_schema(env):
    schema = json.loads(tool(env, "json_inspect", "--schema").stdout)
    assert set(schema) == {"name", "description", "parameters"}
    assert schema["parameters"]["type"] == "object"
    assert schema["parameters"]["properties"]["depth"]["default"] == 2


def test_unknown_tool_and_no_name(env):
    out = answer(tool(env, "jqq", request={}), 1)
    assert out["error_code"] == "NOT_FOUND" and "jq" in out["hint"]
    run = tool(env)
    assert run.returncode == 1 and run.stderr.startswith("error INVALID_ARGUMENT")


@pytest.mark.parametrize(("stdin", "code"), [("{not json", "INVALID_JSON"),
                                             ("[1]", "INVALID_ARGUMENT"),
                                             ("", "INVALID_ARGUMENT")])
def test_malformed_requests(env, stdin, code):
    out = answer(tool(env, "jq", stdin=stdin), 1)
    assert out["success"] is False and out["error_code"] == code


def test_jq(env, tmp_path):
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"items": [{"id": i} for i in range(120)]}))
    out = answer(tool(env, "jq", request={"query": ".items[].id", "file": str(data)}), 0)
    assert out["count"] == 120 and out["truncated"] is True
    assert out["message"].startswith("Showing results 1-100 of 120.")
    assert out["next_arguments"] == {"query": "[.items[].id][100:200][]"}
    assert os.path.isfile(out["payload_path"])
    assert str(tmp_path / "payloads") in out["payload_path"]
    two = answer(tool(env, "jq", request={"query": ".", "file": str(data), "exec": "true"}), 1)
    assert two["error_code"] == "AMBIGUOUS_SOURCE"
    typo = answer(tool(env, "jq", request={"query": ".", "fil": str(data)}), 1)
    assert typo["error"] == "Unknown field 'fil'." and "'file'" in typo["hint"]


def test_query_tools(env, tmp_path):
    data = tmp_path / "d.json"
    data.write_text('{"a": [1, 2]}')
    spec = tmp_path / "s.yml"
    spec.write_text("a:\n  - x\n")

    def ask(name: str, status: int, **request) -> dict:
        return answer(tool(env, name, request=request), status)

    out = ask("query_json", 0, file_path=str(data), jq_expression=".a")
    assert out["output"] == "[1,2]"
    none = ask("query_json", 0, file_path=str(data), jq_expression=".a[] | select(. > 5)")
    assert none["message"].startswith("Query returned no results")
    out = ask("query_yaml", 0, file_path=str(spec), yq_expression=".a[0]")
    assert out["output"] == '"x"'
    slow = ask("query_yaml", 1, file_path=str(spec), yq_expression=".", timeout=9999)
    assert slow["error"] == "Field 'timeout' must be at most 600; got 9999."


def test_inspect_and_patch(env, tmp_path):
    data = tmp_path / "c.json"
    data.write_text('{"users": [{"id": "a", "on": false}]}\n')
    shape = answer(tool(env, "json_inspect", request={"filePath": str(data), "path": "/users"}),
                   0)
    assert shape["arrayLength"] == 1 and shape["elementTemplate"] == {"id": "string",
                                                                      "on": "boolean"}
    done = answer(tool(env, "json_patch", request={
        "filePath": str(data), "operation": "set", "value": '{"on": true}',
        "match": {"arrayPath": "/users", "where": {"id": "a"}}}), 0)
    assert done["targetPath"] == "/users/0/on" and done["newValue"] is True
    assert data.read_text() == '{"users": [{"id": "a", "on": true}]}\n'
    bad = answer(tool(env, "json_patch", request={"filePath": str(data), "operation": "drop",
                                                   "path": "/users"}), 1)
    assert bad["error_code"] == "INVALID_ARGUMENT"


def test_read_file(env, tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("a\nb\n")
    assert answer(tool(env, "read_file", request={"file_path": str(path)}), 0)["content"] == \
        "a\nb"
    big = tmp_path / "big.json"
    big.write_text("[" + ",".join(["1234567"] * 60_000) + "]")
    out = answer(tool(env, "read_file", request={"file_path": str(big)}), 1)
    assert out["error_code"] == "TOO_LARGE" and "json_inspect" in out["hint"]


def test_web_fetch(env, web):
    url = web.add("/doc", "<title>T</title><h1>Hello</h1><p>there</p>")
    out = answer(tool(env, "web_fetch", request={"url": url}), 0)
    assert out["title"] == "T" and "# Hello" in out["content"]
    missing = answer(tool(env, "web_fetch", request={"url": web.add("/x", "", status=404)}), 1)
    assert missing["error_code"] == "HTTP_ERROR"


def test_search_and_config_required(env, web):
    run = tool(env, "web_search_brave", request={"query": "jq"})
    out = answer(run, 1)
    assert out["error_code"] == "AUTH_MISSING"
    events = [json.loads(line) for line in run.stderr.splitlines()]
    assert len(events) == 1 and events[0]["kind"] == "config_required"
    assert json.loads(events[0]["data_json"])["tool"] == "web_search_brave"
    env.update(JQMAGIC_BRAVE_ENDPOINT=fake_brave(web), BRAVE_API_KEY=BRAVE_KEY)
    run = tool(env, "web_search_brave", request={"query": "jq", "count": 2})
    assert answer(run, 0)["count"] == 2 and run.stderr == ""
    google = tool(env, "web_search_google", request={"query": "jq"})
    assert answer(google, 1)["error_code"] == "AUTH_MISSING"
    assert json.loads(google.stderr)["kind"] == "config_required"
