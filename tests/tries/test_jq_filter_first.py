"""%jq with its words the other way round (``%jq data.json .name``, as a newcomer types it)
says the filter comes first and shows the line; it said 'File not found: .name'. A file
alone says it is the source. A line that reads right, or a program word that is no file,
is left alone."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.json").write_text('{"name": "axios"}')
    return "data.json"


def said(ip, line: str) -> str:
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jq", line)
    return str(caught.value)


def test_the_source_first_is_said(ip, data):
    assert said(ip, "data.json .name") == (
        "INVALID_ARGUMENT: data.json is a file and .name no source: %jq takes the filter "
        "first, then the source.\nHint: %jq .name data.json")
    assert said(ip, "data.json 'map(.a)'") .endswith("Hint: %jq 'map(.a)' data.json")
    assert said(ip, "data.json") == ("INVALID_QUERY: No jq filter given: data.json is the "
                                     "source.\nHint: Put the filter first: %jq '.' data.json")


def test_lines_that_read_right_are_left_alone(ip, data):
    ip.user_ns["doc"] = {"name": "x"}
    assert ip.run_line_magic("jq", ".name data.json").values == ["axios"]
    assert said(ip, "data.json -n").startswith("INVALID_QUERY: Invalid jq program")
    assert "No input was given" in said(ip, ".name")
    assert said(ip, "data.json doc").startswith("INVALID_QUERY: Invalid jq program")
    assert said(ip, "data.json --input '{}'").startswith("INVALID_QUERY: Invalid jq program")
