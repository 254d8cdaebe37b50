"""An MCP client that offers roots and fails to list them (an error answer, a malformed
one, no answer) opens no folder in that call: its roots were to narrow the operator's wall,
so it fails closed (it got the whole wall, for the rest of the session, as if it had
declared none; with no answer the call waited for ever). The next call asks again; an
inline input still answers; the refusal's hint says why."""

from __future__ import annotations

import json

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, types  # noqa: E402

from jqmagic.tools import mcpclients  # noqa: E402
from jqmagic.tools.mcp import build_server  # noqa: E402

pytestmark = pytest.mark.filterwarnings(
    "ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # roots: before 2026-07-28


@pytest.fixture
def wall(tmp_path, monkeypatch):
    """The operator's root (the working directory) holding ``a/f.json`` and ``top.json``."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f.json").write_text('{"in": "a"}')
    (tmp_path / "top.json").write_text('{"in": "top"}')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(mcpclients, "ROOTS_SECONDS", 0.5, raising=False)
    return tmp_path


def _asked(wall, answers):
    """Per call (top.json, a/f.json, inline, top.json again), (is_error, answer); the
    client's roots/list answered by ``answers``, one a call."""
    calls = iter(answers)

    async def roots(ctx):
        return await next(calls)(wall)

    async def converse():
        seen = []
        async with Client(build_server(), read_timeout_seconds=30, mode="legacy",
                          list_roots_callback=roots) as client:
            for arguments in ({"file": "top.json"}, {"file": "a/f.json"},
                              {"input": '{"in": "inline"}'}, {"file": "top.json"}):
                await client.send_roots_list_changed()  # each call asks its roots again
                await anyio.sleep(0.05)
                result = await client.call_tool("jq", {"query": ".in", **arguments})
                seen.append((result.is_error, json.loads(result.content[0].text)))
        return seen

    return anyio.run(converse)


async def _error(wall):
    return types.ErrorData(code=-32603, message="no roots today")


async def _silent(wall):
    await anyio.sleep(5)
    return types.ListRootsResult(roots=[])


async def _only_a(wall):
    return types.ListRootsResult(roots=[types.Root(uri=(wall / "a").as_uri())])


@pytest.mark.parametrize("failing", [_error, _silent])
def test_failed_roots_open_no_folder_and_are_asked_again(wall, failing):
    seen = _asked(wall, [failing, failing, failing, _only_a])
    (e1, top), (e2, inner), (e3, inline), (e4, again) = seen
    assert e1 and e2 and top["error_code"] == inner["error_code"] == "SANDBOX_DENIED"
    assert "could not be listed" in top["hint"] and "asks for them again" in top["hint"]
    assert not e3 and inline["output"] == '"inline"'
    assert e4 and again["error_code"] == "SANDBOX_DENIED"  # its roots now: a only
    assert "could not be listed" not in again["hint"]


def test_roots_that_list_narrow_as_before(wall):
    seen = _asked(wall, [_only_a] * 4)
    assert [e for e, _ in seen] == [True, False, False, True]
    assert seen[1][1]["output"] == '"a"'
