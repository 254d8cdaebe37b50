"""json_patch's refusal of a set that looks like a mistake says the new value's JSON type
(it said Python's: "with a int value", "a NoneType"), and the whole document as the root
(it said "at /", which is the pointer to the key "")."""

from __future__ import annotations

import pytest

from jqmagic.tools import call


@pytest.mark.parametrize("value, said", [("1", "with a number."), ('"s"', "with a string."),
                                         ("true", "with a boolean."), ("null", "with null."),
                                         ("[]", "with an array of 0 elements.")])
def test_the_new_value_in_json_words(tmp_path, value, said):
    (tmp_path / "a.json").write_text('{"a": 1, "b": 2}\n')
    answer = call("json_patch", {"filePath": str(tmp_path / "a.json"), "operation": "set",
                                 "path": "", "value": value}, allow_root=[str(tmp_path)])
    assert answer["error_code"] == "PATCH_CONFLICT"
    assert answer["error"].startswith("This set would replace the object at the root (")
    assert answer["error"].endswith(said)
    assert (tmp_path / "a.json").read_text() == '{"a": 1, "b": 2}\n'
