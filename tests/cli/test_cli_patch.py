"""Golden runs of ``jqmagic patch``: the result as JSON on stdout, exit 1 with an error object."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SETTINGS = """{
  // editor settings
  "editor.fontSize": 14,
  "files.exclude": {"**/.git": true},
  "servers": [
    {"name": "a", "port": 8080},
    {"name": "b", "port": 8081},
  ],
}
"""


def jqmagic(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jqmagic", "patch", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def ok(run: subprocess.CompletedProcess) -> dict:
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


@pytest.fixture
def settings(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(SETTINGS)
    return path


def test_set_prints_the_result_and_keeps_comments(settings):
    result = ok(jqmagic(str(settings), "set", "/editor.fontSize", "16"))
    assert result == {"status": "success", "operation": "set", "targetPath": "/editor.fontSize",
                      "previousValue": 14, "newValue": 16, "matched": 1, "changed": True}
    assert settings.read_text() == SETTINGS.replace("14", "16")


def test_match_where_with_a_lone_value(settings):
    result = ok(jqmagic(str(settings), "set", '{"port": 9090}', "--match", "/servers",
                        "--where", '{"name": "b"}'))
    assert result["targetPath"] == "/servers/1/port" and result["previousValue"] == 8081
    assert '{"name": "b", "port": 9090},\n' in settings.read_text()


def test_remove_all_matches_and_insert(settings):
    ok(jqmagic(str(settings), "insert", "/servers/0", '{"name": "z", "port": 1}'))
    result = ok(jqmagic(str(settings), "remove", "--match", "/servers", "--where",
                        '{"name": "a"}', "--every"))
    assert result["matched"] == 1 and result["targetPath"] == "/servers/1"
    assert '"servers": [\n    {"name": "z", "port": 1},\n    {"name": "b", "port": 8081},\n' \
        in settings.read_text()


def test_dry_run_prints_a_readable_diff_and_writes_nothing(settings):
    run = jqmagic(str(settings), "merge", "/files.exclude", '{"dist": true}', "--dry-run")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[:4] == ["merge /files.exclude/dist: null -> true",
                         "Dry run: nothing was written.", f"--- a/{settings.name}",
                         f"+++ b/{settings.name}"]
    assert '+  "files.exclude": {"**/.git": true, "dist": true},' in lines
    result = ok(jqmagic(str(settings), "merge", "/files.exclude", '{"dist": true}', "--dry-run",
                        "--json"))
    assert result["dryRun"] is True and "\n".join(lines[2:]) + "\n" == result["diff"]
    assert settings.read_text() == SETTINGS


def test_rfc6902_and_merge_patch_from_files_and_stdin(settings, tmp_path):
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"op": "test", "path": "/servers/0/port", "value": 8080},
                               {"op": "copy", "from": "/servers/0", "path": "/servers/-"}]))
    result = ok(jqmagic(str(settings), "--rfc6902", str(ops)))
    assert result["operation"] == "rfc6902" and result["targetPath"][1] == "/servers/2"
    merged = ok(jqmagic(str(settings), "--merge-patch", "-", stdin='{"files.exclude": null}'))
    assert merged["targetPath"] == "/files.exclude"
    assert "files.exclude" not in settings.read_text()
    assert "// editor settings" in settings.read_text()


def test_errors_are_a_json_object_and_exit_1(settings):
    run = jqmagic(str(settings), "set", "/servers/9", "{}")
    assert run.returncode == 1
    assert json.loads(run.stdout) == {
        "status": "error", "code": "NOT_FOUND",
        "message": "Path '/servers/9' not found. Array length is 2.",
        "suggestion": "Use '/servers/-' to append, --match or jqmagic inspect FILE "
                      "--path '/servers'."}
    bad_value = json.loads(jqmagic(str(settings), "set", "/a", "dark").stdout)
    assert bad_value["code"] == "INVALID_JSON" and "double quotes" in bad_value["suggestion"]
    failed = json.loads(jqmagic(str(settings), "--rfc6902", str(settings.parent / "no.json")
                                ).stdout)
    assert failed["code"] == "NOT_FOUND"  # read as every source is, with its hint
    assert settings.read_text() == SETTINGS


def test_patch_is_exported():
    import jqmagic
    from jqmagic.core.patch import patch

    assert jqmagic.patch is patch and "patch" in jqmagic.__all__


def test_big_values_are_not_printed(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"rows": list(range(5000))}))
    result = ok(jqmagic(str(path), "remove", "/rows"))
    assert result["previousValue"] == (
        "<array of 5,000 members, 28,890 characters of JSON: not shown>")
    assert json.loads(path.read_text()) == {}


MANIFESTS = "# two documents\nkind: Deployment\nspec:\n  replicas: 2  # floor\n---\nkind: Service\n"


def test_yaml_files_are_patched_and_edited_by_jq_in_place(tmp_path):
    path = tmp_path / "deploy.yaml"
    path.write_text(MANIFESTS)
    result = ok(jqmagic(str(path), "set", "/0/spec/replicas", "3"))
    assert result["previousValue"] == 2 and result["targetPath"] == "/0/spec/replicas"
    assert path.read_text() == MANIFESTS.replace("replicas: 2", "replicas: 3")
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "-i", "--dry-run",
                          '.metadata.name = "web"', str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert "deploy.yaml: 2 values changed (dry run: nothing written)" in run.stdout
    assert "+metadata:\n+  name: web\n" in run.stdout
    assert path.read_text() == MANIFESTS.replace("replicas: 2", "replicas: 3")
    error = jqmagic(str(path), "remove", "/1")
    assert error.returncode == 1 and json.loads(error.stdout)["code"] == "INVALID_ARGUMENT"
