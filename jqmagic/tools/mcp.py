"""``jqmagic mcp``: the agent tools over MCP (stdio, or streamable HTTP with ``--http``:
:mod:`jqmagic.tools.mcphttp`), with the official ``mcp`` SDK (an extra).

Tool calls run in a worker thread; a tool's failure is a result with ``isError`` set and
the same JSON as ``jqmagic tool`` prints; an unknown tool, a cursor this server never gave
or an unknown resource is a JSON-RPC error (invalid params). A call with a progress token
hears how it goes (parsing a file, then every second it runs); a cancelled call stops its
query (the worker is restarted). What an answer kept in the payload store is also a
resource, ``jqmagic://payload/<payload_id>`` (linked from the answer, with its media type),
read in parts within the bound of one message: ``?start=N`` (characters), the next part's
URI in the result's ``_meta``. Each client is in its own room
(:mod:`jqmagic.tools.mcpclients`): its roots narrow the operator's, its payloads are the
only ones listed and completed for it, its log level is its own; answers name no server
path unless the operator asks (``--show-payload-paths``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import re
import sys
import threading
import warnings
from typing import Any

from jqmagic.core.words import as_jq_prints, json_text, without_lone_surrogates
from jqmagic.tools.mcperrors import protocol_error

INSTALL_HINT = "MCP needs the mcp extra: pip install 'jqmagic[mcp]'"
PAYLOAD_URI = "jqmagic://payload/"
PAGE_META = "jqmagic/next"  # the next part's URI, in a resources/read result's _meta
RESOURCES_LISTED = 100  # the session's newest payloads listed; any other is read by its URI
BEAT_SECONDS = 1.0  # a running call's progress is told this often


def build_server() -> Any:
    """An ``mcp`` low-level server: every jqmagic tool, and the payloads as resources. It
    keeps nothing of one client for another: each client's roots, payloads and log level
    live with its connection (:mod:`jqmagic.tools.mcpclients`)."""
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPDeprecationWarning

    from jqmagic import __version__
    from jqmagic.core.query import progress
    from jqmagic.tools import mcpclients, mcpfeatures

    progress.report_to(_route_progress)
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning,  # roots and logging,
                            module=r"jqmagic\.")  # asked of clients before 2026-07-28
    listed = [types.Tool.model_validate(d) for d in mcpfeatures.listed_tools()]
    names = {t.name for t in listed}

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        no_cursor(params)
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        if params.name not in names:
            raise protocol_error(f"Unknown tool: {params.name}",
                                 f"Tools: {', '.join(sorted(names))}.")
        state = mcpclients.state_of(ctx)
        if state.stateless and (asked := mcpclients.roots_input(ctx, state, params)):
            return asked  # the client's roots, by a multi round-trip request (2026-07-28)
        return result_of(await answer_call(ctx, state, params.name, params.arguments or {}))

    with warnings.catch_warnings():  # roots and logging: deprecated from protocol 2026-07-28,
        warnings.simplefilter("ignore", MCPDeprecationWarning)  # kept for clients before it
        return Server(
            "jqmagic", version=__version__, instructions=INSTRUCTIONS,
            on_list_tools=list_tools, on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_list_resource_templates=list_resource_templates,
            on_read_resource=read_resource,
            on_list_prompts=mcpfeatures.list_prompts, on_get_prompt=mcpfeatures.get_prompt,
            on_completion=mcpfeatures.completer(kept_ids, PAYLOAD_URI),
            on_set_logging_level=mcpclients.set_level,
            on_roots_list_changed=mcpclients.roots_changed)


INSTRUCTIONS = ("Query, inspect and patch JSON and YAML, read files and the web with bounded "
                "results. Start big JSON with json_inspect. A cut answer names its next call "
                "in next_arguments (call the same tool with them). A result too big to send "
                "is kept: query it with the jq tool's payload, or read the resource "
                "jqmagic://payload/<payload_id> (in parts: ?start=N).")


async def answer_call(ctx: Any, state: Any, name: str, arguments: dict) -> dict[str, Any]:
    """Tool ``name``'s answer for the client of ``ctx`` (its ``state``), confined to its
    folders; the call told in log messages (its start, its cost, a cut, a refusal)."""
    import time

    from jqmagic.tools import call, failure, get, mcpclients

    if state.stateless:
        await mcpclients.warn_refused(ctx, state)
    else:
        await mcpclients.declared_roots(ctx, state)
    opened = mcpclients.openings(state)
    await mcpclients.tell(ctx, "debug", {"message": f"{name} started", "tool": name})
    started = time.monotonic()
    foreign = mcpclients.foreign_payload(state, arguments.get("payload"))
    if foreign is not None:
        response = failure(foreign, get(name))
    else:
        async with state.calls:  # a client's share of the workers (mcpclients.share)
            response = await ToolCall(ctx).run(functools.partial(call, **opened), name,
                                                arguments)
    mcpclients.note_payloads(state, response)
    if not SHOWN_PATHS[0]:
        response = without_paths(response)
    took = {"tool": name, "seconds": round(time.monotonic() - started, 3)}
    if not response["success"]:
        if response.get("error_code") == "SANDBOX_DENIED" and (state.refused or state.unread):
            response["hint"] = f"{response.get('hint', '')} {mcpclients.refusal(state)}".strip()
        await mcpclients.tell(ctx, "warning", {
            "message": f"{name} failed: {response['error_code']}", **took,
            "error_code": response["error_code"]})
    elif response.get("truncated"):
        await mcpclients.tell(ctx, "notice", {
            "message": f"{name}'s answer was cut to fit one message", **took,
            "next_arguments": response.get("next_arguments")})
    else:
        await mcpclients.tell(ctx, "info", {"message": f"{name} answered", **took})
    return response


SHOWN_PATHS = [False]  # --show-payload-paths: answers say where payloads are on disk
_PATH_FIELDS = ("payload_path", "payloadPath")


def without_paths(response: Any) -> Any:
    """``response`` without the server's paths of kept payloads (a client reads them by
    id: the jq tool's payload, or the resource)."""
    if isinstance(response, dict):
        return {k: without_paths(v) for k, v in response.items() if k not in _PATH_FIELDS}
    if isinstance(response, list):
        return [without_paths(v) for v in response]
    return response


