"""``jqmagic mcp --http`` under the stateless revision (2026-07-28): no session tells one
client's requests from another's, so each client's share of the workers is that of the
name its requests give (clientInfo). A client that keeps more long calls running than the
pool has workers runs its share and queues the rest: another client's '1 + 1' answers (0.2 s
at load 2-3, starting the worker left) and the next in under a second (without the share,
each request was a client of its own: the long calls took every worker and the '1 + 1'
waited for one, 20 s and more)."""

from __future__ import annotations

import time

import anyio
import pytest

pytest.importorskip("mcp")

import httpx2  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.types import Implementation  # noqa: E402

from tests.tools.test_mcp_http import TOKEN, http_server  # noqa: E402

pytestmark = [pytest.mark.slow,  # a server, long calls: about 10 s
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]
LOOP = {"query": "def f: f; f", "null_input": True}


def stateless(url: str, name: str):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    return http, Client(streamable_http_client(url, http_client=http), mode="auto",
                        read_timeout_seconds=60,
                        client_info=Implementation(name=name, version="1"))


def test_a_stateless_client_cannot_hold_every_worker(tmp_path):
    said: dict = {}

    async def hog_then_ask(url):
        hog_http, hog = stateless(url, "hog")
        ask_http, asker = stateless(url, "asker")
        async with hog_http, hog, ask_http, asker:
            # the revision a client in "auto" mode settles on: no session kept; its first
            # answer checked against the tool's outputSchema builds the client's validator
            # (1.5 s in the SDK's client, none of the server's time)
            await asker.call_tool("jq", {"query": "1", "input": "null"})
            said["version"] = asker.protocol_version
            async with anyio.create_task_group() as hogging:
                for _ in range(4):  # more than the pool's workers (three on two cores)
                    hogging.start_soon(hog.call_tool, "jq", {**LOOP, "timeout": 60})
                await anyio.sleep(1.5)  # its calls reach the workers
                for turn in ("first", "next"):  # the first may start the worker left
                    began = time.monotonic()
                    with anyio.move_on_after(20):
                        said[turn] = (await asker.call_tool(
                            "jq", {"query": "1 + 1", "input": "null"})).structured_content
                    said[f"{turn} seconds"] = time.monotonic() - began
                hogging.cancel_scope.cancel()

    with http_server(tmp_path, "--allow-root", str(tmp_path)) as url:
        anyio.run(hog_then_ask, url)
    assert said["version"] == "2026-07-28", said
    assert said.get("first", {}).get("output") == said.get("next", {}).get("output") == "2"
    assert said["first seconds"] < 10 and said["next seconds"] < 1.0, said
