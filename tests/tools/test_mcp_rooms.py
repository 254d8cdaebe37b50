"""Issue 54: each MCP client in its own room. A client's roots narrow the operator's, never
widen them (stdio and HTTP); two HTTP sessions keep their own roots and payloads; under the
stateless revision (2026-07-28) nothing is kept and no client sees another's payload ids;
Host and Origin are checked; ``POST /mcp`` answers without a redirect."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from jqmagic.core.sandbox import NO_FOLDER, narrowed
from tests.tools.test_mcp_http import TOKEN, http_server

pytestmark = pytest.mark.filterwarnings(
    "ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # roots, logging: before 2026

PROMPT = types.PromptReference(type="ref/prompt", name="explore_file")
PAYLOADS = types.ResourceTemplateReference(type="ref/resource",
                                           uri="jqmagic://payload/{payload_id}")


@pytest.fixture
def site(tmp_path) -> Path:
    """``wall`` (the operator's root) holding ``a`` and ``b``; ``outside`` beside it."""
    for name in ("wall/a", "wall/b", "outside"):
        (tmp_path / name).mkdir(parents=True)
    for name in ("wall/a", "wall/b", "outside"):
        (tmp_path / name / "f.json").write_text(json.dumps({"in": name}))
    (tmp_path / "wall" / "top.json").write_text('{"in": "wall"}')
    return tmp_path


def roots_of(*folders: str):
    async def answer(ctx):
        return types.ListRootsResult(roots=[types.Root(uri=f) for f in folders])

    return answer


def test_roots_narrow_the_operators_never_widen(tmp_path):
    wall = [str(tmp_path / "w"), str(tmp_path / "v")]
    kept, out = narrowed(["/", str(tmp_path / "w" / "sub"), "/etc", str(tmp_path)], wall)
    assert kept == [*wall, str(tmp_path / "w" / "sub")] and out == ["/etc"]
    assert narrowed(["/etc"], wall) == ([], ["/etc"])
    odd = ["/x\0y", "/" + "a" * 100_000]  # no folder can be named so: refused, no crash
    assert narrowed(odd, wall) == ([], odd)


async def _tries(client: Client, site: Path) -> dict:
    """What a client reads and patches, inside and outside the wall."""
    said = {}
    for name, path in (("top", "wall/top.json"), ("a", "wall/a/f.json"),
                       ("b", "wall/b/f.json"), ("outside", "outside/f.json")):
        answer = await client.call_tool("read_file", {"file_path": str(site / path)})
        said[name] = answer.structured_content
    patch = await client.call_tool("json_patch", {
        "filePath": str(site / "outside" / "f.json"), "operation": "set", "path": "/in",
        "value": '"patched"'})
    said["patch"] = patch.structured_content
    said["tab"] = (await client.complete(PROMPT, {"name": "file", "value": "/etc/pas"})
                   ).completion.values
    return said


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # 2025-11-25; 2026-07-28 (round trips)
def test_a_client_rooted_at_slash_reads_and_patches_nothing_outside_over_stdio(site, mode):
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "jqmagic", "mcp", "--allow-root",
                                      str(site / "wall")],
        cwd=str(site), env={"JQMAGIC_PAYLOAD_DIR": str(site / "p")})

    async def converse():
        async with Client(server, read_timeout_seconds=60, mode=mode,
                          list_roots_callback=roots_of("file:///")) as client:
            return await _tries(client, site)

    said = anyio.run(converse)
    assert said["top"]["success"] and said["a"]["success"]  # "/" stands for the wall
    assert said["outside"]["error_code"] == said["patch"]["error_code"] == "SANDBOX_DENIED"
    assert json.loads((site / "outside" / "f.json").read_text()) == {"in": "outside"}
    assert said["tab"] == []


