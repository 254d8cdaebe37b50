"""A field named as another tool's spec names it (the tools keep their specs' names: jq's
``query`` is query_yaml's ``yq_expression``, jq's ``file`` json_inspect's ``filePath``) or
spelt in the other case (``dry_run``: ``dryRun``) gets the tool's own name in the hint;
``query`` on query_yaml got no suggestion (an MCP client met it on the shared corpus)."""

from __future__ import annotations

import pytest

from jqmagic import tools


@pytest.mark.parametrize("tool, arguments, meant", [
    ("query_yaml", {"query": ".", "file_path": "x.yaml"}, "yq_expression"),
    ("query_json", {"query": ".", "file_path": "x.json"}, "jq_expression"),
    ("jq", {"program": ".", "file": "x.json"}, "query"),
    ("jq", {"query": ".", "file_path": "x.json"}, "file"),
    ("json_inspect", {"file_path": "x.json"}, "filePath"),
    ("json_inspect", {"file": "x.json"}, "filePath"),
    ("json_patch", {"filePath": "x.json", "operation": "set", "path": "/a", "value": 1,
                    "dry_run": True}, "dryRun"),
    ("read_file", {"file": "x.txt"}, "file_path"),
    ("query_yaml", {"yq_expression": ".", "filePath": "x.yaml"}, "file_path"),
])
def test_another_tools_name_for_a_field_is_pointed_to(tool, arguments, meant):
    answer = tools.call(tool, arguments)
    assert answer["error_code"] == "INVALID_ARGUMENT", answer
    assert answer["hint"].startswith(f"Did you mean {meant!r}? Fields: "), answer["hint"]


def test_a_field_no_tool_names_gets_no_guess():
    answer = tools.call("jq_suggest", {"query": "."})
    assert answer["hint"].startswith("Fields: "), answer["hint"]
