"""A file name holding a lone surrogate (a JSON request's "\\ud800") is one INVALID_ARGUMENT
naming it, on every face: read_file and json_patch raised UnicodeEncodeError out of
tools.call, and `jqmagic tool` printed a traceback instead of its one JSON answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic import JqMagicError, patch
from jqmagic.tools import call

JQMAGIC = Path(sys.executable).with_name("jqmagic")
NAME = "a\ud800\u00e9.json"


@pytest.mark.parametrize("tool, request_", [
    ("read_file", {"file_path": NAME}),
    ("json_patch", {"filePath": NAME, "operation": "remove", "path": "/a"}),
    ("json_inspect", {"filePath": NAME}),
    ("query_json", {"file_path": NAME, "jq_expression": "."}),
])
def test_every_tool_answers_one_error(tool, request_):
    answer = call(tool, request_)
    assert answer["success"] is False
    assert answer["error_code"] in ("INVALID_ARGUMENT", "NOT_FOUND")


def test_the_tool_line_answers_json(tmp_path):
    done = subprocess.run([str(JQMAGIC), "tool", "read_file"], cwd=tmp_path, text=True,
                          input='{"file_path": "a\\ud800\\u00e9.json"}', capture_output=True,
                          timeout=60)
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert answer["error_code"] == "INVALID_ARGUMENT"
    assert "\\ud800" in answer["error"] and "\u00e9" in answer["error"]


def test_patch_says_it_too():
    with pytest.raises(JqMagicError) as caught:
        patch(NAME, "remove", "/a")
    assert caught.value.code == "INVALID_ARGUMENT" and "surrogate" in caught.value.message
