"""A comment after a comma may hold `}` or `]`, or be followed by a value: the comma is a
trailing one only when a closer comes after the comments whole (a corpus package.json
with `// a } brace` above a key was INVALID_JSON; `[1, /* a */ 2 /* b */ ]` lost a comma)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic.core import jsonc

JQMAGIC = Path(sys.executable).with_name("jqmagic")

CASES = [
    ('{"a": 1,\n  // a } brace\n  "b": 2\n}\n', {"a": 1, "b": 2}),
    ('{"a": 1,\n  // closes ] nothing\n  "b": 2,\n}\n', {"a": 1, "b": 2}),
    ("[1, /* a */ 2 /* b */ ]", [1, 2]),
    ("[1, /* ] */ 2]", [1, 2]),
    ("[1, // ]\n2,\n// ]\n]", [1, 2]),
    ('{"a": 1, /* x */ }', {"a": 1}),
]


@pytest.mark.parametrize("text, value", CASES)
def test_to_json_blanks_only_trailing_commas(text, value):
    out = jsonc.to_json(text)
    assert json.loads(out) == value
    assert len(out) == len(text) and out.count("\n") == text.count("\n")


@pytest.mark.parametrize("timeout", [[], ["--timeout", "20"]], ids=["here", "worker"])
def test_the_command_line_reads_it(tmp_path, timeout):
    (tmp_path / "f.jsonc").write_text(CASES[0][0])
    done = subprocess.run([str(JQMAGIC), "query", *timeout, "-c", ".", "f.jsonc"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, '{"a":1,"b":2}\n'), done.stderr
