"""The agent faces survive what used to kill them: through a real MCP client session with
`jqmagic mcp`, and through `jqmagic tool`, a memory blow-up, a runaway program and a file
bigger than memory each end in a coded error, and the server answers the next call.

The server runs under a 1.5 GiB address-space limit (as a host with `ulimit -v` would run it),
so the worker's cap is reached in seconds, not after eating the machine.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

LIMIT_KB = 1536 * 1024  # ulimit -v counts kilobytes: 1.5 GiB


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("survive")
    mid = folder / "mid.json"  # 1.4 MB: printed once per element, it is 56 GB of text
    mid.write_text(json.dumps([{"k": i, "s": "x" * 20} for i in range(40_000)]))
    huge = folder / "huge.json"  # 70 MB that the program makes four times over, nested
    huge.write_text("[" + ",".join(['{"a": [1, 2, 3], "b": "yyyyyyyy"}'] * 2_000_000) + "]")
    return folder, mid, huge


def calls(mid, huge) -> list[tuple[str, dict, str | None]]:
    """(tool, arguments, the error code it must end in; None: it must answer)."""
    return [
        ("jq", {"query": "[.[] as $x | .]", "file": str(mid)}, "TOO_LARGE"),
        ("jq", {"query": "last(range(1e18))", "input": "null", "timeout": 2}, "TIMEOUT"),
        ("jq", {"query": "[.[] | [., ., ., .]] | length", "file": str(huge),
                "timeout": 120}, "TOO_LARGE"),
        ("jq", {"query": "length", "file": str(mid)}, None),
    ]


def _environment(folder) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": str(folder), "JQMAGIC_ALLOWED_ROOTS": str(folder),
            "JQMAGIC_PAYLOAD_DIR": str(folder / "payloads")}


def _limited(*command: str) -> list[str]:
    return ["sh", "-c", f'ulimit -v {LIMIT_KB}; exec "$@"', "sh", *command]


async def _converse(folder, todo) -> list[dict]:
    command = _limited(sys.executable, "-m", "jqmagic", "mcp")
    server = StdioServerParameters(command=command[0], args=command[1:],
                                   env=_environment(folder))
    answers = []
    async with Client(server, read_timeout_seconds=300) as client:
        for name, arguments, _ in todo:
            result = await client.call_tool(name, arguments)
            answers.append(json.loads(result.content[0].text))
    return answers


def _check(answers: list[dict], todo) -> None:
    for answer, (_, arguments, code) in zip(answers, todo, strict=True):
        if code is None:
            assert answer["success"] is True and answer["output"] == "40000", answer
        else:
            assert answer["success"] is False and answer["error_code"] == code, \
                (arguments["query"], answer)


def test_the_mcp_server_lives_through_blow_ups(files):
    folder, mid, huge = files
    todo = calls(mid, huge)
    _check(asyncio.run(_converse(folder, todo)), todo)


def test_the_tool_command_answers_blow_ups_with_codes(files):
    folder, mid, huge = files
    todo = calls(mid, huge)
    answers = []
    for name, arguments, _ in todo:
        run = subprocess.run(_limited(sys.executable, "-m", "jqmagic", "tool", name),
                             input=json.dumps(arguments), capture_output=True, text=True,
                             timeout=300, env=_environment(folder))
        assert "Traceback" not in run.stderr, run.stderr[-2000:]
        answers.append(json.loads(run.stdout))
    _check(answers, todo)
