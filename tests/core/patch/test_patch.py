"""patch(): every operation and targeting on real files and on Python values; nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch
from jqmagic.core.patch import targets as patch_module
from jqmagic.core.words import json_equal

USERS = """{
  "config": {
    "theme": "light",
    "timeout": 1.50,
    "db": {"host": "localhost", "port": 5432}
  },
  "users": [
    {"id": "u1", "name": "Ann", "status": "new"},
    {"id": "u2", "name": "Bob", "status": "new"},
    {"id": "u3", "name": "Cy", "status": "active"}
  ]
}
"""


@pytest.fixture
def users(tmp_path: Path) -> Path:
    target = tmp_path / "users.json"
    target.write_text(USERS, "utf-8")
    return target


def read(path: Path):
    return json.loads(path.read_text("utf-8"))


def fails(code: str, *args, **kwargs) -> JqMagicError:
    with pytest.raises(JqMagicError) as caught:
        patch(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------------------------ set


def test_set_replaces_and_reports(users):
    result = patch(users, "set", "/config/theme", "dark")
    assert result == {
        "status": "success", "operation": "set", "targetPath": "/config/theme",
        "previousValue": "light", "newValue": "dark", "matched": 1, "changed": True,
    }
    assert users.read_text() == USERS.replace('"light"', '"dark"')


def test_set_creates_missing_parents(users):
    result = patch(users, "set", "/config/cache/ttl", 60)
    assert result["targetPath"] == "/config/cache/ttl" and result["previousValue"] is None
    assert read(users)["config"]["cache"] == {"ttl": 60}
    patch(users, "set", "/config/plugins/-/name", "x")
    assert read(users)["config"]["plugins"] == [{"name": "x"}]


def test_set_appends_with_dash_and_at_the_length(users):
    assert patch(users, "set", "/users/-", {"id": "u4"})["targetPath"] == "/users/3"
    assert patch(users, "set", "/users/4", {"id": "u5"})["targetPath"] == "/users/4"
    assert [u["id"] for u in read(users)["users"]] == ["u1", "u2", "u3", "u4", "u5"]


def test_set_past_the_end_says_the_length(users):
    error = fails("NOT_FOUND", users, "set", "/users/9999", {})
    assert error.message == "Path '/users/9999' not found. Array length is 3."
    assert "--match or %inspect SOURCE --path '/users'" in error.hint
    assert users.read_text() == USERS


def test_set_an_equal_value_leaves_the_file_alone(users):
    mtime = users.stat().st_mtime_ns
    result = patch(users, "set", "/config/timeout", 1.5)
    assert result["changed"] is False
    assert users.read_text() == USERS and users.stat().st_mtime_ns == mtime


def test_set_null_is_a_value(users):
    patch(users, "set", "/config/theme", None)
    assert read(users)["config"]["theme"] is None


# ------------------------------------------------------------------ insert / remove


def test_insert_shifts_right(users):
    result = patch(users, "insert", "/users/1", {"id": "new"})
    assert result["targetPath"] == "/users/1"
    assert [u["id"] for u in read(users)["users"]] == ["u1", "new", "u2", "u3"]


def test_insert_needs_an_array(users):
    error = fails("INVALID_ARGUMENT", users, "insert", "/config/x", 1)
    assert "is an object, not an array" in error.message and "set" in error.hint
    fails("NOT_FOUND", users, "insert", "/users/7", 1)


def test_remove_shifts_left_and_returns_the_old_value(users):
    result = patch(users, "remove", "/users/0")
    assert result["previousValue"] == {"id": "u1", "name": "Ann", "status": "new"}
    assert result["newValue"] is None
    assert [u["id"] for u in read(users)["users"]] == ["u2", "u3"]
    assert '\n    {"id": "u2", "name": "Bob", "status": "new"},\n' in users.read_text()


def test_remove_errors(users):
    error = fails("NOT_FOUND", users, "remove", "/config/them")
    assert error.hint.startswith('Did you mean "/config/theme"?')
    fails("INVALID_ARGUMENT", users, "remove", "")
    assert users.read_text() == USERS


# ------------------------------------------------------------------ merge


def test_merge_is_deep_and_never_deletes(users):
    value = {"db": {"port": 6543, "user": "me"}, "theme": "light"}
    result = patch(users, "merge", "/config", value)
    assert result["targetPath"] == ["/config/db/port", "/config/db/user"]
    assert result["previousValue"] == [5432, None]
    assert read(users)["config"] == {
        "theme": "light", "timeout": 1.5,
        "db": {"host": "localhost", "port": 6543, "user": "me"},
    }
    assert '"timeout": 1.50' in users.read_text()


def test_merge_errors(users):
    fails("INVALID_ARGUMENT", users, "merge", "/config/theme", {"a": 1})
    fails("INVALID_ARGUMENT", users, "merge", "/config", [1])


def test_merge_patch_deletes_with_null(users):
    patch(users, merge_patch={"config": {"db": None, "theme": "dark"}})
    assert read(users)["config"] == {"theme": "dark", "timeout": 1.5}


# ------------------------------------------------------------------ match


def test_match_sets_each_key_of_the_first_match(users):
    result = patch(users, "set", value={"status": "active", "email": "b@x"}, match="/users",
                   where={"status": "new"})
    assert result["matched"] == 1
    assert result["targetPath"] == ["/users/0/status", "/users/0/email"]
    assert read(users)["users"][0] == {"id": "u1", "name": "Ann", "status": "active",
                                       "email": "b@x"}
    assert read(users)["users"][1]["status"] == "new"


def test_match_all_with_a_path_inside_the_element(users):
    result = patch(users, "set", "/status", "gone", match="/users", where={"status": "new"},
                   every=True)
    assert result["matched"] == 2 and result["targetPath"] == ["/users/0/status",
                                                               "/users/1/status"]
    assert [u["status"] for u in read(users)["users"]] == ["gone", "gone", "active"]


def test_match_remove_all(users):
    result = patch(users, "remove", match="/users", where={"status": "new"}, every=True)
    assert result["targetPath"] == ["/users/0", "/users/1"]
    assert [u["id"] for u in read(users)["users"]] == ["u3"]


def test_match_insert_before_each(users):
    result = patch(users, "insert", value={"id": "x"}, match="/users", where={"status": "new"},
                   every=True)
    assert result["targetPath"] == ["/users/0", "/users/2"]
    assert [u["id"] for u in read(users)["users"]] == ["x", "u1", "x", "u2", "u3"]


def test_match_merge(users):
    patch(users, "merge", value={"tags": ["a"]}, match="/users", where={"id": "u3"})
    assert read(users)["users"][2]["tags"] == ["a"]


def test_match_compares_json_types_and_sees_through_escapes(tmp_path):
    target = tmp_path / "m.json"
    target.write_text('[{"id": "\\u0075\\u0031", "n": 5.0, "ok": true}, {"id": 1}]')
    assert patch(target, "set", "/hit", 1, match="", where={"id": "u1"})["matched"] == 1
    assert patch(target, "set", "/hit", 2, match="", where={"n": 5, "ok": True})["matched"] == 1
    error = fails("NOT_FOUND", target, "remove", match="", where={"id": "1"})
    assert "'5' is not 5" in error.hint


def test_match_errors(users):
    fails("INVALID_ARGUMENT", users, "set", value=1, match="/config", where={"a": 1})
    fails("INVALID_ARGUMENT", users, "set", value=1, match="/users", where={"id": "u1"})
    fails("INVALID_ARGUMENT", users, "remove", match="/users")
    assert users.read_text() == USERS


# ------------------------------------------------------------------ RFC 6902, all or nothing


def test_rfc6902_applies_whole_or_not_at_all(users):
    ops = [{"op": "replace", "path": "/config/theme", "value": "dark"},
           {"op": "remove", "path": "/nope"}]
    error = fails("NOT_FOUND", users, rfc6902=ops)
    assert error.message.startswith("Operation 1 of the patch failed")
    assert users.read_text() == USERS
    ops = [{"op": "test", "path": "/users/0/id", "value": "u1"},
           {"op": "move", "from": "/users/0", "path": "/users/-"},
           {"op": "copy", "from": "/config/db", "path": "/backup"}]
    result = patch(users, rfc6902=ops)
    assert result["operation"] == "rfc6902" and result["matched"] == 3
    assert [u["id"] for u in read(users)["users"]] == ["u2", "u3", "u1"]


def test_move_and_copy_keep_the_text_as_written(tmp_path):
    target = tmp_path / "prices.jsonc"
    target.write_text('{\n  "a": {\n    "price": 1.50, // dollars\n    "name": "caf\\u00e9"\n  },\n'
                      '  "b": {\n    "deep": {}\n  },\n  "c": [1.0]\n}\n')
    patch(target, rfc6902=[{"op": "move", "from": "/a", "path": "/b/deep/a"},
                           {"op": "copy", "from": "/b/deep/a/price", "path": "/c/-"}])
    assert target.read_text() == (
        '{\n  "b": {\n    "deep": {\n      "a": {\n        "price": 1.50, // dollars\n'
        '        "name": "caf\\u00e9"\n      }\n    }\n  },\n  "c": [1.0, 1.50]\n}\n')


def test_a_failed_test_op_is_a_conflict(users):
    error = fails("PATCH_CONFLICT", users, rfc6902=[
        {"op": "test", "path": "/config/theme", "value": "dark"}])
    assert '"light"' in error.message


def test_malformed_rfc6902(users):
    fails("INVALID_ARGUMENT", users, rfc6902=[{"op": "spam", "path": "/a"}])
    fails("INVALID_ARGUMENT", users, rfc6902=[{"op": "add", "path": "/a"}])
    fails("INVALID_POINTER", users, rfc6902=[{"op": "add", "path": None, "value": 1}])
    fails("INVALID_ARGUMENT", users, rfc6902={"op": "add"})


failing_ops = st.lists(st.sampled_from([
    {"op": "replace", "path": "/config/theme", "value": "x"},
    {"op": "add", "path": "/users/0", "value": {"id": "z"}},
    {"op": "remove", "path": "/users/1"},
    {"op": "move", "from": "/config/db", "path": "/db"},
    {"op": "add", "path": "/config/db/extra", "value": [1, {"b": None}]},
]), max_size=5)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=failing_ops, last=st.sampled_from([
    {"op": "remove", "path": "/missing"}, {"op": "test", "path": "/config/theme", "value": 0},
    {"op": "add", "path": "/users/99", "value": 1}, {"op": "replace", "path": "/users/-"},
]))
def test_property_a_failed_patch_leaves_the_bytes_identical(users, ops, last):
    users.write_text(USERS)
    with pytest.raises(JqMagicError):
        patch(users, rfc6902=ops + [last])
    assert users.read_text() == USERS
    assert no_temp_files(users.parent)


# ------------------------------------------------------------------ dry run, conflicts, writes


def test_dry_run_shows_a_diff_and_writes_nothing(users):
    result = patch(users, "set", "/users/1/status", "active", dry_run=True)
    assert users.read_text() == USERS
    assert result["dryRun"] is True and result["changed"] is True
    assert result["diff"].startswith("--- a/users.json\n+++ b/users.json\n@@ -6,")
    assert '-    {"id": "u2", "name": "Bob", "status": "new"},' in result["diff"]
    assert '+    {"id": "u2", "name": "Bob", "status": "active"},' in result["diff"]


def test_dry_run_of_several_edits(users):
    result = patch(users, rfc6902=[
        {"op": "replace", "path": "/config/theme", "value": "dark"},
        {"op": "remove", "path": "/users/2"}], dry_run=True)
    assert users.read_text() == USERS
    lines = result["diff"].splitlines()[2:]
    assert sum(x.startswith("-") for x in lines) == 3 and sum(x.startswith("+") for x in lines) == 2
    assert '+    "theme": "dark",' in result["diff"]
    assert '+    {"id": "u2", "name": "Bob", "status": "new"}\n' in result["diff"]


def test_a_file_changed_meanwhile_is_a_conflict(users, monkeypatch):
    read_file = patch_module._read

    def read_then_someone_writes(path):
        found = read_file(path)
        path.write_text(USERS.replace("Ann", "Anne"))
        return found

    monkeypatch.setattr(patch_module, "_read", read_then_someone_writes)
    error = fails("PATCH_CONFLICT", users, "set", "/config/theme", "dark")
    assert "changed on disk" in error.message
    assert "Anne" in users.read_text() and '"light"' in users.read_text()
    assert no_temp_files(users.parent)


def test_the_mode_is_kept_and_symlinks_stay_links(users):
    users.chmod(0o640)
    link = users.parent / "link.json"
    link.symlink_to(users)
    patch(link, "set", "/config/theme", "dark")
    assert link.is_symlink() and read(users)["config"]["theme"] == "dark"
    assert users.stat().st_mode & 0o777 == 0o640


def test_a_failed_write_keeps_the_original(users, monkeypatch):
    def refuse(*_):
        raise PermissionError(13, "Permission denied")

    from jqmagic.core.patch import targets

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr(targets, "_exchange", refuse)  # the swap under a write lease
    error = fails("FILE_ERROR", users, "set", "/config/theme", "dark")
    assert "Permission denied" in error.message
    assert users.read_text() == USERS and no_temp_files(users.parent)


def test_a_read_only_file_is_refused(users, monkeypatch):
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # root may write anything
    assert "read-only" in fails("FILE_ERROR", users, "set", "/config/theme", "dark").message
    assert users.read_text() == USERS
    assert patch(users, "set", "/config/theme", "dark", dry_run=True)["changed"] is True


def test_rfc6902_reports_what_each_op_replaced(users):
    result = patch(users, rfc6902=[
        {"op": "add", "path": "/users/0", "value": {"id": "u0"}},
        {"op": "add", "path": "/config/theme", "value": "dark"},
        {"op": "add", "path": "/config/new", "value": 1}])
    assert result["previousValue"] == [None, "light", None]
    assert result["targetPath"] == ["/users/0", "/config/theme", "/config/new"]
    doc = {"a": [1]}
    with pytest.raises(JqMagicError) as caught:
        patch(doc, rfc6902=[{"op": "replace", "path": "/a/-", "value": 2}])
    assert caught.value.code == "NOT_FOUND" and doc == {"a": [1]}


def test_home_is_expanded(users, monkeypatch):
    monkeypatch.setenv("HOME", str(users.parent))
    patch("~/users.json", "set", "/config/theme", "dark")
    assert read(users)["config"]["theme"] == "dark"


def test_file_errors(tmp_path, users):
    fails("NOT_FOUND", tmp_path / "none.json", "remove", "/a")
    fails("FILE_ERROR", tmp_path, "remove", "/a")
    (tmp_path / "c.yaml").write_text("a: [1, 2\n")
    assert "c.yaml" in fails("INVALID_YAML", tmp_path / "c.yaml", "remove", "/a").message
    assert (tmp_path / "c.yaml").read_text() == "a: [1, 2\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,\n "b": }\n')
    error = fails("INVALID_JSON", bad, "set", "/a", 2)
    assert error.message.startswith(f"Cannot patch {bad}: Invalid JSON at line 2, column 7")
    assert bad.read_text() == '{"a": 1,\n "b": }\n'
    fails("INVALID_ARGUMENT", users, "set", "/a", float("nan"))
    assert users.read_text() == USERS


# ------------------------------------------------------------------ arguments


@pytest.mark.parametrize(("args", "kwargs", "fragment"), [
    (("upsert", "/a", 1), {}, "Use one of: set, insert, remove, merge"),
    (("remove", "/a", 1), {}, "remove takes no value"),
    (("set", "/a"), {}, "set needs a value"),
    (("set",), {"value": 1}, "set needs a path or --match"),
    ((), {}, "Give exactly one of"),
    (("set", "/a", 1), {"merge_patch": {}}, "Give exactly one of"),
])
def test_bad_arguments_are_refused_before_reading(args, kwargs, fragment, tmp_path):
    with pytest.raises(JqMagicError) as caught:
        patch(tmp_path / "never-read.json", *args, **kwargs)
    assert caught.value.code == "INVALID_ARGUMENT"
    assert fragment in caught.value.message + caught.value.hint
    fails("INVALID_POINTER", {}, "set", "a/b", 1)
    fails("INVALID_ARGUMENT", 42, "set", "/a", 1)


# ------------------------------------------------------------------ Python values


def test_values_are_edited_in_place():
    db = {"host": "x"}
    doc = {"config": {"db": db}, "users": [{"id": 1}]}
    result = patch(doc, "set", "/config/db/port", 1)
    assert doc["config"]["db"] is db and db == {"host": "x", "port": 1}
    assert result["changed"] is True
    assert patch(doc, "remove", "/users/0")["previousValue"] == {"id": 1}
    assert doc["users"] == []


def test_a_failed_patch_rolls_a_value_back():
    doc = {"a": 1, "b": [1, 2], "c": {"d": 1}}
    with pytest.raises(JqMagicError):
        patch(doc, rfc6902=[{"op": "remove", "path": "/a"}, {"op": "add", "path": "/b/0",
                                                              "value": 0},
                            {"op": "replace", "path": "", "value": {"x": 1}},
                            {"op": "remove", "path": "/zzz"}])
    assert doc == {"a": 1, "b": [1, 2], "c": {"d": 1}} and list(doc) == ["a", "b", "c"]


def test_replacing_the_root_of_a_value():
    doc = [1, 2]
    patch(doc, "set", "", [3])
    assert doc == [3]
    error = fails("INVALID_ARGUMENT", doc, "set", "", {"a": 1})
    assert "Assign" in error.hint and doc == [3]


def test_dry_run_on_a_value_changes_nothing():
    doc = {"a": [1]}
    result = patch(doc, "set", "/a/-", 2, dry_run=True)
    assert doc == {"a": [1]}
    assert "+    2\n" in result["diff"]


def test_json_equal():
    assert json_equal(1, 1.0) and json_equal({"a": [1]}, {"a": [1.0]})
    assert not json_equal(True, 1) and not json_equal("1", 1) and not json_equal(None, False)


def test_the_core_does_not_import_ipython():
    code = ("import sys; sys.modules['IPython'] = None; from jqmagic.core.patch import patch; "
            "print(patch({'a': 1}, 'remove', '/a')['status'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "success"


def test_the_documented_example_runs():
    import doctest

    assert doctest.testmod(patch_module).failed == 0


def test_the_summary_says_each_change_matches_and_a_dry_run(tmp_path):
    doc = {"users": [{"id": 1, "s": "a"}, {"id": 2, "s": "b" * 100}]}
    result = patch(doc, "set", "/s", "new", match="/users", where={"id": 2})
    assert result.summary(matched=True) == (
        f'set /users/1/s: "{"b" * 56}... -> "new"\n1 matched.')
    again = patch(doc, "set", "/users/0/s", "a")
    assert again.summary() == 'set /users/0/s: "a" -> "a"\nNo change: the document already ' \
        "holds these values."
    path = tmp_path / "f.json"
    path.write_text('{"a": 1}\n')
    lines = patch(path, "remove", "/a", dry_run=True).summary().splitlines()
    assert lines[:2] == ["remove /a: 1 -> null", "Dry run: nothing was written."]
    assert '-{"a": 1}' in lines
