"""``jqmagic mcp`` over stdio with the official SDK's client: payloads as resources, progress
on a long query, and a cancellation that stops the query it cancels."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client  # the mcp extra (part of the test extra)
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from jqmagic.core import payloads
from jqmagic.tools.transport import content_budget, limit

BOUND = limit()  # the result of one message, less the JSON-RPC around it

LONG = "last(range(1e11))"  # minutes of work for any engine


def server(folder: Path, *flags: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "jqmagic", "mcp", "--allow-root", str(folder), *flags],
        env={"JQMAGIC_PAYLOAD_DIR": str(folder / "payloads")})


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # 2025-11-25, 2026-07-28 (stateless)
def test_payloads_are_resources(tmp_path, mode):
    data = tmp_path / "big.json"
    data.write_text(json.dumps({"items": [{"id": i, "text": "x" * 400} for i in range(2_000)]}))
    other = payloads.store('{"a notebook": "kept this"}', directory=tmp_path / "payloads")

    async def converse():
        async with Client(server(tmp_path), read_timeout_seconds=60, mode=mode) as client:
            answer = (await client.call_tool("jq", {"query": ".items", "file": str(data),
                                                    "compact": True})).structured_content
            listed = (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            parts = [await client.read_resource(f"jqmagic://payload/{answer['payload_id']}")]
            while parts[-1].meta and "jqmagic/next" in parts[-1].meta:
                parts.append(await client.read_resource(parts[-1].meta["jqmagic/next"]))
            with pytest.raises(MCPError) as missing:
                await client.read_resource("jqmagic://payload/" + "0" * 32)
            return answer, listed, templates, parts, missing.value

    answer, listed, templates, parts, missing = anyio.run(converse)
    assert answer["truncated"] is True and "payload_id" in answer and "queryID" not in answer
    uri = f"jqmagic://payload/{answer['payload_id']}"
    # this session's, not the notebook's; none when no session is kept (read by id alone)
    assert [str(r.uri) for r in listed] == ([uri] if mode == "legacy" else [])
    assert other.id not in uri
    assert templates[0].uri_template == "jqmagic://payload/{payload_id}{?start}"
    kept = payloads.find(answer["payload_id"], directory=tmp_path / "payloads").path
    assert "payload_path" not in answer  # no server path unless the operator asks
    size = len(Path(kept).read_bytes())
    assert len(parts) == -(-size // content_budget())  # 844 kB in parts, each a message
    texts = []
    for part in parts:
        (content,) = part.contents
        assert len(part.model_dump_json(by_alias=True).encode()) <= BOUND
        texts.append(content.text)
    assert json.loads("".join(texts)) == json.loads(data.read_text())["items"]
    assert "".join(texts) == Path(kept).read_text()
    assert missing.error.data["error_code"] == "NOT_FOUND"


def test_progress_then_a_cancelled_query_stops_its_work(tmp_path):
    data = tmp_path / "fresh.json"
    data.write_text(json.dumps(list(range(1000))))
    heard: dict[str, list[tuple[float, str]]] = {"parse": [], "slow": []}

    def note(label: str):
        async def hear(progress: float, total: float | None, message: str | None) -> None:
            heard[label].append((progress, message or ""))
        return hear

    async def converse():
        async with Client(server(tmp_path, "--allow-exec"), read_timeout_seconds=120) as client:
            parsed = await client.call_tool("jq", {"query": "length", "file": str(data)},
                                            progress_callback=note("parse"))
            slow = await client.call_tool("jq", {"query": ". + 1", "timeout": 120,
                                                 "exec": "sleep 2.5 && echo 1"},
                                          progress_callback=note("slow"))
            with anyio.move_on_after(2):  # the client gives up: notifications/cancelled
                await client.call_tool("jq", {"query": LONG, "input": "null",
                                              "timeout": 600})
            started = time.monotonic()
            after = await client.call_tool("jq", {"query": "1 + 1", "input": "null"})
            return parsed, slow, after, time.monotonic() - started

    parsed, slow, after, took = anyio.run(converse)
    assert parsed.structured_content["output"] == "1000"
    messages = [m for _, m in heard["parse"]]
    assert messages[0].startswith(f"Parsing {data} (") and messages[1].startswith("Parsed ")
    assert slow.structured_content["output"] == "2"
    assert len(heard["slow"]) >= 2 and all(m.startswith("Running for ") for _, m in
                                           heard["slow"])
    for told in heard.values():
        steps = [p for p, _ in told]
        assert steps == sorted(set(steps))  # progress only grows
    # The worker was stopped: the next query does not wait minutes for the cancelled one.
    assert after.structured_content["output"] == "2" and took < 15
