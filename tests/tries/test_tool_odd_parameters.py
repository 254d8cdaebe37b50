"""Odd parameters each answered as one bounded JSON error naming the parameter: NaN or
Infinity (a NaN timeout passed both bounds and a runaway program ran with no clock), a
diffStart past the diff, a request that is no object (the hint showed the jq tool's
fields to every tool), an unknown field (the hint listed `exec`, hidden by the sandbox)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic.tools import call

JQMAGIC = Path(sys.executable).with_name("jqmagic")


def tool(name: str, text: str, cwd: Path, *flags: str) -> dict:
    done = subprocess.run([str(JQMAGIC), "tool", name, *flags], input=text, cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    assert len(done.stdout) < 2000 and done.stdout.count("\n") == 1
    return json.loads(done.stdout)


@pytest.mark.parametrize("number", [float("nan"), float("inf"), -float("inf")])
def test_a_non_finite_timeout_is_refused(number):
    answer = call("jq", {"query": ".", "input": "1", "timeout": number})
    assert answer["error_code"] == "INVALID_ARGUMENT"
    assert "'timeout' must be a finite number" in answer["error"]


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_the_tool_line_reads_no_nan(tmp_path, word):
    answer = tool("jq", f'{{"query": ".", "input": "1", "timeout": {word}}}', tmp_path)
    assert answer["error_code"] == "INVALID_JSON" and word in answer["error"]
    assert '"query"' in answer["hint"]


def test_a_patch_value_of_nan_is_no_json(tmp_path):
    (tmp_path / "a.json").write_text('{"a": 1}\n')
    answer = call("json_patch", {"filePath": "a.json", "operation": "set", "path": "/a",
                                 "value": "NaN"}, allow_root=[str(tmp_path)])
    assert answer["error_code"] == "INVALID_JSON" and "NaN" in answer["error"]
    assert (tmp_path / "a.json").read_text() == '{"a": 1}\n'


def test_a_diff_start_past_the_diff(tmp_path):
    (tmp_path / "a.json").write_text('{"a": 1}\n')
    answer = call("json_patch", {"filePath": str(tmp_path / "a.json"), "operation": "set",
                                 "path": "/a", "value": "2", "dryRun": True,
                                 "diffStart": 10**300}, allow_root=[str(tmp_path)])
    assert answer["error_code"] == "INVALID_ARGUMENT" and "diffStart" in answer["error"]
    assert len(json.dumps(answer)) < 600
    assert (tmp_path / "a.json").read_text() == '{"a": 1}\n'


@pytest.mark.parametrize("text", ["[1]", "x"])
def test_a_request_that_is_no_object_hears_its_tools_fields(tmp_path, text):
    answer = tool("json_patch", text, tmp_path)
    assert '"filePath"' in answer["hint"] and '"query"' not in answer["hint"]


def test_the_fields_named_are_the_advertised_ones(tmp_path):
    hidden = call("jq", {"qurey": "."})
    assert "Did you mean 'query'?" in hidden["hint"] and "exec" not in hidden["hint"]
    opened = call("jq", {"exex": "ls"}, allow_exec=True)
    assert "Did you mean 'exec'?" in opened["hint"]
