"""--explain and --suggest on every face: %jq, jqmagic query, the jq tool, jq_suggest."""

from __future__ import annotations

import json
import subprocess
import sys

import jqmagic.tools as tools


def test_magic_explain_gives_the_stages_view(ip, capsys):
    ip.user_ns["letters"] = ["a", "b", "c"]
    found = ip.run_line_magic(
        "jq", "--explain 'map(ascii_upcase) | reverse | .[] | [match(\"[ACD]\").string] "
        "| map(ascii_downcase) | reverse | add' letters")
    bundle = found._repr_mimebundle_()
    assert "null first made at stage 7 `add`" in bundle["text/plain"]
    assert "<details" in bundle["text/html"]


def test_magic_suggest_line_and_cell(ip):
    ip.user_ns["user"] = {"user": {"name": "ada", "id": 7}}
    found = ip.run_line_magic("jq", "--suggest '\"ada\"' user")
    assert found.best == ".user.name"
    cell = ip.run_cell_magic("jq", "--suggest user", "7\n")
    assert cell.best == ".user.id"


def test_cli_explain_prints_the_text_view(tmp_path):
    data = tmp_path / "d.json"
    data.write_text('[{"a": 1}, {"a": 3}]')
    run = subprocess.run([sys.executable, "-m", "jqmagic", "query", "--explain",
                          ".[] | select(.a > 1) | .a", str(data)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "2. select(.a > 1)   2 -> 1   (1 dropped)" in run.stdout
    assert "dropped: {\"a\":1}" in run.stdout
    failing = subprocess.run([sys.executable, "-m", "jqmagic", "query", "--explain",
                              ".[] | .a.b", str(data)], capture_output=True, text=True,
                             timeout=60)
    assert failing.returncode == 5, failing.stderr  # as the plain run exits
    assert "error raised at stage 2" in failing.stdout


def test_tools_explain_and_suggest():
    answer = tools.call("jq", {"query": ".[] | .a // \"none\"", "input": '[{"a": 1}, {}]',
                               "explain": True})
    assert answer["success"] and answer["explanation"]["outputs"] == 2
    assert answer["explanation"]["stages"][1]["branches"][1]["stages"][0]["in"] == 1
    found = tools.call("jq_suggest", {"examples": [
        {"input": [3, 1, 2], "output": [1, 2, 3]}, {"input": [5, 4], "output": [4, 5]}]})
    assert found["success"] and found["programs"][0]["program"] == "sort"
    assert "verified in libjq" in found["message"]
    assert len(json.dumps(found)) < 5000
