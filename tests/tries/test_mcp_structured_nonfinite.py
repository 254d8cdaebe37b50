"""MCP's structured content says an infinity as jq and the text block do: json_inspect's
stats over a YAML 'a: .inf' gave 1.7976931348623157e+308 in the text block and null in the
structured content (the SDK's pydantic writes a non-finite float as null)."""

from __future__ import annotations

import json

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402

from jqmagic.tools.mcp import build_server  # noqa: E402

LARGEST = 1.7976931348623157e308


def test_structured_content_and_text_agree_on_infinities(tmp_path, monkeypatch):
    (tmp_path / "inf.yaml").write_text("a: .inf\nb: -.inf\nc: .nan\nl: [.inf, 1]\n")
    monkeypatch.chdir(tmp_path)

    async def ask():
        async with Client(build_server(), read_timeout_seconds=60) as client:
            return await client.call_tool("json_inspect", {"filePath": "inf.yaml",
                                                           "stats": True})

    result = anyio.run(ask)
    text = json.loads(result.content[0].text)
    assert result.structured_content == text
    profiles = result.structured_content["profiles"]
    assert profiles[".a"]["max"] == LARGEST and profiles[".b"]["min"] == -LARGEST
    assert profiles[".l[]"]["samples"] == [LARGEST, 1] and profiles[".c"]["samples"] == [None]
