"""%%jq given no source says where its source goes (the magic's line); when the cell's last
line is a file, as a newcomer writes it below the program, it names it. It said only 'No input
was given', with a hint about sources in general."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError


def said(ip, line: str, cell: str) -> str:
    with pytest.raises(UsageError) as caught:
        ip.run_cell_magic("jq", line, cell)
    return str(caught.value)


def test_the_file_on_the_last_line_is_pointed_to(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "world.json").write_text('{"features": [1, 2]}')
    assert said(ip, "-c", ".features | length\nworld.json\n") == (
        "AMBIGUOUS_SOURCE: No input was given: world.json, the cell's last line, is read as "
        "part of the program.\nHint: Put the source on the magic's line: %%jq world.json "
        "(and drop that line).")
    assert said(ip, "", ".features | length").endswith(
        "Hint: e.g. %%jq data.json, or %%jq -n for a program without input.")
    assert ip.run_cell_magic("jq", "world.json", ".features | length").values == [2]
    assert ip.run_cell_magic("jq", "-n", "1 + 1").values == [2]
    assert ip.run_cell_magic("jq", "--input '[3]'", ".[0]").values == [3]
