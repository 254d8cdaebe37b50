"""``jqmagic mcp`` as a subprocess, driven by the official SDK's client over stdio.

One session runs every call (starting a server costs a second); the tests read its answers.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client  # the mcp extra (part of the test extra)
from mcp.client.stdio import StdioServerParameters

from jqmagic.core import payloads
from tests.web_servers import BRAVE_KEY, GOOGLE_CX, GOOGLE_KEY, WebServer, fake_brave, fake_google


def calls(folder: Path, web: WebServer) -> dict[str, dict[str, Any]]:
    """Per label, the (tool, arguments) to call; files are made in ``folder``."""
    data = folder / "data.json"
    data.write_text(json.dumps({"users": [{"id": i, "name": f"u{i}"} for i in range(150)]}))
    (folder / "c.yaml").write_text("services:\n  web:\n    image: nginx\n")
    (folder / "notes.txt").write_text("one\ntwo\n")
    (folder / "edit.json").write_text('{"theme": "light"}\n')
    page = web.add("/mcp-page", "<title>Hi</title><h1>Hello</h1><p>Some words.</p>")
    return {
        "jq": ("jq", {"query": ".users[0].name", "file": str(data)}),
        "jq_many": ("jq", {"query": ".users[].id", "file": str(data), "compact": True}),
        "jq_two_sources": ("jq", {"query": ".", "file": str(data), "input": "{}"}),
        "jq_unknown_field": ("jq", {"query": ".", "input": "1", "slurpy": True}),
        "jq_bad_query": ("jq", {"query": ".users[", "file": str(data)}),
        "query_json": ("query_json", {"file_path": str(data), "jq_expression": ".users | length"}),
        "query_json_none": ("query_json", {"file_path": str(data),
                                           "jq_expression": ".users[] | select(.id < 0)"}),
        "query_json_missing": ("query_json", {"file_path": str(folder / "nope.json"),
                                              "jq_expression": "."}),
        "query_yaml": ("query_yaml", {"file_path": str(folder / "c.yaml"),
                                      "yq_expression": ".services.web.image"}),
        "query_yaml_type": ("query_yaml", {"file_path": str(folder / "c.yaml"),
                                           "yq_expression": ".", "timeout": "soon"}),
        "json_inspect": ("json_inspect", {"filePath": str(data), "path": "/users", "depth": 1}),
        "json_inspect_missing_path": ("json_inspect", {"filePath": str(data), "path": "/x"}),
        "json_patch": ("json_patch", {"filePath": str(folder / "edit.json"), "operation": "set",
                                      "path": "/theme", "value": '"dark"'}),
        "json_patch_bad_value": ("json_patch", {"filePath": str(folder / "edit.json"),
                                                "operation": "set", "path": "/a",
                                                "value": "dark"}),
        "read_file": ("read_file", {"file_path": str(folder / "notes.txt")}),
        "read_file_range": ("read_file", {"file_path": str(folder / "notes.txt"), "limit": 0}),
        "web_fetch": ("web_fetch", {"url": page}),
        "web_fetch_404": ("web_fetch", {"url": web.url("/no-such-page")}),
        "brave": ("web_search_brave", {"query": "jq", "count": 2}),
        "brave_short": ("web_search_brave", {"query": "j"}),
        "google": ("web_search_google", {"query": "jq", "num": 1}),
        "google_quota": ("web_search_google", {"query": "quota"}),
    }


async def converse(env: dict[str, str], todo: dict[str, Any]) -> dict[str, Any]:
    server = StdioServerParameters(command=sys.executable, args=["-m", "jqmagic", "mcp"],
                                   env=env)
    seen: dict[str, Any] = {}
    async with Client(server, read_timeout_seconds=60) as client:
        seen["tools"] = (await client.list_tools()).tools
        schemas = {t.name: t.output_schema for t in seen["tools"]}
        for label, (name, arguments) in todo.items():
            result = await client.call_tool(name, arguments)
            seen[label] = (result.is_error, json.loads(result.content[0].text))
            assert result.structured_content == seen[label][1]  # the same answer, as data
            jsonschema.validate(result.structured_content, schemas[name])
            links = [c for c in result.content[1:] if c.type == "resource_link"]
            assert len(result.content) == 1 + len(links)
            pid = result.structured_content.get("payload_id")
            assert [str(c.uri) for c in links] == ([f"jqmagic://payload/{pid}"] if pid else [])
            seen[label + ":links"] = links
    return seen


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("mcp")
    web = WebServer().start()
    try:
        env = {"NO_PROXY": "127.0.0.1,localhost", "XDG_CONFIG_HOME": str(folder / "cfg"),
               "JQMAGIC_PAYLOAD_DIR": str(folder / "payloads"),
               "JQMAGIC_BRAVE_ENDPOINT": fake_brave(web), "BRAVE_API_KEY": BRAVE_KEY,
               "JQMAGIC_GOOGLE_ENDPOINT": fake_google(web), "GOOGLE_SEARCH_API_KEY": GOOGLE_KEY,
               "GOOGLE_SEARCH_ENGINE_ID": GOOGLE_CX,
               # the server runs sandboxed: open it to this folder and the local servers
               "JQMAGIC_ALLOWED_ROOTS": str(folder), "JQMAGIC_PRIVATE_ADDRESSES": "1"}
        seen = asyncio.run(converse(env, calls(folder, web)))
    finally:
        web.stop()
    seen["folder"] = folder
    return seen


def ok(session: dict, label: str) -> dict:
    is_error, out = session[label]
    assert is_error is False and out["success"] is True, out
    return out


def error(session: dict, label: str, code: str) -> dict:
    is_error, out = session[label]
    assert is_error is True and out["success"] is False, out
    assert out["error_code"] == code, out
    return out


def test_lists_every_tool_with_schema_and_annotations(session):
    from jqmagic.tools import tools

    listed = {t.name: t for t in session["tools"]}
    assert list(listed) == list(tools())
    for name, defined in tools().items():
        props = {k: v for k, v in defined.parameters["properties"].items() if k != "exec"}
        assert listed[name].input_schema == {**defined.parameters, "properties": props}
        assert defined.description.startswith(listed[name].description)
        assert listed[name].output_schema["required"] == ["success"]
        assert listed[name].output_schema["additionalProperties"] is False
    assert "exec" not in listed["jq"].input_schema["properties"]  # commands are not allowed
    assert "exec" not in listed["jq"].description
    assert listed["query_json"].title == "Query JSON" and listed["jq"].title == "jq"
    patch = listed["json_patch"].annotations
    assert (patch.read_only_hint, patch.destructive_hint) == (False, True)
    fetch = listed["web_fetch"].annotations
    assert (fetch.read_only_hint, fetch.open_world_hint) == (True, True)
    assert listed["json_inspect"].annotations.open_world_hint is False


def test_jq(session):
    assert ok(session, "jq")["output"] == '"u0"'
    many = ok(session, "jq_many")
    assert many["count"] == 150 and many["truncated"] is True
    assert many["message"].startswith("Showing results 1-100 of 150.")
    (link,) = session["jq_many:links"]
    assert link.mime_type == "application/jsonl" and link.size > 0
    assert "payload_path" not in many  # no server path unless the operator asks
    assert str(session["folder"]) not in json.dumps(many)
    assert payloads.find(many["payload_id"], directory=session["folder"] / "payloads").size
    error(session, "jq_two_sources", "AMBIGUOUS_SOURCE")
    assert error(session, "jq_unknown_field", "INVALID_ARGUMENT")["error"] == \
        "Unknown field 'slurpy'."
    error(session, "jq_bad_query", "INVALID_QUERY")


def test_json_inspect(session):
    shape = ok(session, "json_inspect")
    assert (shape["path"], shape["type"], shape["arrayLength"]) == ("/users", "array", 150)
    assert shape["elementTemplate"] == {"id": "number", "name": "string"}
    error(session, "json_inspect_missing_path", "NOT_FOUND")


def test_query_tools(session):
    assert ok(session, "query_json")["output"] == "150"
    assert ok(session, "query_json_none")["message"].startswith("Query returned no results")
    error(session, "query_json_missing", "NOT_FOUND")
    assert ok(session, "query_yaml")["output"] == '"nginx"'
    error(session, "query_yaml_type", "INVALID_ARGUMENT")


def test_patch_and_read(session):
    assert ok(session, "json_patch")["previousValue"] == "light"
    assert (session["folder"] / "edit.json").read_text() == '{"theme": "dark"}\n'
    error(session, "json_patch_bad_value", "INVALID_JSON")
    assert ok(session, "read_file")["content"] == "one\ntwo"
    error(session, "read_file_range", "INVALID_ARGUMENT")


def test_web(session):
    page = ok(session, "web_fetch")
    assert page["title"] == "Hi" and page["content"].startswith("# Hello")
    error(session, "web_fetch_404", "HTTP_ERROR")
    assert ok(session, "brave")["count"] == 2
    error(session, "brave_short", "INVALID_ARGUMENT")
    assert ok(session, "google")["count"] == 1
    error(session, "google_quota", "RATE_LIMIT")


def test_without_the_extra_says_what_to_install():
    code = ("import sys; sys.modules['mcp'] = None\n"
            "from jqmagic.cli import main; sys.exit(main(['mcp']))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr == "error: MCP needs the mcp extra: pip install 'jqmagic[mcp]'\n"


def test_a_bad_frame_gets_a_json_rpc_error_and_the_server_goes_on():
    """A line that is not JSON (-32700) or not JSON-RPC (-32600) is answered, not dropped."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "test", "version": "1"}}}
    frames = "not json\n" + '{"a": 1}\n' + json.dumps(hello) + "\n"
    run = subprocess.run([sys.executable, "-m", "jqmagic", "mcp"], input=frames,
                         capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a.get("error", {}).get("code") for a in answers[:2]] == [-32700, -32600]
    assert all(a["id"] is None for a in answers[:2])
    assert answers[2]["id"] == 1 and "result" in answers[2]


def test_lone_surrogates_come_back_escaped_in_the_text_and_replaced_in_the_json(tmp_path):
    """pydantic refuses lone surrogates: the text keeps them as \\u escapes, the structured
    content as U+FFFD, and the server answers instead of dying."""
    path = tmp_path / "s.json"
    path.write_text('{"\\udfff": "x\\ud800"}')
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "test", "version": "1"}}}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "json_inspect", "arguments": {"filePath": str(path)}}}
    with subprocess.Popen([sys.executable, "-m", "jqmagic", "mcp", "--allow-root",
                           str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as server:
        for frame in (hello, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call):
            server.stdin.write(json.dumps(frame) + "\n")
            server.stdin.flush()
        server.stdout.readline()
        answer = json.loads(server.stdout.readline())["result"]
        server.stdin.close()
    assert "\\udfff" in answer["content"][0]["text"]
    assert answer["structuredContent"]["keys"] == ["\ufffd"]
