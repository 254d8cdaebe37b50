"""-i keeps the non-finite numbers a program left alone (YAML's .inf, -.inf, .nan; JSON's
1e400): jq gives them back as its largest double, or null, which differ from the read
values, so '.x = 2' rewrote 'a: .inf' as 'a: 1.7976931348623157e+308' (a notebook's %jq -i
as 'a: null'), '.nan' as 'null', and a JSON file's 1e400 as null."""

from __future__ import annotations

import jqmagic

YAML = "a: .inf\nb: -.inf\nc: .nan\nd: 1e400\nx: 1\n"


def test_a_yaml_files_infinities_and_nan_are_kept(tmp_path):
    target = tmp_path / "values.yaml"
    target.write_text(YAML)
    done = jqmagic.patch(str(target), jq=".x = 2")
    assert [change.path for change in done.changes] == ["/x"]
    assert target.read_text() == YAML.replace("x: 1", "x: 2")


def test_a_json_files_1e400_is_kept_and_edits_beside_it_land(tmp_path):
    target = tmp_path / "values.json"
    target.write_text('{"a": 1e400, "b": [1e400, -1e400], "x": 1}\n')
    jqmagic.patch(str(target), jq=".x = 2 | .b[1] = 7")
    assert target.read_text() == '{"a": 1e400, "b": [1e400, 7], "x": 2}\n'


def test_a_changed_infinity_is_still_written(tmp_path):
    target = tmp_path / "values.yaml"
    target.write_text(YAML)
    jqmagic.patch(str(target), jq='.a = 1 | .b = "-.inf" | .c = 0')
    assert target.read_text() == 'a: 1\nb: "-.inf"\nc: 0\nd: 1e400\nx: 1\n'


def test_an_infinity_set_to_null_is_written(tmp_path):
    """null is how NaN prints, not how an untouched infinity comes back (jq gives its largest
    double): '.a = null' on 'a: .inf' is an edit, and is written."""
    target = tmp_path / "values.yaml"
    target.write_text(YAML)
    jqmagic.patch(str(target), jq=".a = null")
    assert target.read_text() == YAML.replace("a: .inf", "a: null")
