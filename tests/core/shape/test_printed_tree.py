"""``print(jqmagic.shape(...))`` in a terminal shows the same text tree the notebook shows
(names, types, lengths, presence), not the one-line repr; repr() stays one line."""

from __future__ import annotations

import jqmagic
from jqmagic.notebook.display import shape_bundle

DOC = {"users": [{"name": "a", "age": 3}, {"name": "b", "tags": ["x"]}], "n": 1}


def test_print_shows_the_tree_the_notebook_shows(capsys):
    result = jqmagic.shape(value=DOC)
    print(result)
    printed = capsys.readouterr().out.rstrip("\n")
    lines = printed.splitlines()
    assert lines[0] == ".  object {2 keys}"
    assert "  users  array [2]" in lines and "      age  number  (1/2)" in lines
    assert printed == shape_bundle(result)[0]["text/plain"]
    assert "\n" not in repr(result) and repr(result).startswith("<ShapeResult shape")


def test_other_formats_print_their_json():
    result = jqmagic.shape(value=DOC, format="jqschema")
    assert str(result) == result.text
