"""Sessions that last: each call's clock starts when that call starts. A question asked after
a pause longer than the timeout answers, through every face (issue 52's stale clock: the
column decoding read the deadline an earlier call left, and every later question that read
new chains of a cached JSON Lines file timed out at once)."""

from __future__ import annotations

import json
import sys
import time
from types import SimpleNamespace

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jqmagic
from jqmagic.core.jqlang import columns, runtime
from jqmagic.core.query import doccache
from jqmagic.core.settings import settings as jq_settings
from tests.core.query.inline import inline_worker

LINES = 6_000  # more than runtime.CHUNK: the decoding of a new chain looks at the clock
FIRST = "[inputs | .type] | unique"
LATER = "[inputs | .actor.login] | unique | length"  # a chain the first did not read


def _events(folder):
    path = folder / "events.jsonl"
    path.write_text("".join(json.dumps({"type": f"t{i % 5}", "actor": {"login": f"u{i % 70}"},
                                        "n": i}) + "\n" for i in range(LINES)))
    return path


def test_a_question_after_a_pause_longer_than_the_timeout_answers(tmp_path):
    """Through ``jqmagic.query`` and its worker: the pause outlasts the first call's
    timeout; the next call, which decodes a new chain, gets its own clock."""
    path = str(_events(tmp_path))
    jqmagic.clear_cache()
    first = jqmagic.query(FIRST, path, null_input=True, timeout=1.0)
    assert first.values == [["t0", "t1", "t2", "t3", "t4"]]
    time.sleep(1.3)
    later = jqmagic.query(LATER, path, null_input=True, timeout=1.0)
    assert later.values == [70]


def test_the_agent_api_gets_the_clock_of_its_own_call(tmp_path):
    """``jqmagic.tools.call``: a long call (an inspect) then a pause, then a jq call with
    its own (longer) timeout: its answer, never "ran longer than" an earlier call's limit."""
    path = str(_events(tmp_path))
    opened = {"allow_root": [str(tmp_path)]}
    from jqmagic import tools

    assert tools.call("json_inspect", {"filePath": path}, **opened)["success"] is True
    shown = tools.call("jq", {"query": FIRST, "file": path, "null_input": True,
                              "timeout": 1}, **opened)
    assert shown["success"] is True, shown
    time.sleep(1.3)
    later = tools.call("jq", {"query": LATER, "file": path, "null_input": True,
                              "timeout": 600}, **opened)
    assert later["success"] is True and "70" in json.dumps(later), later


def test_the_mcp_jq_tool_answers_after_a_pause(tmp_path):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    path = str(_events(tmp_path))
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "jqmagic", "mcp", "--allow-root", str(tmp_path)],
        env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path / "payloads")})

    async def converse():
        async with Client(server, read_timeout_seconds=60) as client:
            first = await client.call_tool("jq", {"query": FIRST, "file": path,
                                                  "null_input": True, "timeout": 1})
            await anyio.sleep(1.3)
            later = await client.call_tool("jq", {"query": LATER, "file": path,
                                                  "null_input": True, "timeout": 1})
            return first.structured_content, later.structured_content

    first, later = anyio.run(converse)
    assert first["success"] is True, first
    assert later["success"] is True and "70" in json.dumps(later), later


class FakeClock:
    """The fast path's clock: it moves by the pauses the session makes and a tick each time
    it is read (a run that reads it often enough times out, genuinely)."""

    def __init__(self, tick: float):
        self.now, self.tick = 1_000.0, tick

    def monotonic(self) -> float:
        self.now += self.tick
        return self.now


def _files(folder):
    """A JSON file, a JSON Lines file and a YAML file, the same records in each."""
    records = [{"id": i, "kind": ["a", "b", "ß"][i % 3], "v": [1.0, -0.0, 1e-05, 2 ** 60][i % 4],
                "tags": (["x", "y"] if i % 2 else None), "sub": {"n": i % 7}}
               for i in range(40)]
    (folder / "doc.json").write_text(json.dumps({"items": records}))
    (folder / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (folder / "doc.yaml").write_text("items:\n" + "".join(
        f"  - {{id: {r['id']}, kind: '{r['kind']}', sub: {{n: {r['sub']['n']}}}}}\n"
        for r in records))
    return folder


QUESTIONS = {
    "doc.json": ["[.items[] | .kind] | unique", "[.items[].sub.n] | add", ".items | length",
                 "[.items[] | select(.id > 30) | .v]", "[.items[] | .tags // [] | length]"],
    "log.jsonl": ["[inputs | .kind] | unique", "[inputs | .sub.n] | add",
                  "[inputs | select(.id > 30) | .v]", "first(inputs | select(.kind == \"b\"))",
                  "[inputs | .tags[]?] | length"],
    "doc.yaml": ["[.items[] | .kind] | unique", "[.items[].sub.n] | max", ".items[3]"],
}
asked = st.lists(st.tuples(st.sampled_from(sorted(QUESTIONS)), st.integers(0, 4),
                           st.sampled_from([0.0, 0.5, 31.0, 45.0, 3600.0]),
                           st.sampled_from([0.05, 1.0, 30.0, 600.0])), min_size=2, max_size=8)


@pytest.fixture(scope="module")
def session_files(tmp_path_factory):
    return _files(tmp_path_factory.mktemp("session"))


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asked=asked, tick=st.sampled_from([0.0, 0.001, 0.02]))
def test_long_sessions_answer_as_libjq_or_time_out_in_their_own_call(
        asked, tick, session_files, monkeypatch):
    """Random questions over cached files with random pauses and timeouts, on a fake
    clock: every answer is libjq's, or a TIMEOUT whose own call ran past its limit."""
    folder = session_files
    clock = FakeClock(tick)
    monkeypatch.setattr(runtime, "time", SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(runtime, "CHUNK", 4)  # the clock read often, as in a big file
    monkeypatch.setattr(columns, "MIN_ITEMS", 0)  # columns made for these small lists
    with inline_worker(monkeypatch):
        doccache.documents.clear()
        for name, index, pause, timeout in asked:
            program = QUESTIONS[name][index % len(QUESTIONS[name])]
            path = str(folder / name)
            null_input = name.endswith(".jsonl")
            clock.now += pause
            started = clock.now
            try:
                got = jqmagic.query(program, path, null_input=null_input, timeout=timeout)
            except jqmagic.JqMagicError as exc:
                assert exc.code == "TIMEOUT", exc
                assert clock.now - started > timeout, (program, pause, timeout)
                continue
            assert got.text == _libjq(program, path, null_input), program


def _libjq(program: str, path: str, null_input: bool) -> str:
    saved, jq_settings.fast_path = jq_settings.fast_path, False
    try:
        return jqmagic.query(program, path, null_input=null_input).text
    finally:
        jq_settings.fast_path = saved


def test_the_notebook_magic_answers_after_a_pause(tmp_path, ip):
    """``%jq`` in an IPython shell (the kernel's code path, its worker the same; the
    suite's one shell: IPython allows one a process)."""
    path = _events(tmp_path)
    shell = ip
    shell.run_line_magic("jq", f"-n -o first '{FIRST}' {path} --timeout 1")
    assert shell.user_ns["first"] == ["t0", "t1", "t2", "t3", "t4"]
    time.sleep(1.3)
    shell.run_line_magic("jq", f"-n -o later '{LATER}' {path} --timeout 1")
    assert shell.user_ns["later"] == 70
