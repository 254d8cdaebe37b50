"""A session of 240 questions over 10+ minutes on a fake clock (the last rounds' lesson: a
deadline an earlier call left made every later JSON Lines question time out after a pause):
JSON, JSON Lines and YAML files edited between questions (each answer is jq 1.8.2's over
the file as it is now), pauses up to an hour, timeouts from 50 ms to 10 minutes (a TIMEOUT
only where its own call ran past its limit), and the document cache within its budget,
one entry a file, however many versions went by."""

from __future__ import annotations

import json
import random
import subprocess
from types import SimpleNamespace

import jqmagic
from jqmagic.core.jqlang import columns, runtime
from jqmagic.core.query import doccache
from jqmagic.core.settings import settings as jq_settings
from tests.cli.dropin import ORACLE
from tests.core.query.inline import inline_worker
from tests.reliability.test_session_clock import FakeClock

PROGRAMS = {  # per file kind: a question reads new field chains as the session goes on
    "json": ["[.items[] | .kind] | unique", "[.items[].sub.n] | add", ".items | length",
             "[.items[] | select(.id > 30) | .v]", "[.items[] | .tags // [] | length] | add",
             "[.items[] | .name] | unique | length", "first(.items[] | select(.kind == \"b\"))"],
    "jsonl": ["[inputs | .kind] | unique", "[inputs | .sub.n] | add", "[inputs | .name] | max",
              "[inputs | select(.id > 30) | .v]", "first(inputs | select(.kind == \"b\"))",
              "reduce inputs as $x ({}; .[$x.kind] += 1)", "[inputs | .tags[]?] | length"],
}
PAUSES = [0.0, 0.2, 5.0, 31.0, 90.0, 3600.0]
TIMEOUTS = [0.05, 1.0, 30.0, 600.0]


def _records(version: int) -> list[dict]:
    count = 40 + version % 7
    return [{"id": i, "kind": ["a", "b", "ß"][(i + version) % 3],
             "v": [1.0, -0.0, 1e-05, 2 ** 60, 1.5][(i + version) % 5],
             "name": f"n{(i * (version + 1)) % 23}", "tags": ["x", "y"] if i % 2 else None,
             "sub": {"n": (i + version) % 7}} for i in range(count)]


