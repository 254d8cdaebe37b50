"""A raw control character inside a JSON string is named (U+0000) with how JSON writes it:
Python's words stopped mid-sentence ("Invalid control character at", the place after
them only as a caret)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sources.formats import parse_json


@pytest.mark.parametrize(("text", "named"), [('"a\x00b"', "U+0000"), ('{"k": "x\ty"}', "U+0009"),
                                             ('["\x1f"]', "U+001F")])
def test_the_character_is_named(text, named):
    with pytest.raises(JqMagicError) as caught:
        parse_json(text, "doc.json")
    said = caught.value.message
    assert named in said and "\\u" + named[2:].lower() in said and not said.endswith(" at")


def test_the_command_line_says_it(tmp_path):
    (tmp_path / "nul.json").write_bytes(b'"a\x00b"\n')
    done = subprocess.run([sys.executable, "-m", "jqmagic", "query", ".", "nul.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 5 and "U+0000" in done.stderr, done.stderr  # jq's status
