"""The README is what a newcomer finds: its first code block runs as written on a fresh
install (bundled samples, no files of its own), it names every agent tool and every
command, and it says where the payload store is and how to clear it (issue 42)."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _first_python_block() -> str:
    return re.search(r"```python\n(.*?)```", README, re.S)[1]


def test_the_first_code_block_runs_as_written(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty folder: nothing but what the block makes
    done = ip.run_cell(_first_python_block())
    assert done.error_before_exec is None and done.error_in_exec is None
    assert ip.user_ns["repos"] and (tmp_path / "sample-data" / "k8s.yaml").exists()


def test_every_magic_line_of_the_first_block_answers(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = _first_python_block().splitlines()
    ip.run_cell("\n".join(line for line in lines if not line.startswith("%jq")))
    for line in (line for line in lines if line.startswith("%jq ")):
        result = ip.run_line_magic("jq", line.removeprefix("%jq "))
        assert result.values, line


def test_every_agent_tool_and_command_is_named():
    import jqmagic.tools as tools
    from jqmagic.cli import COMMANDS

    for definition in tools.definitions("plain"):
        assert f"`{definition['name']}`" in README
    for name, *_ in COMMANDS:
        assert f"jqmagic {name}" in README


def test_the_payload_store_is_documented():
    assert "## The payload store" in README and "jqmagic payloads --clear" in README
    assert "~/.cache/jqmagic/payloads/<id>/payload.json" in README


def test_the_tests_that_need_shared_data_are_said():
    assert "../shared/suites/" in README and "../shared/corpus/" in README
    assert "pytest -rs" in README
