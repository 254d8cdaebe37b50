"""Edits by a jq program (jq's missing -i): only the values that differ are written, every
other byte stays; a program that fails or gives no single value changes nothing."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic import JqMagicError, patch
from jqmagic.core.patch.jqdiff import differences
from jqmagic.core.patch.steps import insert_at, remove_at, set_at
from jqmagic.core.patch.stores import TreeStore
from tests.shared import CORPUS_JSON

JSONC = """{
  // the release, edited by hand
  "name": "demo",
  "version": "1.0",   /* keep me */
  "price": 1.50,
  "deps": [1, 2],
  "nested": {"a": 1, "b": [true, null]},
}
"""

values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                 max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_the_differences_turn_old_into_new(old, new):
    root = {"doc": json.loads(json.dumps(old))}
    store = TreeStore(root)
    for op, tokens, value in differences(old, new, ["doc"]):
        {"set": set_at, "insert": insert_at}[op](store, tokens, value) if op != "remove" \
            else remove_at(store, tokens)
    store.settle(root)
    assert root["doc"] == new


def test_only_the_changed_values_are_written(tmp_path):
    path = tmp_path / "release.jsonc"
    path.write_text(JSONC)
    result = patch(path, jq='.version = "2.0" | .deps += [3] | .nested.b[1] = 0')
    text = path.read_text()
    assert result.changed and result.operation == "jq"
    assert text == (JSONC.replace('"1.0"', '"2.0"').replace("[1, 2]", "[1, 2, 3]")
                    .replace("[true, null]", "[true, 0]"))


def test_a_failing_or_many_valued_program_changes_nothing(tmp_path):
    path = tmp_path / "release.jsonc"
    path.write_text(JSONC)
    before = path.read_bytes()
    for program, code in (('.version, .name', "QUERY_ERROR"), ("empty", "QUERY_ERROR"),
                          ('.name + 1', "QUERY_ERROR"), (".[", "INVALID_QUERY")):
        with pytest.raises(JqMagicError) as info:
            patch(path, jq=program)
        assert info.value.code == code
        assert path.read_bytes() == before


def test_dry_run_shows_a_diff_and_writes_nothing(tmp_path):
    path = tmp_path / "release.jsonc"
    path.write_text(JSONC)
    result = patch(path, jq="del(.name)", dry_run=True)
    assert '-  "name": "demo",' in result.diff and path.read_text() == JSONC


def test_the_command_line_and_the_magic(env, tmp_path, ip):
    one, two = tmp_path / "a.json", tmp_path / "b.json"
    one.write_text('{"n": 1}\n')
    two.write_text('{\n    "n":   5\n}\n')
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-i", ".n += 1", str(one),
                          str(two)], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    assert one.read_text() == '{"n": 2}\n' and two.read_text() == '{\n    "n":   6\n}\n'
    shown = ip.run_line_magic("jq", f"-i '.n = 0' {one} --dry-run")
    assert "1 value changed (dry run" in repr(shown) and one.read_text() == '{"n": 2}\n'


@pytest.mark.skipif(not (CORPUS_JSON / "npm").is_dir(), reason=f"corpus not found at "
                    f"{CORPUS_JSON}")
def test_a_real_package_json_keeps_every_other_line(tmp_path):
    path = tmp_path / "package.json"
    shutil.copy(CORPUS_JSON / "npm" / "axios-package.json", path)
    before = path.read_text().splitlines()
    patch(path, jq='.version = "9.9.9" | .scripts.lint = "eslint ."')
    after = path.read_text().splitlines()
    diff = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    removed = [line for line in diff if line.startswith("-")]
    added = [line for line in diff if line.startswith("+")]
    # the version line, and the last script's line, which gains a comma: nothing else
    assert len(removed) == 2 and '"version": "1.7.9"' in removed[0]
    assert len(added) == 3 and any('"lint": "eslint ."' in line for line in added)
    assert json.loads(path.read_text())["scripts"]["lint"] == "eslint ."


def test_a_hard_linked_file_keeps_its_links_and_an_owned_file_its_owner(tmp_path):
    path, other = tmp_path / "a.json", tmp_path / "b.json"
    path.write_text('{"v": 1}\n')
    os.link(path, other)
    inode = path.stat().st_ino
    patch(path, jq=".v = 2")
    assert other.read_text() == '{"v": 2}\n' and path.stat().st_ino == inode
    if os.geteuid() != 0:
        pytest.skip("changing a file's owner needs root (the hard-link half ran)")
    lone = tmp_path / "c.json"
    lone.write_text('{"v": 1}\n')
    os.chown(lone, 4321, 4321)
    patch(lone, jq=".v = 3")
    assert (lone.stat().st_uid, lone.stat().st_gid) == (4321, 4321)
    assert lone.read_text() == '{"v": 3}\n'


def test_equal_parts_are_skipped_but_true_is_not_1():
    old = {"a": [1, {"b": 1, "c": [2.5]}], "d": {"e": "x"}}
    new = {"a": [1, {"b": True, "c": [2.5]}], "d": {"e": "x"}}
    assert list(differences(old, new)) == [("set", ["a", "1", "b"], True)]
    assert list(differences(new, new)) == []
    assert list(differences({"n": 2**70}, {"n": 2**70 + 1})) == [("set", ["n"], 2**70 + 1)]
