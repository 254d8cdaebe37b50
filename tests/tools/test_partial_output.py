"""What a program printed before it failed reaches every face, as jq prints it: a JSON Lines
file with a bad line 6 keeps lines 1-5's results in the tool's answer, as in a terminal."""

from __future__ import annotations

import json

from jqmagic.tools import call


def test_a_failed_query_keeps_what_came_before(tmp_path):
    lines = [json.dumps({"i": i}) for i in range(5)] + ["{bad"] + ['{"i": 6}']
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n")
    answer = call("jq", {"query": ".i", "file": str(tmp_path / "log.jsonl")})
    assert (answer["success"], answer["error_code"]) == (False, "INVALID_JSON")
    assert (answer["output"], answer["count"]) == ("0\n1\n2\n3\n4", 5)
    failed = call("jq", {"query": ".[] | . + 1", "input": '[1, "a", 3]'})
    assert (failed["error_code"], failed["output"], failed["count"]) == ("QUERY_ERROR", "2", 1)
    clean = call("jq", {"query": "error(\"x\")", "input": "1"})
    assert "output" not in clean  # nothing came before: nothing to show
