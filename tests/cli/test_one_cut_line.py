"""A value cut on a terminal is said once on stderr: the result's own line (how big, where
the whole is kept, --all); the view's '(a result of N characters, cut after M ...)' said the
same cut again (found on the shared corpus's Kubernetes API description)."""

from __future__ import annotations

import json

from tests.cli.terminal import on_terminal


def test_a_cut_value_is_said_once(tmp_path):
    data = tmp_path / "big.json"
    data.write_text(json.dumps({"definitions": {f"d{i}": {"description": "x" * 300}
                                                for i in range(2_000)}}))
    shown = on_terminal("query", ".", str(data), env={"JQMAGIC_PAYLOAD_DIR": str(tmp_path)})
    lines = shown.stderr.splitlines()
    assert len(lines) == 1, shown.stderr
    assert lines[0].startswith("Truncated.") and "Use --all to print everything." in lines[0]
    assert "\"definitions\"" in shown.stdout[:100] and shown.returncode == 0  # its start
