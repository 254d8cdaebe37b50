"""What an agent reaches for: definitions in its host's shape, JSON with comments read by
every query tool, slurp and args on the query tools, format and stats on json_inspect."""

from __future__ import annotations

import shutil

import pytest

import jqmagic.tools as tools
from tests.shared import CORPUS_JSON

TSCONFIG = ('{\n  // compiler settings\n'
            '  "compilerOptions": {"strict": true, "target": "es2022",},\n}\n')


@pytest.mark.parametrize(("fmt", "keys"), [
    ("plain", {"name", "description", "parameters"}),
    ("openai", {"type", "function"}),
    ("anthropic", {"name", "description", "input_schema"}),
    ("mcp", {"name", "title", "description", "inputSchema", "outputSchema", "annotations"})])
def test_definitions_in_each_hosts_shape(fmt, keys):
    found = tools.definitions(fmt)
    assert len(found) == 10 and all(set(d) == keys for d in found)
    if fmt == "openai":
        assert found[0]["function"]["parameters"]["type"] == "object"


def test_unknown_definitions_format():
    with pytest.raises(tools.JqMagicError) as info:
        tools.definitions("gemini")
    assert info.value.code == "INVALID_ARGUMENT" and "openai" in info.value.hint


def test_json_with_comments_is_read_by_every_query_tool(tmp_path):
    path = tmp_path / "tsconfig.json"
    path.write_text(TSCONFIG)
    assert tools.call("jq", {"query": ".compilerOptions.target", "file": str(path),
                             "raw": True})["output"] == "es2022"
    assert tools.call("query_json", {"file_path": str(path),
                                     "jq_expression": ".compilerOptions.strict"})["output"] \
        == "true"
    shape = tools.call("json_inspect", {"filePath": str(path), "path": "/compilerOptions"})
    assert shape["keys"] == ["strict", "target"]
    broken = tmp_path / "broken.json"
    broken.write_text('{"a": }')
    out = tools.call("query_json", {"file_path": str(broken), "jq_expression": "."})
    assert out["error_code"] == "INVALID_JSON"  # not JSONC either: the JSON error stands


def test_slurp_and_args_on_the_query_tools(tmp_path):
    lines = tmp_path / "events.jsonl"
    lines.write_text("".join(f'{{"n": {i}}}\n' for i in range(5)))
    docs = tmp_path / "multi.yaml"
    docs.write_text("kind: A\n---\nkind: B\n")
    assert tools.call("query_json", {"file_path": str(lines), "jq_expression": "length",
                                     "slurp": True})["output"] == "5"
    assert tools.call("query_yaml", {"file_path": str(docs), "yq_expression": "map(.kind)",
                                     "slurp": True})["output"] == '["A","B"]'
    picked = tools.call("query_json", {"file_path": str(lines), "jq_expression":
                                       "select(.n >= $min) | .n", "args": {"min": 3}})
    assert picked["output"] == "3\n4"


def test_json_inspect_format_and_stats(tmp_path):
    path = tmp_path / "users.json"
    path.write_text('{"users": [{"id": 1, "email": null}, {"id": 2, "email": "a@b.c"}]}')
    schema = tools.call("json_inspect", {"filePath": str(path), "format": "jqschema"})
    assert schema["schema"]["users"] == [{"email": "null", "id": "number"}]  # gh-aw merges
    stats = tools.call("json_inspect", {"filePath": str(path), "stats": True})
    assert stats["profiles"][".users[].id"]["max"] == 2
    wrong = tools.call("json_inspect", {"filePath": str(path), "format": "xml"})
    assert wrong["success"] is False


def test_json_patch_takes_a_value_given_as_json_itself(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{\n  "server": {"port": 80}\n}\n')
    out = tools.call("json_patch", {"filePath": str(path), "operation": "set",
                                    "path": "/server", "value": {"port": 8080, "tls": True}})
    assert out["success"] and out["newValue"] == {"port": 8080, "tls": True}
    text = tools.call("json_patch", {"filePath": str(path), "operation": "set",
                                     "path": "/server/port", "value": "8081"})
    assert text["newValue"] == 8081  # JSON text still means its value
    wrong = tools.call("json_patch", {"filePath": str(path), "operation": "set",
                                      "path": "/x", "value": None})
    assert wrong["error_code"] == "INVALID_ARGUMENT"


@pytest.mark.skipif(not (CORPUS_JSON / "npm").is_dir(), reason=f"corpus not found at "
                    f"{CORPUS_JSON}")
def test_an_unescaped_pointer_into_a_lock_file_is_refused_with_the_escaped_one(tmp_path):
    path = tmp_path / "package-lock.json"
    shutil.copy(CORPUS_JSON / "npm" / "axios-package-lock.json", path)
    before = path.read_bytes()
    out = tools.call("json_patch", {"filePath": str(path), "operation": "set", "value": '"9"',
                                    "path": "/packages/node_modules/follow-redirects/version"})
    assert out["error_code"] == "PATCH_CONFLICT" and path.read_bytes() == before
    assert "/packages/node_modules~1follow-redirects/version" in out["hint"]
    fixed = tools.call("json_patch", {"filePath": str(path), "operation": "set",
                                      "value": '"9"', "path": out["hint"].split(": ")[1]
                                      .split(". ")[0]})
    assert fixed["success"] and fixed["previousValue"] not in (None, "9")
