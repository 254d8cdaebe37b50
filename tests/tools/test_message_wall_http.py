"""Issue 40's wall over streamable HTTP: the 50 probes of test_message_wall, sent by the
official SDK's client to ``jqmagic mcp --http`` with the bearer token; every message the
server sends (each server-sent event's data, or a JSON body) is counted in bytes as the
client's transport receives it, and is within the bound. A probe whose request is over
the SDK server's request cap (4 MiB) is sent as a plain request and refused with 413; so
are the two 1 MB names (the SDK's client mirrors a tool's name or a resource's URI into an
``Mcp-Name`` header, which the HTTP server drops with the connection). Without the token:
401."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.streamable_http_manager import DEFAULT_MAX_REQUEST_BODY_SIZE

from jqmagic.core.settings import settings
from tests.tools.test_mcp_http import TOKEN, http_server
from tests.tools.test_message_wall import (
    UNKNOWN_RESOURCE,
    UNKNOWN_TOOL,
    ask_all,
    files,
    probes,
)
from tests.web_servers import WebServer

SLACK = 64 * 1024  # what the SDK's client adds to a request beyond json_size's count


class Tap(httpx2.AsyncBaseTransport):
    """The real transport, noting the bytes of every message each response carries and of
    each whole response body."""

    def __init__(self) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.messages: list[int] = []
        self.bodies: list[int] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        sse = response.headers.get("content-type", "").startswith("text/event-stream")
        return httpx2.Response(response.status_code, headers=response.headers,
                               stream=_Counted(response.stream, self, sse),
                               extensions=response.extensions, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


class _Counted(httpx2.AsyncByteStream):
    """A response body passed on as it comes; an event stream's ``data:`` lines summed per
    event (one JSON-RPC message each), any other body counted whole."""

    def __init__(self, inner: httpx2.AsyncByteStream, tap: Tap, sse: bool) -> None:
        self.inner, self.tap, self.sse = inner, tap, sse

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total, pending, data = 0, b"", []
        async for chunk in self.inner:
            total += len(chunk)
            if self.sse:
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in (raw.rstrip(b"\r") for raw in lines):
                    if line.startswith(b"data:"):
                        data.append(len(line[5:].removeprefix(b" ")))
                    elif not line and data:  # the event's end
                        self.tap.messages.append(sum(data) + len(data) - 1)
                        data = []
            yield chunk
        if not self.sse and total:
            self.tap.messages.append(total)
        self.tap.bodies.append(total)

    async def aclose(self) -> None:
        await self.inner.aclose()


def call_body(name: str, arguments: dict) -> bytes:
    """A tools/call request's body."""
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}).encode()


async def plain_post(url: str, body: bytes, token: bool) -> tuple[int, int]:
    """The status and body size of one request outside any session (with or without
    the token)."""
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {TOKEN}"
    async with httpx2.AsyncClient(timeout=60) as plain:
        response = await plain.post(url, content=body, headers=headers)
        return response.status_code, len(response.content)


def test_every_message_over_http_is_within_the_bound(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    f = files(folder)
    web = WebServer().start()
    todo = probes(f, web)
    cap = DEFAULT_MAX_REQUEST_BODY_SIZE
    sent = [p for p in todo if len(call_body(*p)) + SLACK <= cap]
    over = [p for p in todo if len(call_body(*p)) > cap]
    tap = Tap()
    unknown: list[tuple[int, int]] = []  # (status, bytes) of the two 1 MB names

    async def converse(url: str) -> tuple[list, int, list, tuple[int, int]]:
        refused = [await plain_post(url, call_body(*p), token=True) for p in over]
        for method, params in (("tools/call", {"name": UNKNOWN_TOOL, "arguments": {}}),
                               ("resources/read", {"uri": UNKNOWN_RESOURCE})):
            body = json.dumps({"jsonrpc": "2.0", "id": 8, "method": method,
                               "params": params}).encode()
            unknown.append(await plain_post(url, body, token=True))
        anonymous = await plain_post(url, call_body(*sent[0]), token=False)
        http = httpx2.AsyncClient(transport=tap, timeout=120,
                                  headers={"Authorization": f"Bearer {TOKEN}"})
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            answers, reads = await ask_all(client, sent, unknowns=False)
        return answers, reads, refused, anonymous

    try:
        with http_server(tmp_path, "--allow-root", str(folder),
                         "--allow-private-addresses") as url:
            answers, reads, refused, anonymous = anyio.run(converse, url)
    finally:
        web.stop()
    assert anonymous[0] == 401
    assert len(sent) + len(over) == len(todo) and 0 < len(over) <= len(todo) // 3
    assert [status for status, _ in refused] == [413] * len(over)
    assert [status >= 400 for status, _ in unknown] == [True, True]
    tap.messages += [size for _, size in [*refused, *unknown, anonymous]]
    assert len(todo) + 2 + reads >= 50 and reads > 3
    assert len(tap.messages) >= len(sent) + reads  # every answer went through the tap
    assert max(tap.messages) <= settings.max_message_bytes, sorted(tap.messages)[-5:]
    assert max(tap.messages) > settings.max_message_bytes * 0.6  # the probes pushed
    assert all(a is not None and "success" in a for a in answers)
    cut = [a for a in answers if a["success"] and a.get("truncated")]
    assert cut and all("next_arguments" in a for a in cut), [  # issue 54: every cut
        a.get("message", "")[:200] for a in cut if "next_arguments" not in a]