def test_a_root_outside_is_refused_by_name(site):
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "jqmagic", "mcp"], cwd=str(site / "wall"),
        env={"JQMAGIC_PAYLOAD_DIR": str(site / "p")})
    heard: list = []

    async def log(params):
        heard.append(params)

    async def converse():
        async with Client(server, read_timeout_seconds=60, mode="legacy",
                          logging_callback=log,
                          list_roots_callback=roots_of((site / "outside").as_uri())) as client:
            return await _tries(client, site)

    said = anyio.run(converse)
    assert not said["top"]["success"] and not said["outside"]["success"]  # no folder left
    named = str(site / "outside")
    assert named in said["top"]["hint"] and NO_FOLDER not in said["top"]["hint"]
    warned = [h.data for h in heard if h.level == "warning" and "refused_roots" in h.data]
    assert warned and warned[0]["refused_roots"] == [named]


async def _session(url: str, roots: list[str], site: Path, when_changed=None) -> dict:
    """One HTTP session (2025-11-25) rooted at ``roots``: what it reads, keeps and sees."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
    said: dict = {}
    async with http, Client(streamable_http_client(url, http_client=http), mode="legacy",
                            read_timeout_seconds=60,
                            list_roots_callback=roots_of(*roots)) as client:
        said.update(await _tries(client, site))
        big = await client.call_tool("jq", {"query": "[range(200000)]", "null_input": True,
                                            "compact": True})
        said["made"] = big.structured_content["payload_id"]
        said["listed"] = [str(r.uri) for r in (await client.list_resources()).resources]
        said["ids"] = (await client.complete(PAYLOADS, {"name": "payload_id", "value": ""})
                       ).completion.values
        if when_changed is not None:
            await when_changed(client, said)
    return said


def test_two_http_sessions_each_in_their_own_room(site):
    async def both(url):
        first = await _session(url, [(site / "wall" / "a").as_uri()], site)
        second = await _session(url, [(site / "wall" / "b").as_uri()], site)
        slash = await _session(url, ["file:///"], site)
        return first, second, slash

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        first, second, slash = anyio.run(both, url)
    assert first["a"]["success"] and not first["b"]["success"]
    assert second["b"]["success"] and not second["a"]["success"]
    assert not first["top"]["success"] and not second["top"]["success"]
    assert slash["top"]["success"] and not slash["outside"]["success"]
    for said in (first, second, slash):
        assert said["patch"]["error_code"] == "SANDBOX_DENIED" and said["tab"] == []
        assert said["listed"] == [f"jqmagic://payload/{said['made']}"]
        assert said["ids"] == [said["made"]]
    assert json.loads((site / "outside" / "f.json").read_text()) == {"in": "outside"}


def test_a_session_reads_its_own_payloads_only(site):
    """Another session's payload id is refused as an unknown one is (the refusal says
    nothing of whether it exists), by the resource and by the jq tool's payload."""
    async def open_session(url, stack):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        await stack.enter_async_context(http)
        return await stack.enter_async_context(Client(
            streamable_http_client(url, http_client=http), mode="legacy",
            read_timeout_seconds=60))

    async def read(client, pid):
        try:
            return (await client.read_resource(f"jqmagic://payload/{pid}")).contents[0].text
        except MCPError as refused:
            return refused.error.message

    async def converse(url):
        from contextlib import AsyncExitStack

        async with AsyncExitStack() as stack:
            first, second = await open_session(url, stack), await open_session(url, stack)
            made = (await first.call_tool("jq", {"query": "[range(200000)]", "compact": True,
                                                 "null_input": True})).structured_content
            pid = made["payload_id"]
            asked = {"payload": pid, "query": "length"}
            return {"own": await read(first, pid),
                    "own_jq": (await first.call_tool("jq", asked)).structured_content,
                    "other": await read(second, pid),
                    "other_jq": (await second.call_tool("jq", asked)).structured_content,
                    "unknown": await read(second, "0" * 32), "pid": pid}

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        said = anyio.run(converse, url)
    assert said["own"].startswith("[0,1,2") and said["own_jq"]["output"] == "200000"
    assert said["other_jq"]["error_code"] == "NOT_FOUND"
    assert "kept for this session" in said["other"]
    assert said["other"].replace(said["pid"], "ID") == \
        said["unknown"].replace("0" * 32, "ID")  # an unknown id is told alike


