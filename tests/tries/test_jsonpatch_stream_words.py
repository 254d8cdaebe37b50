"""``%jsonpatch`` with a pointer past a stream's last document (``set /9`` on a YAML file of
two) said "Cannot replace, add or remove the documents of a YAML stream": it says which
document is missing and how many there are, or which whole document the edit would
replace, add or remove, with an edit inside one as the hint (JSON Lines alike)."""

from __future__ import annotations

import pytest

pytest.importorskip("IPython")


@pytest.mark.parametrize("line, said", [
    ("set /9 3", "{f} has no {n} 9: it holds 2 {n}s, /0 to /1."),
    ("set /9/a/b 1", "{f} has no {n} 9: it holds 2 {n}s, /0 to /1."),
    ("remove /1", "%jsonpatch remove /1 would remove a whole {n} of {f} (2 {n}s, /0 to /1)"),
    ("set /- 3", "%jsonpatch set /- would add a {n} of {f}"),
    ("insert /0 {}", "%jsonpatch insert /0 would add a {n} of {f}"),
    ("remove /5", "{f} has no {n} 5: it holds 2 {n}s, /0 to /1."),  # NOT_FOUND: "Array
    ("remove /5/x", "{f} has no {n} 5: it holds 2 {n}s, /0 to /1."),  # length is 2"
])
@pytest.mark.parametrize("name, text, noun", [
    ("two.yaml", "a: 1\n---\nb: 2\n", "document"),
    ("two.jsonl", '{"a": 1}\n{"b": 2}\n', "line"),
])
def test_stream_edits_say_what_is_wrong(ip, tmp_path, monkeypatch, line, said, name, text,
                                        noun):
    from IPython.core.error import UsageError

    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jsonpatch", f"{name} {line}")
    shown = str(caught.value)
    code = "NOT_FOUND" if line.startswith("remove /5") else "INVALID_ARGUMENT"
    assert shown.startswith(f"{code}: {said.format(f=name, n=noun)}"), shown
    assert f"%jsonpatch {name} set /1/KEY VALUE" in shown
    assert (tmp_path / name).read_text() == text
    assert "set /1/a: " in str(ip.run_line_magic("jsonpatch", f"{name} set /1/a 5 --dry-run"))


def test_a_single_documents_root_array_keeps_the_cores_words(ip, tmp_path, monkeypatch):
    from IPython.core.error import UsageError

    monkeypatch.chdir(tmp_path)
    (tmp_path / "arr.json").write_text("[1, 2]\n")
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jsonpatch", "arr.json remove /5")
    assert str(caught.value).startswith("NOT_FOUND: Path '/5' not found. Array length is 2.")