def kept_ids(ctx: Any) -> list[str]:
    """The payload ids the answers of the client of ``ctx`` named, newest first."""
    from jqmagic.tools import mcpclients

    return list(reversed(mcpclients.state_of(ctx).kept_ids))


def result_of(response: dict[str, Any]) -> Any:
    """A tool's answer as a ``CallToolResult`` within one message's bound: the answer is
    the structured content; the text block repeats it as JSON when both fit, else it
    summarises it and points at the structured content (the spec asks the text only
    for clients without structured content: it may be shorter)."""
    from mcp import types

    from jqmagic.tools import transport

    text = json_text(response)
    if "\\u" in text:  # lone surrogates are escaped in the text, replaced in the JSON
        response = without_lone_surrogates(response)
    if "e+308" in text:  # an infinity: the largest double in both (pydantic writes null)
        response = as_jq_prints(response)
    if transport.escaped_size(text) + transport.wire_size(response) > transport.limit():
        text = json_text(transport.summary(response))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text),
                                         *resource_links(response)],
                                structured_content=response,
                                is_error=not response["success"])


async def list_resources(ctx: Any, params: Any) -> Any:
    """The newest payloads of this client that are still kept, as resources (none under
    the stateless revision: a payload is read there by the id its answer gave)."""
    from mcp import types

    from jqmagic.core import payloads
    from jqmagic.core.errors import JqMagicError

    no_cursor(params)
    listed = []
    for pid in kept_ids(ctx):
        try:
            ref = payloads.find(pid)
        except JqMagicError:  # pruned past the store's budget
            continue
        listed.append(types.Resource(
            uri=PAYLOAD_URI + ref.id, name=ref.id, title=f"Payload {ref.id}",
            description="A result too big to send, kept whole.",
            mime_type=media_type(ref.path), size=ref.size))
        if len(listed) == RESOURCES_LISTED:
            break
    return types.ListResourcesResult(resources=listed)


