"""json_patch says what changed and refuses the edits that look like mistakes (issue 31):
a set that replaces an object or array with a smaller one, a key one typo away from an
existing one; merge changes only the keys it is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from jqmagic.tools import call

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.25
"""


@pytest.fixture
def files(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    (tmp_path / "deploy.yaml").write_text(DEPLOYMENT)
    (tmp_path / "config.json").write_text(json.dumps(
        {"config": {"timeout": 30, "retries": 3}, "users": [{"id": "u1", "spec": {"a": 1,
                                                                                  "b": 2}}]},
        indent=2))
    return tmp_path


def test_a_smaller_object_is_refused_then_merged_or_forced(files):
    path = str(files / "deploy.yaml")
    before = (files / "deploy.yaml").read_text()
    refused = call("json_patch", {"filePath": path, "operation": "set", "path": "/spec",
                                  "value": '{"replicas": 3}'})
    assert refused["error_code"] == "PATCH_CONFLICT" and "an object of 3 keys" in \
        refused["error"] and "operation=merge" in refused["hint"]
    assert (files / "deploy.yaml").read_text() == before  # nothing changed
    merged = call("json_patch", {"filePath": path, "operation": "merge", "path": "/spec",
                                 "value": '{"replicas": 3}'})
    assert merged["success"] and merged["replaced"] == [
        {"path": "/spec/replicas", "from_size": 1, "to_size": 1}]
    doc = yaml.safe_load((files / "deploy.yaml").read_text())
    assert doc["spec"]["replicas"] == 3 and doc["spec"]["template"]["spec"]["containers"]
    forced = call("json_patch", {"filePath": path, "operation": "set", "path": "/spec",
                                 "value": '{"replicas": 3}', "force": True})
    assert forced["success"] and forced["replaced"][0]["path"] == "/spec"
    assert yaml.safe_load((files / "deploy.yaml").read_text())["spec"] == {"replicas": 3}


def test_match_with_a_nested_object_is_refused(files):
    path = str(files / "config.json")
    refused = call("json_patch", {"filePath": path, "operation": "set", "value": {"spec":
                                  {"a": 5}}, "match": {"arrayPath": "/users",
                                                       "where": {"id": "u1"}}})
    assert refused["error_code"] == "PATCH_CONFLICT" and "/users/0/spec" in refused["error"]


def test_a_typo_key_is_refused_with_the_right_path(files):
    path = str(files / "config.json")
    refused = call("json_patch", {"filePath": path, "operation": "set",
                                  "path": "/config/timout", "value": "60"})
    assert refused["error_code"] == "PATCH_CONFLICT"
    assert "Did you mean path /config/timeout?" in refused["hint"]
    fixed = call("json_patch", {"filePath": path, "operation": "set",
                                "path": "/config/timeout", "value": "60"})
    assert fixed["replaced"] == [{"path": "/config/timeout", "from_size": 2, "to_size": 2}]
    assert (fixed["added"], fixed["removed"]) == ([], [])
    new = call("json_patch", {"filePath": path, "operation": "set", "path": "/config/region",
                              "value": '"eu"'})
    assert new["added"] == [{"path": "/config/region", "size": 4}]
    case = call("json_patch", {"filePath": path, "operation": "set", "path": "/config/Retries",
                               "value": "1"})
    assert case["error_code"] == "PATCH_CONFLICT" and "/config/retries" in case["hint"]


def test_removed_paths_and_sizes(files):
    path = str(files / "config.json")
    out = call("json_patch", {"filePath": path, "operation": "remove", "path": "/users"})
    assert out["removed"] == [{"path": "/users", "size": len('[{"id":"u1","spec":{"a":1,'
                                                              '"b":2}}]')}]


def test_a_swapped_letter_in_a_json_lines_key_is_refused(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"name": "a", "value": 1}\n{"name": "b"}\n')
    refused = call("json_patch", {"filePath": str(path), "operation": "set", "path": "/0/nmae",
                                  "value": '"c"'})
    assert refused["error_code"] == "PATCH_CONFLICT" and "/0/name" in refused["hint"]
    numbered = call("json_patch", {"filePath": str(path), "operation": "set",
                                   "path": "/0/value2", "value": "2", "dryRun": True})
    assert numbered["added"] == [{"path": "/0/value2", "size": 1}]  # not a typo of value
