"""jq's missing -i (patch/inplace.py): each file edited on its own, each outcome said."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.inplace import edit_files, edit_in_place
from jqmagic.core.patch.result import PatchResult


@pytest.fixture
def files(tmp_path):
    for name, text in (("a.json", '{"n": 1}\n'), ("b.json", '{"n": "x"}\n')):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_each_file_gives_its_result_or_its_error(files):
    outcomes = dict(edit_files(".n += 1", [str(files / "*.json")]))
    assert isinstance(outcomes[str(files / "a.json")], PatchResult)
    assert outcomes[str(files / "b.json")].code == "QUERY_ERROR"
    assert (files / "a.json").read_text() == '{"n": 2}\n'
    assert (files / "b.json").read_text() == '{"n": "x"}\n'


def test_the_lines_say_each_file_in_the_face_s_words(files):
    lines, ok = edit_in_place(".n += 1", [str(files / "*.json")], dry_run=True)
    assert not ok and lines[0] == f"{files / 'a.json'}: 1 value changed (dry run: nothing "\
        "written)"
    assert '+{"n": 2}' in lines[1] and (files / "a.json").read_text() == '{"n": 1}\n'
    said = "\n".join(lines[2:])
    assert said.startswith(f"{files / 'b.json'}: QUERY_ERROR: ") and "\nhint: " in said
    notebook, _ = edit_in_place(".n += 1", [str(files / "b.json")], False, "notebook")
    assert "\nHint: " in "\n".join(notebook)


def test_a_missing_file_is_its_own_failure_and_no_file_is_refused(files):
    lines, ok = edit_in_place(".", [str(files / "none.json"), str(files / "a.json")], False)
    assert not ok and "NOT_FOUND" in lines[0] and lines[1].endswith(": 0 values changed")
    with pytest.raises(JqMagicError) as info:
        edit_in_place(".", [], False)
    assert info.value.code == "INVALID_ARGUMENT"
