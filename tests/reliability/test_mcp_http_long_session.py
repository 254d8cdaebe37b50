"""``jqmagic mcp --http`` with two clients at once over a long session: each asks questions
over its own JSON Lines file, edited between them (each answer jq 1.8.2's over the file as
it is now), with pauses longer than the timeout, timeouts and cancellations in between; one
client's cancellation stops its own query only (the other's long one answers), the next
call answers at once, and every message stays within the wire's bound."""

from __future__ import annotations

import random
import subprocess
import time

import anyio
import pytest

pytest.importorskip("mcp")

import httpx2  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from tests.cli.dropin import ORACLE  # noqa: E402
from tests.reliability.test_kernel_long_session import PROGRAMS, _events  # noqa: E402
from tests.tools.test_mcp_http import TOKEN, http_server  # noqa: E402

pytestmark = [pytest.mark.slow,  # a server, pauses: about 20 s
              pytest.mark.skipif(not ORACLE.exists(), reason="jq 1.8.2 is not built here"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]
BOUND = 100_000
LOOP = {"query": "def f: f; f", "null_input": True}


def _client(url: str):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    return http, Client(streamable_http_client(url, http_client=http), mode="legacy",
                        read_timeout_seconds=60)


async def _session(url: str, folder, name: str, rng: random.Random, done: dict) -> None:
    path, seed = folder / f"{name}.jsonl", 1
    _events(path, seed)
    http, client = _client(url)
    async with http, client:
        plan = ["pause", "timeout", "cancel"] + rng.choices(
            ["ask"] * 10 + ["edit"] * 3 + ["timeout", "cancel", "pause"], k=45)
        for step in plan:
            if step == "pause":
                await anyio.sleep(1.3)  # longer than the timeout
            elif step == "timeout":
                said = (await client.call_tool("jq", {**LOOP, "timeout": 1})).structured_content
                assert said["error_code"] == "TIMEOUT", said
            elif step == "cancel":
                with anyio.move_on_after(0.4):  # the client gives up: notifications/cancelled
                    await client.call_tool("jq", {**LOOP, "timeout": 600})
                began = time.monotonic()
                said = await client.call_tool("jq", {"query": "1 + 1", "input": "null"})
                assert said.structured_content["output"] == "2"
                assert time.monotonic() - began < 10
            elif step == "edit":
                seed += 1
                _events(path, seed)
            if step != "ask":
                done[step] += 1
                if step != "edit":
                    continue
            program = rng.choice(PROGRAMS)
            result = await client.call_tool("jq", {"query": program, "file": str(path),
                                                   "null_input": True, "compact": True,
                                                   "timeout": 1})
            assert len(result.model_dump_json(by_alias=True).encode()) <= BOUND
            jq = subprocess.run([str(ORACLE), "-c", "-n", program, str(path)],
                                capture_output=True, text=True, check=True)
            said = result.structured_content
            assert said.get("output") == jq.stdout.rstrip("\n"), (name, program, seed, said)
            done["ask"] += 1


def test_two_http_clients_over_a_long_session(tmp_path):
    done = {"ask": 0, "pause": 0, "timeout": 0, "cancel": 0, "edit": 0}

    async def both(url):
        async with anyio.create_task_group() as group:
            for i, name in enumerate(("alice", "bob")):
                group.start_soon(_session, url, tmp_path, name, random.Random(i), done)

    with http_server(tmp_path, "--allow-root", str(tmp_path)) as url:
        anyio.run(both, url)
    assert done["ask"] > 60 and all(done.values()), done


def test_one_clients_cancellation_leaves_the_others_query(tmp_path):
    said = {}

    async def both(url):
        (ha, alice), (hb, bob) = _client(url), _client(url)
        async with ha, hb, alice, bob:
            async def long_one():
                result = await bob.call_tool("jq", {"query": "[range(3000000)] | length",
                                                    "null_input": True, "timeout": 60})
                said["bob"] = result.structured_content

            async def given_up():
                await anyio.sleep(0.2)
                with anyio.move_on_after(0.4):
                    await alice.call_tool("jq", {**LOOP, "timeout": 600})
                said["alice"] = (await alice.call_tool("jq", {"query": "1 + 1",
                                                              "input": "null"})
                                 ).structured_content

            async with anyio.create_task_group() as group:
                group.start_soon(long_one)
                group.start_soon(given_up)

    with http_server(tmp_path, "--allow-root", str(tmp_path)) as url:
        anyio.run(both, url)
    assert said["bob"]["output"] == "3000000" and said["alice"]["output"] == "2", said


async def _hang_up(url: str) -> None:
    """A client (protocol 2025-06-18) that asks a query running for ten minutes and hangs
    up after 0.4 s without cancelling it (a killed agent, a dropped network)."""
    headers = {"Authorization": f"Bearer {TOKEN}", "MCP-Protocol-Version": "2025-06-18",
               "Accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient(headers=headers, timeout=10) as http:
        opened = await http.post(url, json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "gone", "version": "1"}}})
        session = {"mcp-session-id": opened.headers["mcp-session-id"]}
        await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                        headers=session)
        with anyio.move_on_after(0.4):
            async with http.stream("POST", url, headers=session, json={
                    "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "jq", "arguments": {**LOOP, "timeout": 600}}}) as heard:
                async for _ in heard.aiter_bytes():
                    pass


async def _ask_one_plus_one(url: str, said: dict) -> None:
    """A new client's '1 + 1': its answer and how long it took, into ``said``."""
    http, client = _client(url)
    async with http, client:
        began = time.monotonic()
        with anyio.move_on_after(20):
            said["answer"] = (await client.call_tool(
                "jq", {"query": "1 + 1", "input": "null"})).structured_content
        said["seconds"] = time.monotonic() - began


def test_a_client_that_hangs_up_frees_its_worker(tmp_path):
    """Four clients hang up mid-call (more than the pool's workers): their queries stop (no
    event store could resume those streams), so the next client answers at once; they ran
    to their ten-minute timeout, holding every worker."""
    said = {}

    async def then_ask(url):
        async with anyio.create_task_group() as group:
            for _ in range(4):
                group.start_soon(_hang_up, url)
        await _ask_one_plus_one(url, said)

    with http_server(tmp_path, "--allow-root", str(tmp_path)) as url:
        anyio.run(then_ask, url)
    assert said.get("answer", {}).get("output") == "2", said
    assert said["seconds"] < 10, said


def test_one_client_cannot_hold_every_worker(tmp_path):
    """A client that keeps more long calls running than the pool has workers (three on two
    cores, two of them its share) runs its share at once and queues the rest: another
    client's '1 + 1' answers at once; without the share it waited for a worker its
    neighbour held."""
    said = {}

    async def hog_then_ask(url):
        hog_http, hog = _client(url)
        async with hog_http, hog, anyio.create_task_group() as hogging:
            for _ in range(4):
                hogging.start_soon(hog.call_tool, "jq", {**LOOP, "timeout": 60})
            await anyio.sleep(1.5)  # its calls reach the workers
            await _ask_one_plus_one(url, said)
            hogging.cancel_scope.cancel()

    with http_server(tmp_path, "--allow-root", str(tmp_path)) as url:
        anyio.run(hog_then_ask, url)
    assert said.get("answer", {}).get("output") == "2", said
    assert said["seconds"] < 10, said
