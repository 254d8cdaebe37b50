"""Hints in the words of the face that asked: an agent never reads a magic, a command-line
flag or "in the magic"; the notebook and the terminal keep theirs for the same fact."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic.core.settings import settings
from jqmagic.core.words import FACES, TERMS, for_face, term
from jqmagic.tools import call
from tests.web_servers import BRAVE_KEY, WebServer, fake_brave

# What only a notebook or a terminal understands.
NOT_FOR_AGENTS = re.compile(r"(?<![\w.-])--?[a-z]|%[a-z]|\bmagics?\b"
                            r"|jqmagic (inspect|query|mcp|tool)"
                            r"|\bSOURCE\b|\bTARGET\b|%config|⟨")


@pytest.fixture(autouse=True)
def payload_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    return tmp_path / "payloads"


@pytest.fixture
def files(tmp_path) -> Path:
    (tmp_path / "users.json").write_text(json.dumps(
        {"users": [{"id": "u1"}, {"id": "u2"}], "config": {"a": 1},
         "packages": {"node_modules/x": {"version": "1"}}}))
    (tmp_path / "tsconfig.json").write_text('{\n  // options\n  "a": 1,,\n}\n')
    (tmp_path / "bad.yaml").write_text("a: [1, 2\nb: }\n")
    (tmp_path / "deep.json").write_text("[" * 10_001 + "]" * 10_001)
    (tmp_path / "big.txt").write_text("word " * 100_000)
    (tmp_path / "folder.json").mkdir()
    return tmp_path


def failing_calls(d: Path) -> list[tuple[str, dict, str]]:
    """Tool calls that fail, one or more per error code a tool can meet."""
    users = str(d / "users.json")
    return [
        ("jq", {"query": ".", "input": '{"a": 1,,}'}, "INVALID_JSON"),
        ("jq", {"query": ".", "file": str(d / "tsconfig.json")}, "INVALID_JSON"),
        ("query_json", {"file_path": str(d / "tsconfig.json"), "jq_expression": "."},
         "INVALID_JSON"),
        ("json_inspect", {"filePath": str(d / "tsconfig.json")}, "INVALID_JSON"),
        ("query_yaml", {"file_path": str(d / "bad.yaml"), "yq_expression": "."},
         "INVALID_YAML"),
        ("jq", {"query": ".a |", "input": "{}"}, "INVALID_QUERY"),
        ("jq", {"query": ".a + $nope", "input": "{}"}, "INVALID_QUERY"),
        ("jq", {"query": "error(\"boom\")", "input": "{}"}, "QUERY_ERROR"),
        ("query_json", {"file_path": str(d / "none.json"), "jq_expression": "."}, "NOT_FOUND"),
        ("json_inspect", {"filePath": users, "path": "/nope"}, "NOT_FOUND"),
        ("json_inspect", {"filePath": users, "path": "/users/7"}, "NOT_FOUND"),
        ("json_patch", {"filePath": users, "operation": "set", "path": "/users/9",
                        "value": "1"}, "NOT_FOUND"),
        ("json_patch", {"filePath": users, "operation": "remove",
                        "match": {"arrayPath": "/users", "where": {"id": "zz"}}}, "NOT_FOUND"),
        ("json_patch", {"filePath": str(d / "none.json"), "operation": "remove", "path": "/a"},
         "NOT_FOUND"),
        ("json_patch", {"filePath": users, "operation": "remove",
                        "match": {"arrayPath": "/config", "where": {"a": 1}}},
         "INVALID_ARGUMENT"),
        ("json_patch", {"filePath": users, "operation": "set", "value": "1",
                        "match": {"arrayPath": "/users", "where": {"id": "u1"}}},
         "INVALID_ARGUMENT"),
        ("json_patch", {"filePath": users, "operation": "set", "value": "1",
                        "path": "/packages/node_modules/x/version"}, "PATCH_CONFLICT"),
        ("json_patch", {"filePath": users, "operation": "set", "path": "a", "value": "1"},
         "INVALID_POINTER"),
        ("json_patch", {"filePath": str(d / "folder.json"), "operation": "remove",
                        "path": "/a"}, "FILE_ERROR"),
        ("jq", {"query": ".", "file": users, "input": "{}"}, "AMBIGUOUS_SOURCE"),
        ("jq", {"query": "."}, "AMBIGUOUS_SOURCE"),
        ("query_json", {"file_path": users, "jq_expression": "$__loc__", "args": 3},
         "INVALID_ARGUMENT"),
        ("json_inspect", {"filePath": users, "format": "jqschema", "stats": True},
         "INVALID_ARGUMENT"),
        ("json_inspect", {"filePath": str(d / "deep.json")}, "TOO_LARGE"),
        ("read_file", {"file_path": str(d / "big.txt")}, "TOO_LARGE"),
        ("jq", {"query": "[range(1e9)] | length", "input": "null", "timeout": 1}, "TIMEOUT"),
        ("web_fetch", {"url": "notaurl"}, "INVALID_URL"),
        ("web_search_brave", {"query": "jq manual"}, "AUTH_MISSING"),
    ]


def sandboxed_calls(d: Path, outside: Path) -> list[tuple[str, dict, str]]:
    return [
        ("jq", {"query": ".", "file": str(outside)}, "SANDBOX_DENIED"),
        ("json_patch", {"filePath": str(outside), "operation": "remove", "path": "/a"},
         "SANDBOX_DENIED"),
        ("jq", {"query": ".", "exec": "echo 1"}, "SANDBOX_DENIED"),
        ("web_fetch", {"url": "http://127.0.0.1:9/"}, "SANDBOX_DENIED"),
    ]


def said(out: dict) -> str:
    return f"{out.get('error', '')} {out.get('hint', '')}"


def test_every_failing_tool_call_speaks_to_an_agent(files, tmp_path, clean_env, monkeypatch):
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text("{}")
    calls = failing_calls(files)
    seen: dict[str, str] = {}
    for name, request, code in calls:
        out = call(name, request)
        assert out["success"] is False and out["error_code"] == code, (name, request, out)
        assert not NOT_FOR_AGENTS.search(said(out)), (name, request, out)
        seen[code] = said(out)
    monkeypatch.setattr(settings, "sandbox", True)
    monkeypatch.setattr(settings, "allowed_roots", [str(files)])
    for name, request, code in sandboxed_calls(files, outside):
        out = call(name, request)
        assert out["success"] is False and out["error_code"] == code, (name, request, out)
        assert not NOT_FOR_AGENTS.search(said(out)), (name, request, out)
        seen[code] = said(out)
    assert len(seen) >= 15  # the codes a tool can meet, each seen at least once
    # the same facts, in the tools' own words
    assert 'args {"nope": VALUE}' in said(call(*failing_calls(files)[6][:2]))
    assert 'json_inspect with path "/users"' in said(call(*failing_calls(files)[11][:2]))
    assert "timeout parameter" in seen["TIMEOUT"]


def test_web_and_command_failures_speak_to_an_agent(clean_env, monkeypatch):
    web = WebServer().start()
    try:
        monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
        bad_json = web.add("/bad.json", b"{not json", "application/json")
        calls = [
            ("web_fetch", {"url": web.url("/no-such-page")}, "HTTP_ERROR"),
            ("web_fetch", {"url": bad_json}, "PARSE_ERROR"),
            ("web_fetch", {"url": "http://127.0.0.1:9/"}, "NETWORK_ERROR"),
            ("jq", {"query": ".", "exec": "echo oops >&2; exit 3"}, "EXEC_ERROR"),
        ]
        for key, query, code in [("wrong", "jq", "AUTH_INVALID"),
                                 (BRAVE_KEY, "ratelimit", "RATE_LIMIT"),
                                 (BRAVE_KEY, "boom", "API_ERROR")]:
            monkeypatch.setenv("BRAVE_API_KEY", key)
            calls.append(("web_search_brave", {"query": query}, code))
            out = call(*calls.pop()[:2])
            assert out["error_code"] == code and not NOT_FOR_AGENTS.search(said(out)), out
        for name, request, code in calls:
            out = call(name, request)
            assert out["success"] is False and out["error_code"] == code, (name, out)
            assert not NOT_FOR_AGENTS.search(said(out)), (name, request, out)
    finally:
        web.stop()


def test_the_terminal_and_the_notebook_keep_their_words(files, run_cell):
    tsconfig, users = files / "tsconfig.json", files / "users.json"
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", ".", str(tsconfig)],
                         capture_output=True, text=True, timeout=60)
    assert "hint:" in run.stderr and "--jsonc" in run.stderr
    run = subprocess.run([sys.executable, "-m", "jqmagic", "patch", str(users), "set",
                          "/users/9", "1"], capture_output=True, text=True, timeout=60)
    assert "jqmagic inspect FILE --path '/users'" in run.stdout + run.stderr
    with pytest.raises(Exception) as jsonc:
        run_cell(f"%jq . {tsconfig}")
    assert "--jsonc" in str(jsonc.value)
    with pytest.raises(Exception) as past:
        run_cell(f"%jsonpatch {users} set /users/9 1")
    assert "%inspect SOURCE --path '/users'" in str(past.value)
    agent = said(call("jq", {"query": ".", "file": str(tsconfig)}))
    assert "jsonc" not in agent.lower() and "Check the JSON syntax" in agent


def test_every_term_has_words_for_every_face():
    for name, words in TERMS.items():
        assert set(words) == set(FACES), name
        agent = words["agent"]
        assert agent is None or not NOT_FOR_AGENTS.search(agent.format("x", "y")), name
    text = f"Check it. Read it with {term('jsonc')}. Then {term('inspect', '/a')}."
    assert for_face(text, "agent") == 'Check it. Then json_inspect with path "/a".'
    assert for_face(text, "notebook") == ("Check it. Read it with --jsonc. Then %inspect "
                                          "SOURCE --path '/a'.")
    with pytest.raises(ValueError):
        term("no-such-term")


TOOL_NAMES = re.compile(r"\b(jq tool|query_json|query_yaml|json_inspect|json_patch|read_file"
                        r"|web_fetch)\b")
NAMED_PARAMETER = re.compile(r"\b([a-z_]+[A-Za-z]*)=|\bthe ([a-z_]+) parameter\b")


def steps_use_own_parameters(name: str, out: dict) -> list[str]:
    """Each parameter a hint or message names (``offset=``, "the timeout parameter") that
    neither the tool nor another tool named in the same sentence has."""
    from jqmagic.tools import tools

    own = set(tools()[name].parameters["properties"])
    wrong = []
    for field in ("hint", "message"):
        for sentence in re.split(r"(?<=[.?!])\s+", out.get(field, "")):
            others = {("jq" if t == "jq tool" else t) for t in TOOL_NAMES.findall(sentence)}
            allowed = own.union(*(tools()[t].parameters["properties"] for t in others))
            for match in NAMED_PARAMETER.finditer(sentence):
                param = match[1] or match[2]
                if param not in allowed:
                    wrong.append(f"{name}: {param!r} in {sentence!r}")
    return wrong


def test_every_suggested_step_uses_the_tools_own_parameters(files, clean_env):
    big = files / "many.json"
    big.write_text(json.dumps({"items": list(range(300)),
                               "wide": {f"k{i}": i for i in range(150)}}))
    lines = files / "rows.jsonl"
    lines.write_text("".join(json.dumps({"n": i}) + "\n" for i in range(150)))
    answers = [(name, call(name, request)) for name, request, _ in failing_calls(files)]
    answers += [(name, call(name, request)) for name, request in [
        ("jq", {"query": ".items[]", "file": str(big)}),
        ("jq", {"query": ".n", "file": str(lines)}),
        ("query_json", {"file_path": str(lines), "jq_expression": ".n"}),
        ("query_yaml", {"file_path": str(lines), "yq_expression": ".n"}),
        ("json_inspect", {"filePath": str(big)}),
        ("read_file", {"file_path": str(files / "big.txt"), "large_file_passthrough": True}),
        ("json_inspect", {"filePath": str(files / "none.json")}),
        ("json_patch", {"filePath": str(big), "operation": "set", "path": "/wide",
                        "value": "{}"}),
    ]]
    problems = [p for name, out in answers for p in steps_use_own_parameters(name, out)]
    assert problems == []
    timeout = [out for name, out in answers if out.get("error_code") == "TIMEOUT"]
    assert timeout and all("the timeout parameter" in out["hint"] for out in timeout)
    several = [out for name, out in answers[-7:-5] if out.get("truncated")]
    assert all("null input" not in out["message"] and out["next_arguments"]["slurp"] is True
               for out in several) and len(several) == 2


def test_a_hint_naming_a_missing_parameter_loses_that_sentence():
    from jqmagic.core.words import term
    from jqmagic.tools import get
    from jqmagic.tools.hints import for_tool

    raw = f"Narrow the input. Or raise the limit with {term('timeout')}."
    assert for_tool(raw, get("json_inspect")) == "Narrow the input."
    assert for_tool(raw, get("query_json")).endswith("with the timeout parameter.")


def test_a_timeout_in_the_fast_path_names_the_tools_parameter(tmp_path):
    """Issue 40: the in-process engine's TIMEOUT said --timeout to an agent."""
    path = tmp_path / "t.json"
    path.write_text("[1, 2, 3]")
    out = call("jq", {"query": "[limit(100000000; repeat(1))] | length", "file": str(path),
                      "timeout": 1})
    assert out["error_code"] == "TIMEOUT" and "--" not in out["hint"]
    assert "timeout parameter" in out["hint"]