async def list_resource_templates(ctx: Any, params: Any) -> Any:
    """``jqmagic://payload/{payload_id}``: a payload, by the id an answer gave (under the
    handshake protocols, an answer to this client)."""
    from mcp import types

    no_cursor(params)
    return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
        uri_template=PAYLOAD_URI + "{payload_id}{?start}", name="payload",
        description="A result a tool kept because it was too big to send (payload_id); "
                    "read in parts from character start (the next part's URI is in _meta).")])


async def read_resource(ctx: Any, params: Any) -> Any:
    """One part of a payload's text, within the bound of one message (escaping counted);
    the next part's URI in ``_meta``. An unknown URI or id is invalid params."""
    import anyio
    from mcp import types

    from jqmagic.core import payloads
    from jqmagic.core.errors import JqMagicError
    from jqmagic.tools import mcpclients, transport

    uri = str(params.uri)
    try:
        pid, start = _payload_part(uri)
        foreign = mcpclients.foreign_payload(mcpclients.state_of(ctx), pid)
        if foreign is not None:
            raise foreign
        ref = await anyio.to_thread.run_sync(payloads.find, pid)
        text = await anyio.to_thread.run_sync(payloads.load, pid)
    except JqMagicError as exc:
        said = exc.to_dict("agent")
        raise protocol_error(said["error"], said.get("hint", ""), exc.code) from None
    part = transport.text_page(text, min(start, len(text)), transport.content_budget())
    end = start + len(part)
    meta = {"jqmagic/start": start, "jqmagic/total_chars": len(text)}
    if end < len(text):
        meta[PAGE_META] = f"{PAYLOAD_URI}{pid}?start={end}"
    return types.ReadResourceResult(contents=[types.TextResourceContents(
        uri=uri, mime_type=media_type(ref.path), text=part, _meta=meta)], _meta=meta)


def _payload_part(uri: str) -> tuple[str, int]:
    """The payload id and start character a ``jqmagic://payload/<id>[?start=N]`` names."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.words import cut

    pid, _, query = uri.removeprefix(PAYLOAD_URI).partition("?")
    start = query.removeprefix("start=")
    if not uri.startswith(PAYLOAD_URI) or (query and not start.isdigit()):
        raise JqMagicError("NOT_FOUND", f"No resource {cut(uri, 200)}.",
                           f"Payloads are {PAYLOAD_URI}<payload_id>, parts "
                           f"{PAYLOAD_URI}<payload_id>?start=N.")
    return pid, int(start or 0)


def media_type(path: Any) -> str:
    """``application/jsonl`` for a payload of several results (one JSON value a line),
    else ``application/json``: judged by its first line, which parses alone."""
    import json

    with open(path, "rb") as handle:
        first = handle.readline(1 << 20)
        more = handle.read(1).strip() != b"" or bool(handle.readline().strip())
    try:
        json.loads(first)
    except ValueError:
        return "application/json"
    return "application/jsonl" if more else "application/json"


def resource_links(response: dict) -> list:
    """A ``resource_link`` for the payload an answer names."""
    from mcp import types

    from jqmagic.core import payloads
    from jqmagic.core.errors import JqMagicError

    pid = response.get("payload_id")
    if not isinstance(pid, str):
        return []
    try:
        ref = payloads.find(pid)
    except JqMagicError:
        return []
    return [types.ResourceLink(type="resource_link", uri=PAYLOAD_URI + pid, name=pid,
                               title=f"Payload {pid}", mime_type=media_type(ref.path),
                               size=ref.size,
                               description="The whole result this answer kept.")]


def no_cursor(params: Any) -> None:
    """Invalid params for any cursor: every list is whole, so this server gives none."""
    cursor = getattr(params, "cursor", None)
    if cursor is not None:
        raise protocol_error(f"Unknown cursor {cursor}", "Lists here are whole: ask "
                             "without a cursor.", "INVALID_ARGUMENT")


_heard = threading.local()  # per call thread: where the worker's progress events go


def _route_progress(event: dict) -> None:
    """The core's progress reporter while MCP serves: each event to the call that made it."""
    sink = getattr(_heard, "sink", None)
    if sink is not None:
        sink(event)


