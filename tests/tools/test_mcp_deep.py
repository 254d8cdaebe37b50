"""Issue 40: a request nested 100,000 deep gets a JSON-RPC error for its id (it used to
get one for no id, and the client waited), and the server goes on answering."""

from __future__ import annotations

import json
import subprocess
import sys

from jqmagic.tools.mcp import request_id


def test_a_deep_request_is_answered_for_its_id(tmp_path):
    server = subprocess.Popen([sys.executable, "-m", "jqmagic", "mcp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=tmp_path)

    def send(line: str) -> None:
        server.stdin.write(line + "\n")
        server.stdin.flush()

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}))
        assert json.loads(server.stdout.readline())["id"] == 1
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        deep = "[" * 100_000 + "]" * 100_000
        send('{"jsonrpc": "2.0", "id": "deep-7", "method": "tools/call", "params": '
             '{"name": "jq", "arguments": {"query": ".", "input": "1", "args": {"x": '
             + deep + "}}}}")
        send(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        answers = [json.loads(server.stdout.readline()) for _ in range(2)]
    finally:
        server.kill()
        server.communicate()
    assert answers[0]["id"] == "deep-7" and answers[0]["error"]["code"] == -32600
    assert answers[1] == {"jsonrpc": "2.0", "id": 9, "result": {}}


def test_the_id_is_read_at_the_top_level_only():
    assert request_id('{"params": {"id": 5}, "id": 12, "x": [[[]]]}') == 12
    assert request_id('{"a": "\\"id\\": 3", "id": "x\\"y"}') == 'x"y'
    assert request_id('{"params": [{"id": 1}]}') is None
