"""``jqmagic.tools.wrap``: the jqschema middleware around any tool handler, and around the
official SDK's servers (an in-process client session against a real ``MCPServer``)."""

from __future__ import annotations

import asyncio
import datetime
import doctest
import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from pydantic import BaseModel

import jqmagic
import jqmagic.tools.answers
import jqmagic.tools.middleware
import jqmagic.tools.patchcheck
import jqmagic.tools.schema
from jqmagic.core import payloads
from jqmagic.tools import wrap
from jqmagic.tools.middleware import SUMMARY_SCHEMA
from jqmagic.tools.transport import limit

RESPONSE = {"total_count": 1000, "items": [{"login": "user1", "id": 123, "verified": True},
                                           {"login": "user2", "id": 456, "verified": False}]}


@pytest.fixture(autouse=True)
def payload_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    return tmp_path / "payloads"


def test_the_middleware_specs_example(payload_dir):
    def github_users(org: str) -> dict:
        """List the users of an organisation."""
        return RESPONSE

    wrapped = wrap(github_users, threshold=0)
    assert wrapped.__name__ == "github_users" and wrapped.__doc__.startswith("List the users")
    out = wrapped("acme")
    assert set(out) == {"queryID", "payloadPath", "preview", "schema", "originalSize",
                        "truncated"}
    assert re.fullmatch(r"[0-9a-f]{32}", out["queryID"])
    assert out["payloadPath"] == str(payload_dir / out["queryID"] / "payload.json")
    assert out["schema"] == {"items": [{"id": "number", "login": "string",
                                        "verified": "boolean"}], "total_count": "number"}
    assert out["preview"] == json.dumps(RESPONSE, separators=(",", ":"))
    assert out["originalSize"] == len(out["preview"]) and out["truncated"] is False
    assert payloads.payload(out["queryID"]) == RESPONSE


def test_long_responses_are_previewed():
    out = wrap(lambda: {"rows": list(range(2000))})()  # over the default threshold
    assert len(out["preview"]) == 500 and out["truncated"] is True
    assert out["schema"] == {"rows": ["number"]}
    assert payloads.payload(out["queryID"])["rows"][-1] == 1999


def test_json_text_in_json_text_out():
    out = json.loads(wrap(lambda: json.dumps(RESPONSE), threshold=0)())
    assert out["schema"]["total_count"] == "number"
    plain = json.loads(wrap(lambda: b"not json at all", threshold=0)())
    assert plain["preview"] == "not json at all" and "schema" not in plain
    assert payloads.load(plain["queryID"]) == "not json at all"


def test_async_handlers():
    async def handler(n: int) -> list:
        return [{"n": n}]

    wrapped = wrap(handler, threshold=0)
    assert asyncio.iscoroutinefunction(wrapped)
    assert asyncio.run(wrapped(3))["schema"] == [{"n": "number"}]


def test_threshold_lets_small_responses_through():
    wrapped = wrap(lambda size: "x" * size, threshold=100)
    assert wrapped(100) == "x" * 100
    assert json.loads(wrapped(101))["originalSize"] == 101


def test_tools_load_on_first_use():
    code = ("import sys, jqmagic\n"
            "assert 'jqmagic.tools' not in sys.modules\n"
            "print(jqmagic.tools.wrap.__module__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.strip() == "jqmagic.tools.middleware", run.stderr


def test_module_examples():
    for module in (jqmagic.tools.middleware, jqmagic.tools, jqmagic.tools.answers,
                   jqmagic.tools.schema, jqmagic.tools.patchcheck):
        failed, tried = doctest.testmod(module)
        assert (failed, tried > 0) == (0, True), module.__name__


# ---------------------------------------------------------------- the official SDK's servers


class User(BaseModel):
    id: int
    name: str
    joined: datetime.date


class Status(BaseModel):
    log: list[str]


def users(n: int) -> list[User]:
    """The first n users."""
    return [User(id=i, name=f"user{i}", joined=datetime.date(2024, 1, 1)) for i in range(n)]


def sdk_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("wrapped")
    server.tool()(users)

    @server.tool()
    def sys___status() -> Status:
        """The gateway's own tool: never rewritten."""
        return Status(log=["line"] * 2_000)

    return server


async def converse(server: Any, calls: list[tuple[str, dict]]) -> tuple[dict, list[Any]]:
    from mcp import Client

    async with Client(server) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        return listed, [await client.call_tool(name, args) for name, args in calls]


def test_a_whole_sdk_server_with_threshold_and_filter(monkeypatch):
    threads = []
    store = payloads.store
    monkeypatch.setattr(payloads, "store", lambda text: threads.append(
        threading.current_thread()) or store(text))
    server = wrap(sdk_server(), threshold=2_000)
    listed, (big, small, own) = anyio.run(converse, server, [
        ("users", {"n": 300}), ("users", {"n": 2}), ("sys___status", {})])
    either = listed["users"].output_schema  # the answer's own schema, or the summary's
    assert either["type"] == "object" and either["anyOf"][1] == SUMMARY_SCHEMA
    assert either["anyOf"][0]["properties"]["result"]["type"] == "array"
    assert "anyOf" not in listed["sys___status"].output_schema  # not the middleware's
    out = big.structured_content
    assert big.is_error is False and json.loads(big.content[0].text) == out
    assert out["schema"] == {"result": [{"id": "number", "joined": "string",
                                         "name": "string"}]}
    assert payloads.payload(out["queryID"])["result"][299]["name"] == "user299"
    assert out["originalSize"] > 2_000 and len(out["preview"]) == 500
    assert small.structured_content["result"][1]["name"] == "user1"  # under the threshold
    jsonschema.validate(out, either)  # the client checks it too
    jsonschema.validate(small.structured_content, either)
    assert len(own.structured_content["log"]) == 2_000  # filtered out
    assert threads and all(t is not threading.main_thread() for t in threads)


def test_a_wrapped_function_registered_on_an_sdk_server():
    """The return annotation is the handler's own or the summary: the server derives an
    output schema both answers validate (the client checks them)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("functions")
    server.tool()(wrap(users, threshold=100))
    listed, (big, small) = anyio.run(converse, server, [("users", {"n": 50}),
                                                       ("users", {"n": 1})])
    schema = listed["users"].output_schema
    assert {"JqSchemaSummary", "User"} <= set(schema["$defs"]) and big.is_error is False
    out = json.loads(big.content[0].text)
    assert out["schema"] == [{"id": "number", "joined": "string", "name": "string"}]
    assert big.structured_content["result"] == out
    assert payloads.payload(out["queryID"])[49]["joined"] == "2024-01-01"
    assert small.structured_content["result"][0]["name"] == "user0"
    jsonschema.validate(big.structured_content, schema)
    jsonschema.validate(small.structured_content, schema)


def test_values_json_cannot_spell_are_stored_not_raised():
    out = wrap(lambda: {"when": datetime.datetime(2024, 5, 1, 12), "odd": {1, 2}},
               threshold=0)()
    assert payloads.payload(out["queryID"]) == {"when": "2024-05-01T12:00:00",
                                                "odd": [1, 2]}


def test_a_huge_error_is_cut_to_one_message():
    from mcp import types
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("failing")

    @server.tool()
    def echo(text: str) -> Any:
        """Fails, echoing its input."""
        return types.CallToolResult(is_error=True, content=[
            types.TextContent(type="text", text=f"bad input {text}")])

    wrap(server)
    _, (failed,) = anyio.run(converse, server, [("echo", {"text": "x" * 5_000_000})])
    assert failed.is_error and len(failed.model_dump_json()) <= limit()
    assert failed.content[0].text.endswith("more characters)")
