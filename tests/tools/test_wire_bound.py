"""Issue 27's agent-face bound: every answer stays within one message's bound, whatever a
request holds (up to 50 MB in any parameter), on every path: success, failure, a program's
output before it failed; over MCP, protocol errors and resources/read too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from jqmagic.tools import call, tools
from jqmagic.tools.transport import limit, wire_size

BOUND = limit()
MB = 1_000_000


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bound")
    (d / "data.json").write_text(json.dumps({"users": [{"id": i, "name": "n" * 50}
                                                       for i in range(5_000)]}))
    (d / "notes.txt").write_text("line\n" * 10)
    return d


def fill(folder: Path, name: str, param: str, text: str) -> dict:
    """A request for tool ``name`` with ``text`` in ``param`` (other fields sensible)."""
    data, notes = str(folder / "data.json"), str(folder / "notes.txt")
    base = {"jq": {"query": ".", "input": "{}"},
            "query_json": {"file_path": data, "jq_expression": "."},
            "query_yaml": {"file_path": data, "yq_expression": "."},
            "json_inspect": {"filePath": data},
            "json_patch": {"filePath": data, "operation": "set", "path": "/x", "value": "1",
                           "dryRun": True},
            "read_file": {"file_path": notes},
            "web_fetch": {"url": "http://127.0.0.1:9/"},
            "web_search_brave": {"query": "jq"},
            "web_search_google": {"query": "jq"}}.get(name, {})  # a newer tool: its own
    schema = tools()[name].parameters["properties"].get(param, {})
    kind = schema.get("type")
    if param == "args" or kind == "object":
        value: object = {text: 1}  # a huge $name
    elif kind == "array":
        value = [text]
    else:
        value = text
    return {**base, param: value}


PARAMS = [(name, param) for name, t in tools().items() for param in t.parameters["properties"]
          if not name.startswith("web_")] + [("web_fetch", "url"), ("web_search_brave",
                                                                     "query")]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(which=st.sampled_from(PARAMS), size=st.sampled_from([10, 250_000, 5 * MB]),
       char=st.sampled_from(["a", '"', "\\", "\n", "é", "\x01"]))
def test_every_answer_stays_within_the_bound(folder, which, size, char):
    name, param = which
    answer = call(name, fill(folder, name, param, char * size))
    assert wire_size(answer) <= BOUND, (name, param, size, wire_size(answer))
    assert answer["success"] in (True, False)


@pytest.mark.parametrize(("name", "param"), [("jq", "input"), ("json_inspect", "path"),
                                             ("json_patch", "path"), ("query_json", "args"),
                                             ("web_fetch", "url"), ("nope" * 10, "query")])
def test_fifty_megabytes_come_back_cut(folder, name, param):
    request = fill(folder, name if name in tools() else "jq", param, "x" * (50 * MB))
    answer = call(name, request)
    assert wire_size(answer) <= BOUND  # an unused $name binds and succeeds; the rest fail
    assert answer["success"] is (param == "args")


def test_output_before_a_failure_is_cut_and_kept(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    answer = call("jq", {"query": '(range(3) | "y" * 100000), error("late")', "input": "null",
                         "raw": True})
    assert answer["success"] is False and wire_size(answer) <= BOUND
    assert answer["truncated"] is True and answer["payload_id"] in answer["message"]
    whole = call("jq", {"payload": answer["payload_id"], "slurp": True, "query": "length"})
    assert whole["output"] == "3"  # the step the message names reads what was kept


def test_mcp_protocol_errors_and_resources_stay_within_the_bound(folder, tmp_path):
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "jqmagic", "mcp", "--allow-root", str(folder)],
        env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads")})
    huge = "z" * (5 * MB)

    async def converse() -> list:
        errors = []
        async with Client(server, read_timeout_seconds=120) as client:
            for attempt in (lambda: client.call_tool(huge, {}),
                            lambda: client.read_resource("jqmagic://payload/" + huge),
                            lambda: client.read_resource("other://" + huge),
                            lambda: client.list_tools(cursor=huge),
                            lambda: client.list_resources(cursor="bogus")):
                with pytest.raises(MCPError) as caught:
                    await attempt()
                errors.append(caught.value.error)
            answer = await client.call_tool("jq", {"query": huge, "input": "{}"})
            errors.append(answer)
            kept = (await client.call_tool("jq", {"query": '[range(300000) | "\\"\\(.)"]',
                                                  "null_input": True, "compact": True}))
            uri = f"jqmagic://payload/{kept.structured_content['payload_id']}"
            parts = [await client.read_resource(uri)]
            while "jqmagic/next" in (parts[-1].meta or {}):
                parts.append(await client.read_resource(parts[-1].meta["jqmagic/next"]))
            errors.append(parts)
        return errors

    *protocol, answer, parts = anyio.run(converse)
    texts = [p.contents[0].text for p in parts]
    assert len("".join(texts)) > 3 * MB and len(parts) > 15  # quotes escape to two characters
    assert all(len(p.model_dump_json()) <= BOUND for p in parts)
    assert json.loads("".join(texts)) == [f'"{i}' for i in range(300_000)]
    for error in protocol:
        assert error.code == -32602 and len(error.model_dump_json()) <= 5_000
    assert protocol[0].message.startswith("Unknown tool: zzz")
    assert answer.is_error and len(answer.content[0].text) <= BOUND
    assert len(json.dumps(answer.structured_content)) <= BOUND


@pytest.mark.parametrize(("command", "request_"), [
    (["-m", "jqmagic", "tool", "jq"], {"query": "$" + "v" * (5 * MB), "input": "{}"}),
    (["-m", "jqmagic", "tool", "json_inspect"], {"filePath": "f" * (5 * MB)}),
    (["-m", "jqmagic", "tool", "x" * 100_000], {}),
    (["-c", "import sys; from jqmagic.tools.protocol import web_fetch_tool as t; sys.exit(t())"],
     {"url": "http://" + "h" * (5 * MB)}),
    (["-m", "jqmagic", "tool", "jq"], "{" * (5 * MB)),
])
def test_the_command_line_faces_stay_within_the_bound(tmp_path, command, request_):
    import subprocess

    text = request_ if isinstance(request_, str) else json.dumps(request_)
    run = subprocess.run([sys.executable, *command], input=text, capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 1 and len(run.stdout) <= BOUND + 1, len(run.stdout)
    assert json.loads(run.stdout)["success"] is False
