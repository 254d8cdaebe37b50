"""A sandbox refusal names the open folders as a list a reader parses ('/a or /b'); with two
roots it said 'Use a file under /a:/b.' (os.pathsep), one path that does not exist. Found
with an MCP client over stdio on the shared corpus."""

from __future__ import annotations

from jqmagic import tools


def test_the_open_folders_are_said_one_by_one(tmp_path):
    roots = [tmp_path / name for name in ("corpus", "work", "c", "d", "e", "f", "g")]
    for root in roots:
        root.mkdir()
    said = {}
    for n in (1, 2, 3, 7):
        answer = tools.call("jq", {"query": ".x", "file": "/etc/passwd"},
                            allow_root=[str(r) for r in roots[:n]])
        assert answer["error_code"] == "SANDBOX_DENIED", answer
        said[n] = answer["hint"].split(".")[0]
    a, b, c = (str(r) for r in roots[:3])
    assert said[1] == f"Use a file under {a}"
    assert said[2] == f"Use a file under {a} or {b}"
    assert said[3] == f"Use a file under {a}, {b} or {c}"
    assert said[7].endswith(" or 2 more folders") and ":" + str(tmp_path) not in said[7]