def test_roots_list_changed_asks_again_for_that_session_only(site):
    roots = [(site / "wall" / "a").as_uri()]

    async def answer(ctx):
        return types.ListRootsResult(roots=[types.Root(uri=f) for f in roots])

    async def converse(url):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http), mode="legacy",
                                list_roots_callback=answer) as client:
            read = {"file_path": str(site / "wall" / "b" / "f.json")}
            before = (await client.call_tool("read_file", read)).structured_content
            roots[:] = [(site / "wall" / "b").as_uri()]
            await client.send_roots_list_changed()
            await anyio.sleep(0.2)
            after = (await client.call_tool("read_file", read)).structured_content
        return before, after

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        before, after = anyio.run(converse, url)
    assert before["error_code"] == "SANDBOX_DENIED" and after["success"]


def test_the_stateless_revision_keeps_nothing_and_lists_no_payload(site):
    async def converse(url):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http),
                                read_timeout_seconds=60) as client:
            big = await client.call_tool("jq", {"query": "[range(200000)]", "null_input": True,
                                                "compact": True})
            pid = big.structured_content["payload_id"]
            listed = (await client.list_resources()).resources
            ids = (await client.complete(PAYLOADS, {"name": "payload_id", "value": ""}))
            part = await client.read_resource(f"jqmagic://payload/{pid}")
            top = await client.call_tool("read_file", {
                "file_path": str(site / "wall" / "top.json")})
            version = client.protocol_version
        return pid, listed, ids.completion.values, part, top.structured_content, version

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        pid, listed, ids, part, top, version = anyio.run(converse, url)
    assert listed == [] and ids == []  # a payload is a handle: read by its id only
    assert len(pid) == 32 and part.contents[0].text.startswith("[0,1,2")
    assert top["success"]  # the operator's wall is the client's room
    assert version == "2026-07-28"


def _post(url: str, **headers: str) -> tuple[int, str]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read(2000).decode()
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, refused.read(2000).decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_host_and_origin_are_checked_and_mcp_answers_directly(site):
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    urllib.request.install_opener(urllib.request.build_opener(NoRedirect))
    try:
        with http_server(site, "--allow-origin", "https://app.example") as url:
            port = url.split(":")[2].split("/")[0]
            evil_origin = _post(url, **bearer, Origin="http://evil.example")
            evil_host = _post(url, **bearer, Host="evil.example")
            evil_port = _post(url, **bearer, Host="localhost:1")
            allowed = _post(url, **bearer, Origin="https://app.example")
            local = _post(url, **bearer, Origin=f"http://localhost:{port}")
            direct = _post(url, **bearer)
            slashed = _post(url + "/", **bearer)
            missing = _post(url)
            wrong = _post(url, Authorization="Bearer nope")
    finally:
        urllib.request.install_opener(None)
    assert evil_origin[0] == 403 and evil_host[0] == evil_port[0] == 421
    assert allowed[0] == local[0] == direct[0] == slashed[0] == 200
    assert '"serverInfo"' in direct[1]
    assert missing[0] == wrong[0] == 401
    assert "missing" in json.loads(missing[1])["error"]["message"]
    assert "not this server's" in json.loads(wrong[1])["error"]["message"]


