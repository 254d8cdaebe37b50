"""``jqmagic mcp``'s client features (issues 40, 54): the client's roots narrow the
operator's (a file under one is readable, nothing else is), prompts, completions of paths
and payload ids, the logging capability."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # roots,
def test_roots_prompts_completions_and_logging(tmp_path):  # logging: before 2026-07-28
    work, client_root, elsewhere = (tmp_path / n for n in ("work", "root", "elsewhere"))
    for folder in (work, client_root, elsewhere):
        folder.mkdir()
    (client_root / "config.json").write_text('{"timeout": 10}')
    (client_root / "conf.d").mkdir()
    (elsewhere / "secret.json").write_text('{"key": "s3cr3t"}')
    server = StdioServerParameters(command=sys.executable,  # the operator's wall: tmp_path
                                   args=["-m", "jqmagic", "mcp", "--allow-root", str(tmp_path)],
                                   cwd=str(work),
                                   env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads")})
    heard: list = []

    async def roots(ctx):
        return types.ListRootsResult(roots=[types.Root(uri=client_root.as_uri())])

    async def log(params):
        heard.append(params)

    async def converse():
        async with Client(server, read_timeout_seconds=60, list_roots_callback=roots,
                          logging_callback=log, mode="legacy") as client:
            await client.set_logging_level("info")
            inside = await client.call_tool("read_file", {
                "file_path": str(client_root / "config.json")})
            outside = await client.call_tool("read_file", {
                "file_path": str(elsewhere / "secret.json")})
            prompts = (await client.list_prompts()).prompts
            prompt = await client.get_prompt("explore_file",
                                             {"file": str(client_root / "config.json")})
            with pytest.raises(MCPError):
                await client.get_prompt("fix_config_value", {"file": "x"})
            paths = await client.complete(types.PromptReference(type="ref/prompt",
                                                                name="explore_file"),
                                          {"name": "file", "value": str(client_root) + "/c"})
            big = await client.call_tool("jq", {"query": "[range(100000)]", "null_input": True,
                                                "compact": True})
            ids = await client.complete(
                types.ResourceTemplateReference(type="ref/resource",
                                                uri="jqmagic://payload/{payload_id}"),
                {"name": "payload_id", "value": ""})
            capabilities = client.server_capabilities
        return inside, outside, prompts, prompt, paths, big, ids, capabilities

    inside, outside, prompts, prompt, paths, big, ids, caps = anyio.run(converse)
    assert inside.structured_content["content"] == '{"timeout": 10}'
    assert outside.structured_content["error_code"] == "SANDBOX_DENIED"
    assert "s3cr3t" not in json.dumps(outside.structured_content)
    assert {p.name for p in prompts} == {"explore_file", "fix_config_value"}
    assert "json_inspect" in prompt.messages[0].content.text
    assert sorted(paths.completion.values) == sorted(
        [str(client_root / "config.json"), str(client_root / "conf.d") + "/"])
    assert big.structured_content["payload_id"] in ids.completion.values
    assert caps.prompts is not None and caps.completions is not None
    assert caps.logging is not None
    assert any(h.data.get("error_code") == "SANDBOX_DENIED" for h in heard)


def test_a_root_is_a_local_folder_only():
    """A root that names no local folder is kept as it is, for the wall to refuse (dropped,
    a client whose roots were all such would get the operator's whole wall)."""
    from jqmagic.core.sandbox import NO_FOLDER, narrowed
    from jqmagic.tools.mcpclients import folder_of

    assert folder_of(Path("/data/x y").as_uri()) == "/data/x y"
    for root in ("https://example.com/data", "file://otherhost/data"):
        assert folder_of(root) == root
        assert narrowed([folder_of(root)], ["/data"])[0] in ([], [NO_FOLDER])
