"""Every JSON an agent face writes is JSON: json_inspect's stats over a YAML with .inf,
-.inf and .nan said 'min': Infinity, 'samples': [NaN] (`jqmagic tool json_inspect`, MCP's
text block), which a client's JSON reader refuses; they are written as jq prints them."""

from __future__ import annotations

import json
import subprocess
import sys

from jqmagic.core.words import json_text


def _strict(text: str):
    def refuse(word: str):
        raise ValueError(f"not JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def test_json_text_writes_nan_and_infinities_as_jq():
    assert _strict(json_text({"a": [float("inf"), -float("inf"), float("nan"), 1.5]})) == \
        {"a": [1.7976931348623157e308, -1.7976931348623157e308, None, 1.5]}
    assert json_text([1.5, "x"]) == '[1.5, "x"]'


def test_stats_over_a_yaml_with_inf_answer_as_json(tmp_path):
    (tmp_path / "values.yaml").write_text("a: .inf\nc: .nan\nl: [.inf, 1, .nan]\n")
    done = subprocess.run([sys.executable, "-m", "jqmagic", "tool", "json_inspect"],
                          input='{"filePath": "values.yaml", "stats": true}', cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    answer = _strict(done.stdout)
    assert answer["success"], answer
    assert answer["profiles"][".a"]["max"] == 1.7976931348623157e308
    assert answer["profiles"][".c"]["samples"] == [None]


def test_a_patch_summary_says_an_infinity_as_jq(tmp_path):
    import jqmagic

    target = tmp_path / "values.yaml"
    target.write_text("a: .inf\nb: .nan\n")
    said = jqmagic.patch(str(target), "set", "/a", 1, dry_run=True).summary()
    assert said.startswith("set /a: 1.7976931348623157e+308 -> 1"), said
