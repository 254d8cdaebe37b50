"""``jqmagic mcp``: the agent tools over MCP (stdio), with the official ``mcp`` SDK (an extra).

Tool calls run in a worker thread; a tool's failure is a result with ``isError`` set and
the same JSON as ``jqmagic tool`` prints, never a protocol error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from jqmagic.core.words import json_text, without_lone_surrogates

INSTALL_HINT = "MCP needs the mcp extra: pip install 'jqmagic[mcp]'"
# Every answer is one JSON object: success, then the tool's fields or the error's.
OUTPUT_SCHEMA = {"type": "object", "properties": {
    "success": {"type": "boolean"}, "error": {"type": "string"},
    "error_code": {"type": "string"}, "hint": {"type": "string"}},
    "required": ["success"]}


def build_server() -> Any:
    """An ``mcp`` low-level server listing and calling every jqmagic tool."""
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server

    from jqmagic import __version__
    from jqmagic.tools import call, tools

    listed = [types.Tool.model_validate({"name": t.name, "title": t.title,
                                         "description": t.description,
                                         "inputSchema": t.parameters,
                                         "outputSchema": OUTPUT_SCHEMA,
                                         "annotations": t.annotations})
              for t in tools().values()]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        response = await anyio.to_thread.run_sync(call, params.name, params.arguments or {})
        text = json_text(response)
        if "\\u" in text:  # lone surrogates are escaped in the text, replaced in the JSON
            response = without_lone_surrogates(response)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=response,
                                    is_error=not response["success"])

    return Server("jqmagic", version=__version__,
                  instructions="Query, inspect and patch JSON and YAML, read files and the web "
                               "with bounded results. Start big JSON with json_inspect.",
                  on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio() -> None:
    """Serve the tools on stdin / stdout until the client hangs up."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream(0)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(answer_bad_frames, read_stream, send, write_stream)
            await server.run(receive, write_stream, server.create_initialization_options())


async def answer_bad_frames(incoming: Any, onward: Any, outgoing: Any) -> None:
    """Pass the client's messages on; answer a line that is not JSON (-32700, Parse error)
    or not a JSON-RPC message (-32600, Invalid Request) as JSON-RPC 2.0 asks, where the SDK
    would drop it and leave the client waiting."""
    from mcp import types
    from mcp.shared.message import SessionMessage

    async with onward:
        async for item in incoming:
            if not isinstance(item, Exception):
                await onward.send(item)
                continue
            kinds = {e.get("type") for e in getattr(item, "errors", lambda: [])()}
            code, what = (types.PARSE_ERROR, "Parse error") if "json_invalid" in kinds else \
                (types.INVALID_REQUEST, "Invalid Request")
            error = types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(
                code=code, message=f"{what}: each line must be one JSON-RPC message."))
            await outgoing.send(SessionMessage(error))


def mcp_arguments(parser: argparse.ArgumentParser) -> None:
    """``jqmagic mcp`` speaks MCP on stdio; its flags open the sandbox up."""
    from jqmagic.tools import policy

    policy.add_arguments(parser)


def run_mcp(args: argparse.Namespace) -> int:
    """``jqmagic mcp``."""
    try:
        import anyio
        import mcp  # noqa: F401 - only to say what to install
    except ImportError:
        print(f"error: {INSTALL_HINT}", file=sys.stderr)
        return 1
    from jqmagic.tools import policy

    policy.apply(args)
    anyio.run(serve_stdio)
    return 0
