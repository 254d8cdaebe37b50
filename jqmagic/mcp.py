"""``jqmagic mcp``: the agent tools over MCP (stdio), with the official ``mcp`` SDK (an extra).

Tool calls run in a worker thread; a tool's failure is a result with ``isError`` set and
the same JSON as ``jqmagic tool`` prints, never a protocol error. A call with a progress
token hears how it goes (parsing a file, then every second it runs); a cancelled call stops
its query (the worker is restarted). What an answer kept in the payload store is also a
resource, ``jqmagic://payload/<payload_id>``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
from typing import Any

from jqmagic.core.words import json_text, without_lone_surrogates

INSTALL_HINT = "MCP needs the mcp extra: pip install 'jqmagic[mcp]'"
PAYLOAD_URI = "jqmagic://payload/"
RESOURCES_LISTED = 100  # the session's newest payloads listed; any other is read by its URI
BEAT_SECONDS = 1.0  # a running call's progress is told this often


def build_server() -> Any:
    """An ``mcp`` low-level server: every jqmagic tool, and the payloads as resources."""
    from mcp import types
    from mcp.server.lowlevel import Server

    from jqmagic import __version__
    from jqmagic.core.query import progress
    from jqmagic.tools import call, definitions

    progress.reporter = _route_progress
    listed = [types.Tool.model_validate(d) for d in definitions("mcp")]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    kept = KeptPayloads()

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        response = await ToolCall(ctx).run(call, params.name, params.arguments or {})
        kept.note(response)
        text = json_text(response)
        if "\\u" in text:  # lone surrogates are escaped in the text, replaced in the JSON
            response = without_lone_surrogates(response)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=response,
                                    is_error=not response["success"])

    return Server("jqmagic", version=__version__,
                  instructions="Query, inspect and patch JSON and YAML, read files and the web "
                               "with bounded results. Start big JSON with json_inspect. A "
                               "result too big to send is kept: query it with the jq tool's "
                               "payload, or read the resource jqmagic://payload/<payload_id>.",
                  on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=kept.list_resources,
                  on_list_resource_templates=list_resource_templates,
                  on_read_resource=read_resource)


class KeptPayloads:
    """The payloads this session's answers named: the resources it lists (the store may
    hold other sessions' payloads, a notebook's among them: those are not listed)."""

    def __init__(self) -> None:
        self.ids: dict[str, None] = {}  # oldest first

    def note(self, response: Any) -> None:
        """Remember every ``payload_id`` in a tool's answer (nested ones too)."""
        if isinstance(response, dict):
            if isinstance(response.get("payload_id"), str):
                self.ids.pop(response["payload_id"], None)
                self.ids[response["payload_id"]] = None
            for value in response.values():
                self.note(value)
        elif isinstance(response, list):
            for value in response:
                self.note(value)

    async def list_resources(self, ctx: Any, params: Any) -> Any:
        """The newest payloads of this session that are still kept, as resources."""
        from mcp import types

        from jqmagic.core import payloads
        from jqmagic.core.errors import JqMagicError

        listed = []
        for pid in reversed(list(self.ids)):
            try:
                ref = payloads.find(pid)
            except JqMagicError:  # pruned past the store's budget
                continue
            listed.append(types.Resource(
                uri=PAYLOAD_URI + ref.id, name=ref.id, title=f"Payload {ref.id}",
                description="A result too big to send, kept whole.",
                mime_type="application/json", size=ref.size))
            if len(listed) == RESOURCES_LISTED:
                break
        return types.ListResourcesResult(resources=listed)


async def list_resource_templates(ctx: Any, params: Any) -> Any:
    """``jqmagic://payload/{payload_id}``: any payload, by the id an answer gave."""
    from mcp import types

    return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
        uri_template=PAYLOAD_URI + "{payload_id}", name="payload",
        description="A result a tool kept because it was too big to send (payload_id).",
        mime_type="application/json")])


async def read_resource(ctx: Any, params: Any) -> Any:
    """A payload's whole text; an unknown URI or id is the protocol's invalid-params error."""
    import anyio
    from mcp import types
    from mcp.shared.exceptions import MCPError

    from jqmagic.core import payloads
    from jqmagic.core.errors import JqMagicError

    uri = str(params.uri)
    try:
        if not uri.startswith(PAYLOAD_URI):
            raise JqMagicError("NOT_FOUND", f"No resource {uri}.",
                               f"Payloads are {PAYLOAD_URI}<payload_id>.")
        text = await anyio.to_thread.run_sync(payloads.load, uri.removeprefix(PAYLOAD_URI))
    except JqMagicError as exc:
        said = exc.to_dict("agent")
        raise MCPError(types.INVALID_PARAMS, f"{said['error']} {said.get('hint', '')}".strip(),
                       said) from None
    return types.ReadResourceResult(contents=[types.TextResourceContents(
        uri=uri, mime_type="application/json", text=text)])


_heard = threading.local()  # per call thread: where the worker's progress events go


def _route_progress(event: dict) -> None:
    """The core's progress reporter while MCP serves: each event to the call that made it."""
    sink = getattr(_heard, "sink", None)
    if sink is not None:
        sink(event)


class ToolCall:
    """One tool call in a worker thread: its progress told to the client when the client
    gave a progress token, and its query stopped when the client cancels it."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.token = (ctx.meta or {}).get("progress_token")
        self.step = 0
        self.stop = threading.Event()

    async def run(self, function: Any, *args: Any) -> Any:
        import anyio

        try:
            async with anyio.create_task_group() as tasks:
                if self.token is not None:
                    tasks.start_soon(self._beat)
                answer = await anyio.to_thread.run_sync(self._in_thread, function, *args,
                                                        abandon_on_cancel=True)
                tasks.cancel_scope.cancel()
        except anyio.get_cancelled_exc_class():
            self.stop.set()  # the thread's query ends within half a second
            raise
        return answer

    def _in_thread(self, function: Any, *args: Any) -> Any:
        from jqmagic.core.query.supervisor import stopped_by

        _heard.sink = self._parsing
        try:
            with stopped_by(self.stop):
                return function(*args)
        finally:
            _heard.sink = None

    def _parsing(self, event: dict) -> None:
        """A worker event, told from the call's thread."""
        import anyio

        verb = "Parsing" if event["event"] == "parsing" else "Parsed"
        text = f"{verb} {event['label']} ({event['bytes']:,} bytes)"
        if self.token is not None:
            with contextlib.suppress(RuntimeError):  # the call is over (cancelled)
                anyio.from_thread.run(self.tell, text)

    async def _beat(self) -> None:
        import anyio

        started = anyio.current_time()
        while True:
            await anyio.sleep(BEAT_SECONDS)
            await self.tell(f"Running for {anyio.current_time() - started:.0f} s")

    async def tell(self, message: str) -> None:
        self.step += 1
        await self.ctx.session.send_progress_notification(
            self.token, self.step, message=message, related_request_id=self.ctx.request_id)


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
