"""-R reads a file's own lines, whatever its format: a YAML, JSONC or JSON Lines file is
text to -R, as to jq (no conversion first)."""

from __future__ import annotations

import pytest

from jqmagic import query

FILES = {"c.yaml": "# a comment\na: 1\nb: [2, 3]\n",
         "c.jsonc": '{\n  // a comment\n  "a": 1,\n}\n',
         "c.jsonl": '{"a": 1}\n{"a": 2}\n'}


@pytest.mark.parametrize("name", sorted(FILES))
def test_raw_input_reads_the_lines_as_written(tmp_path, name):
    path = tmp_path / name
    path.write_text(FILES[name])
    assert query(".", file=str(path), raw_input=True).values == FILES[name].splitlines()
    assert query(".", file=str(path), raw_input=True, slurp=True).values == [FILES[name]]
