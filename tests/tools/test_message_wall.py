"""Issue 40's wall: every message ``jqmagic mcp`` writes on the wire, counted in bytes as a
tap between it and the official SDK's client sees it, is within the bound (100,000 bytes
by default), over 50 probes made to give the most output: big results, errors echoing
1 MB inputs, passthrough, a 10 MB line, json_inspect at depth 10, pages of control
characters and quotes, resources/read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from jqmagic.core.settings import settings
from tests.web_servers import WebServer

MB = 1_000_000
TAP = str(Path(__file__).with_name("wire_tap.py"))
CHARS = ['"', "\x01", "é", "\\"]


def files(folder: Path) -> dict[str, str]:
    """The documents the probes read, made to escape badly."""
    made = {
        "big.json": json.dumps([{"id": i, "text": '"\\\x01é' * 40} for i in range(5_000)]),
        "line.txt": "\x01\"" * (5 * MB),  # one 10 MB line
        "ctrl.txt": ("\x02" * 200 + "\n") * 400,
        "deep.json": json.dumps(_deep(10, 3)),  # 59,049 leaves
        "big.yaml": "".join(f"- id: {i}\n  text: '{'x' * 200}'\n" for i in range(5_000)),
        "edit.json": json.dumps({"a": 1}),
    }
    for name, text in made.items():
        (folder / name).write_text(text)
    return {name: str(folder / name) for name in made}


def _deep(depth: int, width: int) -> object:
    """``width`` keys a level, ``depth`` levels; keys of quotes near the top."""
    if depth == 0:
        return '"' * 50
    name = 'k' + '"' * 20 if depth > 5 else "k"
    return {f"{name}{i}": _deep(depth - 1, width) for i in range(width)}


def probes(f: dict[str, str], web: WebServer) -> list[tuple[str, dict]]:
    """(tool, arguments) of each probe: 50 in all, with the resource reads."""
    out: list[tuple[str, dict]] = []
    for char in CHARS:
        huge = char * MB
        out += [("jq", {"query": ".", "input": json.dumps(huge)}),
                ("jq", {"query": huge, "input": "{}"}),
                ("jq", {"query": f"error({json.dumps(huge)})", "null_input": True}),
                ("json_inspect", {"filePath": f["deep.json"], "path": "/" + huge}),
                ("json_patch", {"filePath": f["edit.json"], "operation": "set",
                                "path": "/x", "value": json.dumps(huge), "dryRun": True}),
                ("web_fetch", {"url": web.add(f"/page{ord(char)}", char * 300_000,
                                              "text/plain; charset=utf-8"),
                               "max_length": 200_000}),
                ("read_file", {"file_path": f["line.txt"] + huge})]
    out += [("jq", {"query": ".", "file": f["big.json"]}),
            ("jq", {"query": ".[]", "file": f["big.json"]}),
            ("jq", {"query": '(range(3) | "\\"" * 100000), error("late")', "null_input": True,
                    "raw": True}),
            ("query_json", {"file_path": f["big.json"], "jq_expression": ".[]",
                            "large_result_passthrough": True}),
            ("query_json", {"file_path": f["big.json"], "jq_expression": ".",
                            "large_result_passthrough": True}),
            ("query_yaml", {"file_path": f["big.yaml"], "yq_expression": ".",
                            "large_result_passthrough": True}),
            ("json_inspect", {"filePath": f["deep.json"], "depth": 10}),
            ("json_inspect", {"filePath": f["deep.json"], "depth": 10, "format": "jsonschema"}),
            ("json_inspect", {"filePath": f["big.json"], "depth": 10, "stats": True}),
            ("read_file", {"file_path": f["line.txt"], "large_file_passthrough": True}),
            ("read_file", {"file_path": f["ctrl.txt"]}),
            ("web_fetch", {"url": web.add("/ctrl", "\x01" * 870_000, "text/plain"),
                           "max_length": 200_000}),
            ("web_fetch", {"url": web.add("/lines", ('"' * 500 + "\n") * 2_000, "text/plain"),
                           "offset": 1, "limit": 2_000}),
            ("web_fetch", {"url": web.url("/" + "u" * MB)}),
            ("json_patch", {"filePath": f["big.json"], "operation": "set", "path": "/0/text",
                            "value": json.dumps("\x01" * MB), "dryRun": True})]
    return out


UNKNOWN_TOOL, UNKNOWN_RESOURCE = "x" * MB, "jqmagic://payload/" + '"' * MB


async def ask_all(client: Client, todo: list[tuple[str, dict]],
                  unknowns: bool = True) -> tuple[list, int]:
    """Every probe through ``client``, two unknown names (a 1 MB tool, a 1 MB resource,
    with ``unknowns``), then every part of three kept payloads: (the answers, how many
    resource reads)."""
    answers, reads = [], 0
    for name, arguments in todo:
        answers.append((await client.call_tool(name, arguments)).structured_content)
    for unknown in (lambda: client.call_tool(UNKNOWN_TOOL, {}),
                    lambda: client.read_resource(UNKNOWN_RESOURCE))[:2 if unknowns else 0]:
        with pytest.raises(MCPError):
            await unknown()
    kept = [a["payload_id"] for a in answers if a and "payload_id" in a][:3]
    for pid in kept:  # every part of three kept payloads
        part = await client.read_resource(f"jqmagic://payload/{pid}")
        reads += 1
        while "jqmagic/next" in (part.meta or {}):
            part = await client.read_resource(part.meta["jqmagic/next"])
            reads += 1
    return answers, reads


def test_every_message_on_the_wire_is_within_the_bound(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    f = files(folder)
    log = tmp_path / "sizes"
    web = WebServer().start()
    todo = probes(f, web)
    server = StdioServerParameters(
        command=sys.executable,
        args=[TAP, str(log), sys.executable, "-m", "jqmagic", "mcp", "--allow-root",
              str(folder), "--allow-private-addresses"],
        env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads"),
             "NO_PROXY": "127.0.0.1,localhost"})

    async def converse() -> tuple[list, int]:
        async with Client(server, read_timeout_seconds=120) as client:
            return await ask_all(client, todo)

    try:
        answers, reads = anyio.run(converse)
    finally:
        web.stop()
    assert len(todo) + 2 + reads >= 50 and reads > 3
    sizes = [int(n) for n in log.read_text().split()]
    assert len(sizes) >= len(todo) + reads  # every answer went through the tap
    assert max(sizes) <= settings.max_message_bytes, sorted(sizes)[-5:]
    assert max(sizes) > settings.max_message_bytes * 0.6  # the probes did push at the wall
    assert all(a is not None and "success" in a for a in answers)
    cut = [a for a in answers if a["success"] and a.get("truncated")]
    assert cut and all("next_arguments" in a for a in cut), [  # issue 54: every cut
        a.get("message", "")[:200] for a in cut if "next_arguments" not in a]
