"""A missing file's hint names only files whose names are like it (a typo, another
suffix), never any file that merely shares the suffix (issue 42)."""

from __future__ import annotations

import pytest

from jqmagic import JqMagicError
from jqmagic.core.sources.files import resolve_files


@pytest.fixture
def folder(tmp_path):
    for name in ("out.json", "u.json", "nums.json", "users.json", "users.yaml", "orders.jsonl",
                 "x.py", "x.yml"):
        (tmp_path / name).write_text("1")
    (tmp_path / "usres").mkdir()  # a folder is no answer
    return tmp_path


@pytest.mark.parametrize("name, suggested", [
    ("nosuch.json", []),
    ("usres.json", ["users.json", "users.yaml"]),
    ("users.jsn", ["users.json", "users.yaml"]),
    ("order.jsonl", ["orders.jsonl"]),
    ("x.json", ["x.yml"]),
    ("y.json", []),
])
def test_a_missing_file_suggests_only_names_like_it(folder, name, suggested):
    with pytest.raises(JqMagicError) as info:
        resolve_files(str(folder / name))
    assert info.value.code == "NOT_FOUND"
    hint = info.value.hint
    if suggested:
        assert hint == "Did you mean " + ", ".join(str(folder / s) for s in suggested) + "?"
    else:
        assert "Did you mean" not in hint


@pytest.mark.parametrize("named", ["data", "data/", "data//"])
def test_a_directory_is_offered_a_glob_inside_it(tmp_path, monkeypatch, named):
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(JqMagicError) as caught:
        resolve_files(named)
    assert caught.value.code == "FILE_ERROR"
    assert "data/*.json" in caught.value.raw_hint and "//" not in caught.value.raw_hint