class ToolCall:
    """One tool call in a worker thread: its progress told to the client when the client
    gave a progress token, and its query stopped when the client cancels it or, over HTTP,
    hangs up (:data:`jqmagic.tools.mcphttp.GONE`)."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.token = (ctx.meta or {}).get("progress_token")
        self.step = 0
        from jqmagic.tools.mcphttp import GONE

        scope = getattr(getattr(ctx, "request", None), "scope", None) or {}
        self.stop = scope.get(GONE) or threading.Event()  # set when its client hangs up

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

        from jqmagic.core.words import cut

        verb = "Parsing" if event["event"] == "parsing" else "Parsed"
        text = f"{verb} {cut(str(event['label']), 200)} ({event['bytes']:,} bytes)"
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
            said = getattr(item, "errors", lambda: [])()
            kinds = {e.get("type") for e in said}
            code, what = (types.PARSE_ERROR, "Parse error") if "json_invalid" in kinds else \
                (types.INVALID_REQUEST, "Invalid Request")
            message = f"{what}: each line must be one JSON-RPC message."
            deep = [e for e in said if "recursion limit" in str(e.get("msg", ""))]
            rid = request_id(str(deep[0].get("input", ""))) if deep else None
            if deep:  # valid JSON, too deep to read: answered for its id when it has one
                code, message = types.INVALID_REQUEST, ("Invalid Request: nested too deeply "
                                                        "to read (a JSON value of at most "
                                                        "about 200 levels).")
            error = types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(
                code=code, message=message))
            await outgoing.send(SessionMessage(error))


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_ID_VALUE = re.compile(r'\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")')


def request_id(text: str) -> int | str | None:
    """The top-level ``id`` of a JSON-RPC message too deep to parse, read by a scan that
    counts brackets outside strings (None when it has none)."""
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
        elif mark in "]}":
            depth -= 1
        elif depth == 1 and mark == '"id"' and (value := _ID_VALUE.match(text, token.end())):
            return json.loads(value.group(1))
    return None


def mcp_arguments(parser: argparse.ArgumentParser) -> None:
    """``jqmagic mcp`` speaks MCP on stdio (or HTTP); its flags open the sandbox up and set
    the bound of one message."""
    from jqmagic.tools import mcphttp, policy, transport

    policy.add_arguments(parser)
    transport.add_arguments(parser)
    mcphttp.add_arguments(parser)
    parser.add_argument("--show-payload-paths", action="store_true",
                        help="answers name where a kept payload is on this machine "
                             "(payload_path); by default a client reads payloads by id")


def run_mcp(args: argparse.Namespace) -> int:
    """``jqmagic mcp``."""
    try:
        import anyio
        import mcp  # noqa: F401 - only to say what to install
    except ImportError:
        print(f"error: {INSTALL_HINT}", file=sys.stderr)
        return 1
    from jqmagic.tools import policy, transport

    policy.apply(args)
    transport.apply(args)
    SHOWN_PATHS[0] = bool(getattr(args, "show_payload_paths", False))
    if getattr(args, "http", False):
        from jqmagic.tools import mcphttp

        mcphttp.serve(args, build_server())
    else:
        anyio.run(serve_stdio)
    return 0
