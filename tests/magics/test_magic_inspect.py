"""%inspect in a real IPython shell."""

from __future__ import annotations

import json

import pytest
from IPython.core.error import UsageError


def test_inspect_a_variable_and_its_display(ip, run_cell):
    ip.user_ns["doc"] = {"users": [{"id": 1, "name": "a"}, {"id": 2}]}
    result = run_cell("%inspect doc --path /users")
    assert result.value["keyPresence"] == {"id": 2, "name": 1}
    bundle, _ = ip.display_formatter.format(result)
    assert bundle["text/plain"].splitlines()[:3] == [
        ".users  array [2]", "  []  object {2 keys}", "    id  number"]
    assert "name  string  (1/2)" in bundle["text/plain"]
    assert "application/json" not in bundle  # Lab shows the readable tree, not the record
    assert "name  string  (1/2)" in bundle["text/html"]


def test_inspect_a_file_with_stats_and_format(ip, tmp_path, run_cell):
    path = tmp_path / "d.json"
    path.write_text(json.dumps([{"a": 1}, {"a": None}]))
    stats = run_cell(f"%inspect {path} --stats")
    assert stats.value["profiles"][".[].a"]["null"] == 1
    assert "Profiles:" in ip.display_formatter.format(stats)[0]["text/plain"]
    schema = run_cell(f"%inspect {path} --format jqschema")
    assert schema.value == [{"a": "number"}]


def test_inspect_errors_are_one_line(ip):
    ip.user_ns["doc"] = {"users": []}
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("inspect", "doc --path /usr")
    assert exc.value.code == "NOT_FOUND"
    assert 'Did you mean "/users"?' in str(exc.value)


def test_inspect_out_and_browse(ip, run_cell):
    ip.user_ns["doc"] = {"k": [1, 2]}
    ip.run_line_magic("inspect", "doc -o shp")
    assert ip.user_ns["shp"]["children"]["k"]["arrayLength"] == 2
    browser = run_cell("%inspect doc --browse")
    assert type(browser).__name__ == "SchemaBrowser"
    browser.select(".k[]")
    assert dict(browser.details)["JSON Pointer"] == "/k/0"


def test_magic_errors_show_without_a_usage_error_prefix(ip):
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jq", "'.' no-such-file.json")
    assert exc.value._render_traceback_() == [str(exc.value)]
    assert str(exc.value).startswith("NOT_FOUND: File not found: no-such-file.json")


def test_an_undefined_variable_is_not_called_a_missing_file(ip):
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jq", "'.' undefined_var")
    assert str(exc.value).startswith("NOT_FOUND: undefined_var is neither a Python variable "
                                     "nor a file.")


def test_to_json_keeps_the_bound_line_beside_the_viewer(ip, monkeypatch):
    shown = []
    monkeypatch.setattr(ip.display_pub, "publish",
                        lambda data, metadata=None, **kw: shown.append(data))
    ip.user_ns["many"] = [{"i": i} for i in range(150)]
    ip.run_cell("%jq '.[]' many --to json")
    assert "Showing 100 of 150 results" in shown[0]["text/html"]
    assert shown[1]["application/json"][:2] == [{"i": 0}, {"i": 1}]


def test_an_unclosed_parenthesis_is_told_to_close_it(ip):
    ip.user_ns["doc"] = {"a": 1}
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("jq", "'(.a' doc")
    assert "close every (, [, {" in str(exc.value) and "quote keys" not in str(exc.value)


def test_to_json_opens_the_first_values_rather_than_a_hundred_closed_rows(ip, monkeypatch):
    from jqmagic.notebook.display import VIEWER_LINES

    shown = []
    monkeypatch.setattr(ip.display_pub, "publish",
                        lambda data, metadata=None, **kw: shown.append((data, metadata)))
    ip.user_ns["many"] = [{"i": i, "tags": ["a", "b"]} for i in range(150)]
    ip.run_cell("%jq '.[]' many --to json")
    (note, _), (viewer, metadata) = shown
    values = viewer["application/json"]
    assert values[:2] == ip.user_ns["many"][:2] and 1 < len(values) < 100
    assert metadata["application/json"]["expanded"] is True  # opened all the way down
    lines = sum(json.dumps(v, indent=1).count("\n") + 1 for v in values)
    assert lines <= VIEWER_LINES
    assert (f"The viewer opens the first {len(values)} results of the 100 shown"
            in note["text/plain"]), note
    assert "Showing 100 of 150 results" in note["text/plain"]
    shown.clear()
    ip.run_cell("%jq '.[0]' many --to json")  # one value that fits: opened, no note
    ((viewer, metadata),) = shown
    assert viewer["application/json"] == ip.user_ns["many"][0]
    assert metadata["application/json"]["expanded"] is True
    shown.clear()
    ip.user_ns["wide"] = {f"k{i}": [i, i] for i in range(300)}
    ip.run_cell("%jq '.' wide --to json")  # one value past the lines: its keys, closed
    ((viewer, metadata),) = shown
    assert metadata["application/json"]["expanded"] is False
