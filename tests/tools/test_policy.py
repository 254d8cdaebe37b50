"""The agent faces run sandboxed by default: files only under the allowed roots, no shell
commands, no private addresses; their own flags open it up; over-bound answers are not
sent, and what they kept can be queried back through the tools, sandbox or not."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools.test_mcp import converse


def tool(cwd: Path, env: dict, name: str, request: dict, *flags: str) -> dict:
    run = subprocess.run([sys.executable, "-m", "jqmagic", "tool", name, *flags],
                         input=json.dumps(request), capture_output=True, text=True,
                         timeout=60, env=env, cwd=cwd)
    return json.loads(run.stdout)


@pytest.fixture
def closed(clean_env, tmp_path) -> dict[str, str]:
    """An environment that opens nothing (no JQMAGIC_* allowances)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JQMAGIC_")}
    return dict(env, JQMAGIC_PAYLOAD_DIR=str(tmp_path / "payloads"))


@pytest.fixture
def places(tmp_path):
    inside, outside = tmp_path / "work", tmp_path / "elsewhere"
    inside.mkdir()
    outside.mkdir()
    (inside / "a.json").write_text('{"a": 1}')
    (outside / "secret.json").write_text('{"key": "s3cr3t"}')
    return inside, outside


def test_files_outside_the_working_directory_are_refused(closed, places):
    inside, outside = places
    assert tool(inside, closed, "jq", {"query": ".a", "file": "a.json"})["output"] == "1"
    out = tool(inside, closed, "jq", {"query": ".", "file": str(outside / "secret.json")})
    assert out["error_code"] == "SANDBOX_DENIED" and "s3cr3t" not in json.dumps(out)
    assert "allow-root" in out["hint"] and "--" not in out["hint"]  # the agent relays it
    opened = tool(inside, closed, "jq", {"query": ".key", "file": str(outside / "secret.json")},
                  "--allow-root", str(outside))
    assert opened["output"] == '"s3cr3t"'


def test_commands_are_refused_unless_allowed(closed, places):
    inside, _ = places
    request = {"query": ".", "exec": f"touch {inside}/PWNED && echo 1"}
    out = tool(inside, closed, "jq", request)
    assert out["error_code"] == "SANDBOX_DENIED" and not (inside / "PWNED").exists()
    assert tool(inside, closed, "jq", request, "--allow-exec")["output"] == "1"
    assert (inside / "PWNED").exists()


def test_private_addresses_are_refused_unless_allowed(closed, places, web):
    inside, _ = places
    url = web.add("/local.json", '{"x": 1}', "application/json")
    assert tool(inside, closed, "web_fetch", {"url": url})["error_code"] == "SANDBOX_DENIED"
    opened = tool(inside, closed, "web_fetch", {"url": url}, "--allow-private-addresses")
    assert json.loads(opened["content"]) == {"x": 1}
    unsandboxed = tool(inside, closed, "web_fetch", {"url": url}, "--no-sandbox")
    assert json.loads(unsandboxed["content"]) == {"x": 1}


def test_an_over_bound_answer_is_queried_back_through_its_payload(closed, places):
    inside, _ = places
    (inside / "big.json").write_text(json.dumps([{"id": i, "text": "y" * 300}
                                                 for i in range(2_000)]))
    out = tool(inside, closed, "query_json", {"file_path": "big.json", "jq_expression": "."})
    assert out["truncated"] and "output" not in out and len(json.dumps(out)) < 10_000
    again = tool(inside, closed, "jq", {"payload": out["payload_id"],
                                        "query": ".[1999].id"})
    assert again["output"] == "1999"


def test_through_mcp_exec_is_refused_and_annotations_say_read_only(closed, places):
    inside, _ = places
    env = dict(closed, JQMAGIC_ALLOWED_ROOTS=str(inside))
    seen = asyncio.run(converse(env, {"pwn": ("jq", {
        "query": ".", "exec": f"touch {inside}/PWNED-MCP && echo 1"})}))
    is_error, answer = seen["pwn"]
    assert is_error and answer["error_code"] == "SANDBOX_DENIED"
    assert not (inside / "PWNED-MCP").exists()
    jq = next(t for t in seen["tools"] if t.name == "jq")
    assert jq.annotations.read_only_hint is True and jq.annotations.destructive_hint is False


@pytest.fixture
def host(monkeypatch, clean_env, tmp_path):
    """The Python API as a host gets it: no face, no JQMAGIC_* openings, the sandbox closed."""
    from jqmagic.tools import policy

    for name in ("JQMAGIC_NO_SANDBOX", "JQMAGIC_ALLOWED_ROOTS", "JQMAGIC_EXEC_ALLOWED",
                 "JQMAGIC_PRIVATE_ADDRESSES", "JQMAGIC_IGNORE_ROBOTS_TXT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(policy, "HOST_DEFAULT", policy.Policy())
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    return tmp_path


def test_the_python_api_is_sandboxed_unless_the_call_opens_it(host, places, web, monkeypatch):
    import jqmagic.tools as tools

    inside, outside = places
    monkeypatch.chdir(inside)  # the working directory: the one root
    secret = str(outside / "secret.json")
    for request in ({"file_path": "/etc/passwd"}, {"file_path": secret}):
        out = tools.call("read_file", request)
        assert out["error_code"] == "SANDBOX_DENIED" and "s3cr3t" not in json.dumps(out)
    assert tools.call("read_file", {"file_path": secret}, allow_root=[str(outside)])["success"]
    assert tools.call("read_file", {"file_path": "a.json"})["success"]
    request = {"query": ".", "exec": f"touch {inside}/PWNED && echo 1"}
    assert tools.call("jq", request)["error_code"] == "SANDBOX_DENIED"
    assert not (inside / "PWNED").exists()
    assert tools.call("jq", request, allow_exec=True)["output"] == "1"
    url = web.add("/local.json", '{"x": 1}', "application/json")
    assert tools.call("web_fetch", {"url": url})["error_code"] == "SANDBOX_DENIED"
    assert json.loads(tools.call("web_fetch", {"url": url}, no_sandbox=True)["content"]) == \
        {"x": 1}
    with pytest.raises(TypeError, match="allow_exec"):
        tools.call("jq", request, allow_exe=True)


def test_definitions_offer_exec_only_when_asked(host):
    import jqmagic.tools as tools

    def offered(**openings) -> bool:
        jq = tools.definitions("mcp", names=["jq"], **openings)[0]
        return "exec" in jq["inputSchema"]["properties"] or "exec" in jq["description"]

    assert not offered() and offered(allow_exec=True) and offered(no_sandbox=True)
    assert tools.definitions("mcp", names=["jq"])[0]["annotations"]["readOnlyHint"]


def test_a_one_line_host_cannot_read_etc_passwd(closed, tmp_path):
    run = subprocess.run([sys.executable, "-c", "import jqmagic.tools as t, json; print("
                          "json.dumps(t.call('read_file', {'file_path': '/etc/passwd'})))"],
                         capture_output=True, text=True, timeout=60, env=closed, cwd=tmp_path)
    out = json.loads(run.stdout)
    assert out["error_code"] == "SANDBOX_DENIED" and "root:" not in run.stdout
