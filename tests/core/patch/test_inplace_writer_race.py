"""A writer that rewrites the file in place (no lock) just after the last check and before
the replace: its update is kept and the patch says PATCH_CONFLICT."""

from __future__ import annotations

import json

import pytest

from jqmagic import JqMagicError, patch
from jqmagic.core.patch import targets


def test_an_in_place_write_during_the_replace_is_kept(tmp_path, monkeypatch):
    path = tmp_path / "config.json"
    path.write_text('{"version": "1.0", "name": "demo"}\n')
    theirs = '{"version": "9.9", "name": "theirs"}\n'
    real = targets._check_unchanged

    def check_then_someone_writes(*args):
        real(*args)
        with open(path, "r+") as other:  # the same inode, no lock taken
            other.write(theirs)
            other.truncate()

    monkeypatch.setattr(targets, "_check_unchanged", check_then_someone_writes)
    with pytest.raises(JqMagicError) as info:
        patch(str(path), "set", "/version", "2.0")
    assert info.value.code == "PATCH_CONFLICT"
    assert path.read_text() == theirs and json.loads(path.read_text())["name"] == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]  # no temp left


def test_without_a_writer_the_patch_lands(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"version": "1.0"}\n')
    patch(str(path), "set", "/version", "2.0")
    assert json.loads(path.read_text()) == {"version": "2.0"}
