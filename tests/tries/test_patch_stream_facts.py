"""An edit of a stream's documents says their count in the error's facts (the core knows
it), and %jsonpatch reads it there: it no longer loads the file again to count them, nor
reads the core's words."""

from __future__ import annotations

import pickle

import pytest

import jqmagic
from jqmagic import JqMagicError


@pytest.mark.parametrize("name, text, noun", [
    ("three.yaml", "a: 1\n---\nb: 2\n---\nc: 3\n", "document"),
    ("three.jsonl", '{"a": 1}\n{"b": 2}\n{"c": 3}\n', "line"),
])
@pytest.mark.parametrize("op, path", [("remove", "/7"), ("remove", "/7/a"),
                                      ("remove", "/1"), ("replace", "")])
def test_the_cores_stream_errors_hold_the_count(tmp_path, name, text, noun, op, path):
    target = tmp_path / name
    target.write_text(text)
    with pytest.raises(JqMagicError) as caught:
        if op == "replace":
            jqmagic.patch(str(target), op="set", path=path, value={})
        else:
            jqmagic.patch(str(target), op=op, path=path)
    assert caught.value.facts == {"documents": 3, "noun": noun}
    again = JqMagicError.from_wire(caught.value.to_wire())
    assert again.facts == caught.value.facts == pickle.loads(pickle.dumps(again)).facts
    assert target.read_text() == text


def test_a_single_documents_array_has_no_stream_facts(tmp_path):
    (tmp_path / "arr.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(JqMagicError) as caught:
        jqmagic.patch(str(tmp_path / "arr.yaml"), op="remove", path="/5")
    assert caught.value.facts == {}


def test_jsonpatch_counts_from_the_error_not_from_the_file(ip, tmp_path, monkeypatch):
    from IPython.core.error import UsageError

    from jqmagic.core.sources import load

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(load, "load_values", lambda *a, **k: pytest.fail("file read again"))
    (tmp_path / "one.jsonl").write_text('{"a": 1}\n')
    with pytest.raises(UsageError) as caught:  # one line: the core's said "Array length"
        ip.run_line_magic("jsonpatch", "one.jsonl remove /5")
    assert str(caught.value).startswith("NOT_FOUND: one.jsonl has no line 5: it holds 1 "
                                        "line, /0."), str(caught.value)
