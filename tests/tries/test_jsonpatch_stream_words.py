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
    assert shown.startswith(f"INVALID_ARGUMENT: {said.format(f=name, n=noun)}"), shown
    assert f"%jsonpatch {name} set /1/KEY VALUE" in shown
    assert (tmp_path / name).read_text() == text
    assert "set /1/a: " in str(ip.run_line_magic("jsonpatch", f"{name} set /1/a 5 --dry-run"))