def test_completion_refuses_what_it_does_not_know_and_input_takes_a_value(site):
    server = StdioServerParameters(command=sys.executable, args=["-m", "jqmagic", "mcp"],
                                   cwd=str(site / "wall"),
                                   env={"JQMAGIC_PAYLOAD_DIR": str(site / "p")})

    async def converse():
        errors = []
        async with Client(server, read_timeout_seconds=60) as client:
            for ref, argument in (
                    (types.PromptReference(type="ref/prompt", name="nope"), "file"),
                    (PROMPT, "nope"),
                    (types.ResourceTemplateReference(type="ref/resource", uri="x://{y}"), "y")):
                with pytest.raises(MCPError) as caught:
                    await client.complete(ref, {"name": argument, "value": ""})
                errors.append(caught.value.error.message)
            with pytest.raises(MCPError) as caught:
                await client.get_prompt("explore_file", {"file": "a", "nope": "x"})
            errors.append(caught.value.error.message)
            mine = await client.complete(PROMPT, {"name": "file", "value": "a/"})
            valued = await client.call_tool("jq", {"query": ".a", "input": {"a": [1]},
                                                   "compact": True})
            text = await client.call_tool("jq", {"query": ".a", "input": '{"a": 2} {"a": 3}'})
        return errors, mine.completion.values, valued.structured_content, \
            text.structured_content

    errors, mine, valued, text = anyio.run(converse)
    assert valued["output"] == "[1]" and text["output"] == "2\n3"  # a value, or JSON text
    assert errors[0].startswith("Unknown prompt: nope") and "explore_file" in errors[0]
    assert "no argument nope" in errors[1] and "Nothing to complete" in errors[2]
    assert "has no argument nope" in errors[3]
    assert mine == ["a/f.json"]


@pytest.mark.parametrize("bound", [30_000, 20_000])
def test_the_tools_list_fits_the_operators_bound(tmp_path, bound):
    sizes = tmp_path / "sizes"
    server = StdioServerParameters(
        command=sys.executable, args=[str(Path(__file__).with_name("wire_tap.py")), str(sizes),
                                      sys.executable, "-m", "jqmagic", "mcp",
                                      "--max-message-bytes", str(bound)],
        cwd=str(tmp_path), env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "p")})

    async def converse():
        async with Client(server, read_timeout_seconds=60, mode="legacy") as client:
            return (await client.list_tools()).tools

    listed = anyio.run(converse)
    assert len(listed) == 10 and all(t.input_schema["properties"] for t in listed)
    assert max(int(n) for n in sizes.read_text().split()) <= bound


def test_log_messages_tell_a_calls_start_cost_cut_and_refusal_per_session(site):
    async def session(url: str, level: str | None) -> list:
        heard: list = []

        async def log(params):
            heard.append(params)

        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http), mode="legacy",
                                logging_callback=log, read_timeout_seconds=60) as client:
            if level:
                await client.set_logging_level(level)
            await client.call_tool("jq", {"query": ".", "input": "1"})
            await client.call_tool("jq", {"query": "range(300)", "null_input": True})
            await client.call_tool("read_file", {"file_path": str(site / "outside/f.json")})
        return [(h.level, h.data["message"]) for h in heard]

    async def both(url):
        return await session(url, "debug"), await session(url, None)

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        chatty, quiet = anyio.run(both, url)
    assert ("debug", "jq started") in chatty and ("info", "jq answered") in chatty
    assert ("notice", "jq's answer was cut to fit one message") in chatty
    assert ("warning", "read_file failed: SANDBOX_DENIED") in chatty
    assert quiet == [("warning", "read_file failed: SANDBOX_DENIED")]  # its own level