def _write(folder, version: int) -> None:
    """The three files at ``version``: YAML holds what the JSON file holds."""
    records = _records(version)
    (folder / "doc.json").write_text(json.dumps({"items": records}))
    (folder / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (folder / "doc.yaml").write_text(
        "items:\n" + "".join(f"  - {json.dumps(r)}\n" for r in records))


def _jq(program: str, path, null_input: bool) -> str:
    """jq 1.8.2's answer: its command line where built, else the package's libjq (the fast
    path off), so that the session runs where the oracle is not built (make quick)."""
    if ORACLE.exists():
        done = subprocess.run([str(ORACLE), *(["-n"] if null_input else []), program,
                               str(path)], capture_output=True, text=True, check=True,
                              timeout=60)
        return done.stdout.rstrip("\n")
    before, jq_settings.fast_path = jq_settings.fast_path, False
    try:
        return jqmagic.query(program, str(path), null_input=null_input, cache=False).text
    finally:
        jq_settings.fast_path = before


def test_240_questions_over_ten_minutes(tmp_path, monkeypatch):
    clock = FakeClock(0.0)
    monkeypatch.setattr(runtime, "time", SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(runtime, "CHUNK", 4)  # the clock read often, as in a big file
    monkeypatch.setattr(columns, "MIN_ITEMS", 0)  # columns made for these small lists
    rng, version, oracle = random.Random(17), 0, {}
    _write(tmp_path, version)
    timed_out = changed = 0
    seen: dict[tuple[str, str], str] = {}
    with inline_worker(monkeypatch):
        doccache.documents.clear()
        for asked in range(240):
            if asked % 12 == 11:
                version += 1
                _write(tmp_path, version)
            name = rng.choice(["doc.json", "log.jsonl", "doc.yaml"])
            kind = "jsonl" if name == "log.jsonl" else "json"
            program = rng.choice(PROGRAMS[kind])
            timeout = rng.choice(TIMEOUTS)
            clock.tick = rng.choice([0.0, 0.001, 0.02])
            clock.now += rng.choice(PAUSES)
            started = clock.now
            try:
                got = jqmagic.query(program, str(tmp_path / name), null_input=kind == "jsonl",
                                    timeout=timeout)
            except jqmagic.JqMagicError as exc:
                assert exc.code == "TIMEOUT", exc
                assert clock.now - started > timeout, (asked, program, timeout)
                timed_out += 1
                continue
            twin = tmp_path / ("doc.json" if name == "doc.yaml" else name)
            key = (program, version, kind)
            if key not in oracle:
                oracle[key] = _jq(program, twin, kind == "jsonl")
            assert got.text == oracle[key], (asked, name, program, version)
            changed += seen.get((name, program), got.text) != got.text
            seen[(name, program)] = got.text
            assert len(doccache.documents._entries) <= 3
            assert doccache.documents.size <= jq_settings.doc_cache_bytes
    assert clock.now - 1_000 > 600  # over ten minutes of the session's clock
    assert 0 < timed_out < 120 and changed > 10  # edits were seen; most questions answered


def test_an_mcp_session_of_210_calls_over_ten_minutes(tmp_path, monkeypatch):
    """The same over MCP (the SDK's in-memory client, the worker inline): jq, json_inspect
    and json_patch calls with pauses and timeouts on the fake clock, files edited between
    them; every message within the wire's bound."""
    import anyio
    from mcp import Client

    from jqmagic.tools import transport
    from jqmagic.tools.mcp import build_server

    clock = FakeClock(0.0)
    monkeypatch.setattr(runtime, "time", SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(runtime, "CHUNK", 4)
    monkeypatch.setattr(columns, "MIN_ITEMS", 0)
    monkeypatch.chdir(tmp_path)
    rng, state = random.Random(3), {"version": 0, "timed_out": 0, "patched": 0}
    _write(tmp_path, 0)

    async def one(client, asked: int) -> None:
        if asked % 15 == 14:
            state["version"] += 1
            _write(tmp_path, state["version"])
        clock.tick = rng.choice([0.0, 0.001, 0.02, 0.3])
        clock.now += rng.choice(PAUSES)
        started, kind = clock.now, rng.choice(["jq", "jq", "jq", "inspect", "patch"])
        if kind == "inspect":
            result = await client.call_tool("json_inspect", {"filePath": "doc.json",
                                                             "path": "/items", "depth": 1})
            assert result.structured_content["arrayLength"] == 40 + state["version"] % 7
        elif kind == "patch":
            value = rng.randrange(1000)
            result = await client.call_tool("json_patch", {
                "filePath": "doc.json", "operation": "set", "path": "/items/0/id",
                "value": str(value)})
            assert result.structured_content["success"], result.structured_content
            assert json.loads((tmp_path / "doc.json").read_text())["items"][0]["id"] == value
            state["patched"] += 1
        else:
            name = rng.choice(["doc.json", "log.jsonl"])
            program = rng.choice(PROGRAMS["jsonl" if name.endswith("l") else "json"])
            timeout = rng.choice([1, 30, 600])
            result = await client.call_tool("jq", {"query": program, "file": name,
                                                   "null_input": name.endswith("l"),
                                                   "timeout": timeout})
            said = result.structured_content
            if not said["success"]:
                assert said["error_code"] == "TIMEOUT", said
                assert clock.now - started > timeout
                state["timed_out"] += 1
            else:
                assert said["output"] == _jq(program, tmp_path / name, name.endswith("l"))
        assert len(result.model_dump_json(by_alias=True).encode()) <= transport.limit()

    async def session() -> None:
        async with Client(build_server(), read_timeout_seconds=60) as client:
            for asked in range(210):
                await one(client, asked)

    with inline_worker(monkeypatch):
        doccache.documents.clear()
        anyio.run(session)
    assert clock.now - 1_000 > 600 and state["patched"] > 10 and state["timed_out"] > 0
