"""``jqmagic mcp --http`` (issue 40): the SDK's client over streamable HTTP with the
bearer token gets answers within the bound; without it, 401; it listens on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from jqmagic.core.settings import settings

TOKEN = "test-token-0123456789"


@contextlib.contextmanager
def http_server(cwd: Path, *flags: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``jqmagic mcp --http`` (with ``flags``) on a free port of 127.0.0.1, run in ``cwd``
    with :data:`TOKEN`; yields its URL once it listens."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "jqmagic", "mcp", "--http", "--port", str(port), *flags],
        cwd=cwd, stderr=subprocess.PIPE, text=True,
        env={"JQMAGIC_MCP_TOKEN": TOKEN, "JQMAGIC_PAYLOAD_DIR": str(cwd / "p"),
             "PATH": "/usr/bin:/bin", "NO_PROXY": "127.0.0.1", **(env or {})})
    try:
        said = server.stderr.readline()
        assert f"http://127.0.0.1:{port}/mcp" in said and TOKEN not in said, said
        for _ in range(100):  # until it listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            anyio.run(anyio.sleep, 0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.communicate(timeout=10)


@pytest.fixture
def served(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"items": list(range(50_000))}))
    with http_server(tmp_path) as url:
        yield url


def test_without_the_token_it_is_401(served):
    request = urllib.request.Request(served, data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    refused.value.close()
    assert refused.value.code == 401
    assert refused.value.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = urllib.request.Request(served, data=b"{}", method="POST", headers={
        "Content-Type": "application/json", "Authorization": "Bearer nope"})
    with pytest.raises(urllib.error.HTTPError) as also:
        urllib.request.urlopen(wrong, timeout=10)
    also.value.close()
    assert also.value.code == 401


def test_the_sdk_client_with_the_token_gets_bounded_answers(served):
    async def converse():
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        async with http, Client(streamable_http_client(served, http_client=http)) as client:
            small = await client.call_tool("jq", {"query": ".items | length",
                                                  "file": "a.json"})
            big = await client.call_tool("jq", {"query": ".", "file": "a.json"})
            return small, big

    small, big = anyio.run(converse)
    assert small.structured_content["output"] == "50000"
    assert len(big.model_dump_json(by_alias=True).encode()) <= settings.max_message_bytes