def test_the_stateless_revision_asks_roots_by_a_round_trip_and_they_only_narrow(site):
    asked: list = []

    def roots(*folders: str):
        async def answer(ctx):
            asked.append(folders)
            return types.ListRootsResult(roots=[types.Root(uri=f) for f in folders])

        return answer

    async def reads(url: str, answer) -> list:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http),
                                list_roots_callback=answer) as client:
            assert client.protocol_version == "2026-07-28"
            return [(await client.call_tool("read_file", {"file_path": str(site / p)})
                     ).structured_content for p in ("wall/a/f.json", "wall/b/f.json",
                                                    "outside/f.json")]

    async def all_of(url):
        return (await reads(url, roots((site / "wall" / "a").as_uri())),
                await reads(url, roots("file:///")),
                await reads(url, roots((site / "outside").as_uri())))

    with http_server(site, "--allow-root", str(site / "wall")) as url:
        in_a, slash, out = anyio.run(all_of, url)
    assert [r["success"] for r in in_a] == [True, False, False]
    assert [r["success"] for r in slash] == [True, True, False]
    assert [r["success"] for r in out] == [False, False, False]
    assert str(site / "outside") in out[0]["hint"]
    assert len(asked) == 9  # asked with every call: nothing is kept between requests


def test_a_completion_is_bounded_and_offers_no_control_characters(site):
    many = site / "wall" / "many"
    many.mkdir()
    for i in range(150):
        (many / f"{i:03d}{'n' * 240}.json").write_text("{}")
    (many / "\x1b]0;pwned\x07.json").write_text("{}")
    (many / "\x9b31m.json").write_text("{}")
    server = StdioServerParameters(command=sys.executable, args=["-m", "jqmagic", "mcp"],
                                   cwd=str(site / "wall"),
                                   env={"JQMAGIC_PAYLOAD_DIR": str(site / "p")})

    async def converse():
        async with Client(server, read_timeout_seconds=60) as client:
            every = await client.complete(PROMPT, {"name": "file", "value": "many/"})
            odd = await client.complete(PROMPT, {"name": "file", "value": "many/\x1b"})
        return every.completion, odd.completion

    every, odd = anyio.run(converse)
    assert 0 < len(every.values) <= 100 and every.has_more
    assert sum(len(v.encode()) for v in every.values) <= 32_000
    assert not any(c in v for v in every.values for c in "\x1b\x07\x9b")
    assert odd.values == []


def test_the_prompts_queries_work_on_real_documents(tmp_path):
    """fix_config_value's query lists every path of a real package.json (false and null
    values too, which paths(..) skipped)."""
    import re

    from jqmagic.tools import call
    from jqmagic.tools.mcpfeatures import PROMPTS
    from tests.shared import CORPUS_JSON

    found = sorted((CORPUS_JSON / "npm").glob("*-package.json"))[:3]
    if not found:
        pytest.skip(f"the real-world corpus is not at {CORPUS_JSON}")
    (query,) = re.findall(r"query such as '([^']+)'", PROMPTS["fix_config_value"][3])
    for file in found:
        doc = json.loads(file.read_text())
        odd = dict(doc, jqmagic_off=False, jqmagic_none=None)
        answer = call("jq", {"query": f"[{query}]", "input": odd, "compact": True},
                      no_sandbox=True)
        listed = json.loads(answer["output"])
        assert len(listed) == _paths(odd) and {"jqmagic_off", "jqmagic_none"} <= set(listed)


def _paths(value) -> int:
    """How many paths ``value`` has below its root (jq's paths), counted in Python."""
    if isinstance(value, dict):
        return sum(1 + _paths(v) for v in value.values())
    if isinstance(value, list):
        return sum(1 + _paths(v) for v in value)
    return 0


def test_roots_answered_unreadably_are_invalid_params_not_a_crash():
    from types import SimpleNamespace

    from jqmagic.tools.mcpclients import ROOTS_INPUT, ClientState, roots_input

    state = ClientState(stateless=True)
    with pytest.raises(MCPError) as refused:
        roots_input(None, state, SimpleNamespace(input_responses={ROOTS_INPUT: {"roots": 5}}))
    assert refused.value.error.code == -32602 and state.declared is None
    fine = SimpleNamespace(input_responses={ROOTS_INPUT: {"roots": [{"uri": "file:///"}]}})
    assert roots_input(None, state, fine) is None and state.declared == ["/"]
