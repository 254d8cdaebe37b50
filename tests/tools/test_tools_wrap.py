"""``jqmagic.tools.wrap``: the jqschema middleware around any tool handler."""

from __future__ import annotations

import asyncio
import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import jqmagic
import jqmagic.tools.results
from jqmagic.core import payloads
from jqmagic.tools import wrap

RESPONSE = {"total_count": 1000, "items": [{"login": "user1", "id": 123, "verified": True},
                                           {"login": "user2", "id": 456, "verified": False}]}


@pytest.fixture(autouse=True)
def payload_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    return tmp_path / "payloads"


def test_the_middleware_specs_example(payload_dir):
    def github_users(org: str) -> dict:
        """List the users of an organisation."""
        return RESPONSE

    wrapped = wrap(github_users)
    assert wrapped.__name__ == "github_users" and wrapped.__doc__.startswith("List the users")
    out = wrapped("acme")
    assert set(out) == {"queryID", "payloadPath", "preview", "schema", "originalSize",
                        "truncated"}
    assert re.fullmatch(r"[0-9a-f]{32}", out["queryID"])
    assert out["payloadPath"] == str(payload_dir / out["queryID"] / "payload.json")
    assert out["schema"] == {"items": [{"id": "number", "login": "string",
                                        "verified": "boolean"}], "total_count": "number"}
    assert out["preview"] == json.dumps(RESPONSE, separators=(",", ":"))
    assert out["originalSize"] == len(out["preview"]) and out["truncated"] is False
    assert payloads.payload(out["queryID"]) == RESPONSE


def test_long_responses_are_previewed():
    out = wrap(lambda: {"rows": list(range(1000))})()
    assert len(out["preview"]) == 500 and out["truncated"] is True
    assert out["schema"] == {"rows": ["number"]}
    assert payloads.payload(out["queryID"])["rows"][-1] == 999


def test_json_text_in_json_text_out():
    out = json.loads(wrap(lambda: json.dumps(RESPONSE))())
    assert out["schema"]["total_count"] == "number"
    plain = json.loads(wrap(lambda: b"not json at all")())
    assert plain["preview"] == "not json at all" and "schema" not in plain
    assert payloads.load(plain["queryID"]) == "not json at all"


def test_async_handlers():
    async def handler(n: int) -> list:
        return [{"n": n}]

    wrapped = wrap(handler)
    assert asyncio.iscoroutinefunction(wrapped)
    assert asyncio.run(wrapped(3))["schema"] == [{"n": "number"}]


def test_threshold_lets_small_responses_through():
    wrapped = wrap(lambda size: "x" * size, threshold=100)
    assert wrapped(100) == "x" * 100
    assert json.loads(wrapped(101))["originalSize"] == 101


def test_tools_load_on_first_use():
    code = ("import sys, jqmagic\n"
            "assert 'jqmagic.tools' not in sys.modules\n"
            "print(jqmagic.tools.wrap.__module__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.strip() == "jqmagic.tools.results", run.stderr


def test_module_examples():
    for module in (jqmagic.tools.results, jqmagic.tools):
        failed, tried = doctest.testmod(module)
        assert (failed, tried > 0) == (0, True), module.__name__
