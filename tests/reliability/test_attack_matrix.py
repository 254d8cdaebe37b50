"""Issue 16's attacks against every face they reach, as an attacker drives them: the core in
this process, the command line and the tool protocol as subprocesses, and the MCP server
through the official SDK's client. Each ends in a coded error or a bounded answer, prints no
secret and reaches no refused address; the figures (attacks x faces, the largest text a face
printed) are written to build/attack-matrix.md.

The subprocesses run with a ``sitecustomize`` that refuses any connection to an address
other than 127.0.0.1, the socket guard of the SSRF cases.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from jqmagic import JqMagicError, fetch, query
from jqmagic.core import payloads
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
from tests.web_servers import WebServer

SECRET = "s3cr3t-v4lue"
ANSWER_BOUND = 50_000 * 4 + 4_000  # the tools' bound (50k tokens at 4 characters) + framing
GUARD = '''
import socket
_connect = socket.socket.connect
def _guarded(sock, address):
    if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "::1"):
        raise OSError(f"socket guard: refused {address!r}")
    return _connect(sock, address)
socket.socket.connect = _guarded
'''


@dataclass
class World:
    """What the attacks aim at: an allowed root, a secret outside it, a local server."""

    root: Path
    outside: Path
    web: WebServer
    env: dict[str, str]

    def url(self, spelling: str) -> str:
        return spelling.format(port=self.web.port)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    root, outside, site = base / "root", base / "outside", base / "site"
    for folder in (root, outside, site):
        folder.mkdir()
    (outside / "secret.json").write_text(json.dumps({"token": SECRET}))
    (outside / "secret.jq").write_text(f'def leak: "{SECRET}";')
    (root / "data.json").write_text('{"a": 1}')
    (base / ".jq").write_text(f'def homeleak: "{SECRET}";')  # ~/.jq of every face
    payloads.store(json.dumps({"token": SECRET}), directory=base / "payloads")  # another
    (site / "sitecustomize.py").write_text(GUARD)                               # session's
    web = WebServer().start()
    web.add("/secret.json", json.dumps({"token": SECRET}), "application/json")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(base), "PYTHONPATH": str(site),
           "JQMAGIC_SANDBOX": "1", "JQMAGIC_ALLOWED_ROOTS": str(root),
           "JQMAGIC_PAYLOAD_DIR": str(base / "payloads"), "NO_PROXY": "127.0.0.1",
           "SECRET_TOKEN": SECRET, "BRAVE_API_KEY": SECRET}
    yield World(root, outside, web, env)
    web.stop()


# ---------------------------------------------------------------- the attacks, per face

SSRF = "http://127.0.0.1:{port}\\@8.8.8.8/secret.json"
SIX_TO_FOUR = "http://[2002:7f00:1::]:{port}/secret.json"  # 127.0.0.1 inside an IPv6 one


def attacks(w: World) -> dict[str, dict[str, tuple]]:
    """attack -> face -> how that face is asked: ("core", callable), ("cli", argv),
    ("tool", name, arguments) or ("mcp", name, arguments)."""
    secret_file = str(w.outside / "secret.json")
    data = str(w.root / "data.json")
    module = f'import "secret" as s {{search: "{w.outside}"}}; s::leak'
    hidden = f'import # a comment\n "secret" as s {{search: "{w.outside}"}}; s::leak'
    formatted = f'include @text "secret" {{search: "{w.outside}"}}; leak'
    stored = str(w.root.parent / "payloads" / "*" / "payload.json")
    return {
        "read a file outside the roots": {
            "core": ("core", lambda: query(".", file=secret_file)),
            "cli": ("cli", ["query", ".", secret_file]),
            "tool": ("tool", "jq", {"query": ".", "file": secret_file}),
            "mcp": ("mcp", "query_json", {"file_path": secret_file, "jq_expression": "."}),
        },
        "secrets from $ENV and env": {
            "core": ("core", lambda: query("[$ENV.SECRET_TOKEN, env.BRAVE_API_KEY]",
                                           null_input=True)),
            "cli": ("cli", ["query", "-n", "[$ENV.SECRET_TOKEN, env.BRAVE_API_KEY]"]),
            "tool": ("tool", "jq", {"query": "[$ENV.SECRET_TOKEN, env.BRAVE_API_KEY]",
                                    "input": "null"}),
            "mcp": ("mcp", "jq", {"query": "$ENV | tostring", "input": "null"}),
        },
        "a jq module from outside the roots": {
            "core": ("core", lambda: query(module, null_input=True)),
            "cli": ("cli", ["query", "-n", module]),
            "tool": ("tool", "jq", {"query": module, "input": "null"}),
            "mcp": ("mcp", "jq", {"query": module, "input": "null"}),
        },
        "a 10 MB error message": {
            "core": ("core", lambda: query('error("x" * 10000000)', null_input=True)),
            "cli": ("cli", ["query", "-n", 'error("x" * 10000000)']),
            "tool": ("tool", "jq", {"query": '"x" * 10000000 | halt_error', "input": "1"}),
            "mcp": ("mcp", "jq", {"query": 'error("x" * 10000000)', "input": "null"}),
        },
        "a thousand 100 kB debug and stderr messages": {
            "core": ("core", lambda: query('range(1000) | ("y" * 100000 | debug, stderr) '
                                           '| empty', null_input=True)),
            "cli": ("cli", ["query", "-n", 'range(1000) | "y" * 100000 | debug | empty']),
            "tool": ("tool", "jq", {"query": 'range(1000) | "y" * 100000 | stderr | empty',
                                    "input": "null"}),
            "mcp": ("mcp", "jq", {"query": 'range(1000) | "y" * 100000 | debug | empty',
                                  "input": "null"}),
        },
        "a result far over the bound": {
            "core": ("core", lambda: query('[range(200000) | "item \\(.)"]', null_input=True)),
            "cli": ("cli", ["query", "-n", '[range(200000) | "item \\(.)"]']),
            "tool": ("tool", "jq", {"query": '[range(200000) | "item \\(.)"]',
                                    "input": "null"}),
            "mcp": ("mcp", "query_json", {"file_path": data,
                                          "jq_expression": '[range(200000) | "i\\(.)"]'}),
        },
        "SSRF by parser confusion": {
            "core": ("core", lambda: fetch(w.url(SSRF))),
            "cli": ("cli", ["fetch", w.url(SSRF), "--sandbox"]),
            "tool": ("tool", "web_fetch", {"url": w.url(SSRF)}),
            "mcp": ("mcp", "web_fetch", {"url": w.url(SSRF)}),
        },
        "a shell command through the jq tool": {
            "core": ("core", lambda: query(".", exec=f"cat {secret_file}")),
            "cli": ("cli", ["query", ".", "--exec", f"cat {secret_file}"]),
            "tool": ("tool", "jq", {"query": ".", "exec": f"cat {secret_file}"}),
            "mcp": ("mcp", "jq", {"query": ".", "exec": f"cat {secret_file}"}),
        },
        "a jq module behind a comment": {
            "core": ("core", lambda: query(hidden, null_input=True)),
            "cli": ("cli", ["query", "-n", hidden]),
            "tool": ("tool", "jq", {"query": hidden, "input": "null"}),
            "mcp": ("mcp", "jq", {"query": hidden, "input": "null"}),
        },
        "a jq module by an @format path": {
            "core": ("core", lambda: query(formatted, null_input=True)),
            "cli": ("cli", ["query", "-n", formatted]),
            "tool": ("tool", "jq", {"query": formatted, "input": "null"}),
            "mcp": ("mcp", "jq", {"query": formatted, "input": "null"}),
        },
        "functions from ~/.jq": {
            "core": ("core", lambda: query("homeleak", null_input=True)),
            "cli": ("cli", ["query", "-n", "homeleak"]),
            "tool": ("tool", "jq", {"query": "homeleak", "input": "null"}),
            "mcp": ("mcp", "jq", {"query": "homeleak", "input": "null"}),
        },
        "a file option outside the roots": {  # only the command line has them
            "cli": ("cli", ["query", "-n", "--rawfile", "x", secret_file, "$x"]),
        },
        "a glob over other sessions' payloads": {
            "core": ("core", lambda: query(".", file=stored)),
            "cli": ("cli", ["query", ".", stored]),
            "tool": ("tool", "jq", {"query": ".", "file": stored}),
            "mcp": ("mcp", "query_json", {"file_path": stored, "jq_expression": "."}),
        },
        "a 6to4 address of the local server": {
            "core": ("core", lambda: fetch(w.url(SIX_TO_FOUR))),
            "cli": ("cli", ["fetch", w.url(SIX_TO_FOUR), "--sandbox"]),
            "tool": ("tool", "web_fetch", {"url": w.url(SIX_TO_FOUR)}),
            "mcp": ("mcp", "web_fetch", {"url": w.url(SIX_TO_FOUR)}),
        },
        "a merge patch read from outside the roots": {  # the core takes values, not files
            "cli": ("cli", ["patch", data, "--merge-patch", secret_file]),
            "tool": ("tool", "json_patch", {"filePath": secret_file, "operation": "set",
                                            "path": "/token", "value": '"x"'}),
            "mcp": ("mcp", "json_patch", {"filePath": secret_file, "operation": "set",
                                          "path": "/token", "value": '"x"'}),
        },
    }


# ---------------------------------------------------------------- the faces


def _core(call) -> tuple[str, str]:
    try:
        result = call()
    except JqMagicError as exc:
        return exc.code, json.dumps(exc.to_dict("agent"))
    text = getattr(result, "text", None)
    if not isinstance(text, str):
        text = json.dumps(result.to_dict())
    said = [getattr(result, "message", ""), *getattr(result, "messages", [])]
    return "OK", "\n".join([text, *said])  # what a notebook or a script would show


def _cli(w: World, argv: list[str]) -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-m", "jqmagic", *argv], capture_output=True,
                         text=True, timeout=120, env=w.env, stdin=subprocess.DEVNULL)
    text = run.stdout + run.stderr
    assert "Traceback" not in text, text[-2000:]
    return ("OK" if run.returncode == 0 else f"exit {run.returncode}"), text


def _tool(w: World, name: str, arguments: dict) -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-m", "jqmagic", "tool", name], capture_output=True,
                         text=True, timeout=120, env=w.env, input=json.dumps(arguments))
    assert "Traceback" not in run.stdout + run.stderr, run.stderr[-2000:]
    answer = json.loads(run.stdout)
    return ("OK" if answer.get("success") else answer.get("error_code")), run.stdout


async def _mcp_session(w: World, todo: dict[str, tuple[str, dict]]) -> dict[str, tuple]:
    server = StdioServerParameters(command=sys.executable, args=["-m", "jqmagic", "mcp"],
                                   env=w.env)
    seen = {}
    async with Client(server, read_timeout_seconds=120) as client:
        for label, (name, arguments) in todo.items():
            result = await client.call_tool(name, arguments)
            text = "".join(getattr(part, "text", "") for part in result.content)
            answer = json.loads(text)
            seen[label] = ("OK" if answer.get("success") else answer.get("error_code"), text)
        seen["alive"] = await client.call_tool("jq", {"query": ".a", "input": '{"a": 7}'})
    return seen


@pytest.fixture(scope="module")
def mcp_answers(world):
    todo = {attack: ask[1:] for attack, faces in attacks(world).items()
            for face, ask in faces.items() if face == "mcp"}
    return asyncio.run(_mcp_session(world, todo))


@pytest.fixture(scope="module")
def matrix():
    rows: list[tuple[str, str, str, int]] = []
    yield rows
    out = Path(__file__).resolve().parents[2] / "build" / "attack-matrix.md"
    out.parent.mkdir(exist_ok=True)
    lines = ["| attack | face | outcome | characters printed |", "|---|---|---|---:|"]
    lines += [f"| {a} | {f} | {o} | {n:,} |" for a, f, o, n in rows]
    largest = max((n for *_, n in rows), default=0)
    lines.append(f"\n{len(rows)} attack x face cases; the largest text any face printed: "
                 f"{largest:,} characters.")
    out.write_text("\n".join(lines) + "\n")


CASES = [(attack, face) for attack, faces in
         attacks(World(Path("/r"), Path("/o"), SimpleNamespace(port=0), {})).items()
         for face in faces]


@pytest.mark.parametrize(("attack", "face"), CASES)
def test_attack(world, mcp_answers, matrix, monkeypatch, attack, face):
    ask = attacks(world)[attack][face]
    if face == "core":
        monkeypatch.setenv("SECRET_TOKEN", SECRET)
        monkeypatch.setattr(settings, "sandbox", True)
        monkeypatch.setattr(settings, "allowed_roots", [str(world.root)])
        monkeypatch.setattr(settings, "private_addresses", False)
        monkeypatch.setenv("HOME", str(world.root.parent))
        monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(world.root.parent / "payloads"))
        shared_worker().stop()  # a sandboxed worker: its environment keeps no secrets
        try:
            outcome, text = _core(ask[1])
        finally:
            shared_worker().stop()
    elif face == "cli":
        outcome, text = _cli(world, ask[1])
    elif face == "tool":
        outcome, text = _tool(world, *ask[1:])
    else:
        outcome, text = mcp_answers[attack]
    matrix.append((attack, face, outcome, len(text)))
    assert SECRET not in text, f"{attack} via {face} printed the secret"
    assert world.web.seen == [], f"{attack} via {face} reached the local server"
    if attack == "a result far over the bound" and face in ("core", "cli"):
        # Bounds belong to the faces: the Python API and a pipe get every result.
        assert outcome == "OK" and '"item 199999"' in text
        return
    assert len(text) <= ANSWER_BOUND, f"{attack} via {face} printed {len(text):,} characters"
    if attack == "a result far over the bound":
        assert "payload" in text  # the whole result kept, and said where


def test_the_mcp_server_lives_on(mcp_answers):
    alive = mcp_answers["alive"]
    assert not alive.is_error and json.loads(alive.content[0].text)["output"] == "7"
