"""json_patch's previousValue/newValue of a YAML .inf, -.inf or .nan (a JSON 1e400): the
answer said 'Infinity' and 'NaN' (`jqmagic tool json_patch`, and MCP's text block), which
is no JSON; they read as the jq tool shows them: the largest double of the sign, null."""

from __future__ import annotations

import json

from jqmagic.tools import call


def _strict(text: str):
    def refuse(word: str):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def test_a_yaml_infinity_and_nan_answer_as_json(tmp_path):
    target = tmp_path / "values.yaml"
    target.write_text("a: .inf\nb: -.inf\nc: .nan\nd: [.inf]\n")
    seen = []
    for path in ("/a", "/b", "/c", "/d"):
        answer = call("json_patch", {"filePath": str(target), "operation": "set",
                                     "path": path, "value": 1, "dryRun": True, "force": True},
                      allow_root=[str(tmp_path)])
        assert answer["success"], answer
        seen.append(_strict(json.dumps(answer))["previousValue"])
    assert seen == [1.7976931348623157e308, -1.7976931348623157e308, None,
                    [1.7976931348623157e308]]
