"""The README is the front page (issue 59): short, and every example on it runs as written
on a fresh install, in an empty folder but for the bundled samples its first block writes.
The guide behind it (docs/, tests/test_docs.py) holds the rest."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", README, re.S)


def test_the_front_page_is_short():
    assert len(README.splitlines()) <= 150


def test_every_python_block_runs_in_order(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty folder: nothing but what the blocks make
    blocks = _blocks("python")
    assert len(blocks) >= 3  # the notebook's, the agents', plain Python's
    for block in blocks:
        done = ip.run_cell(block)
        assert done.error_before_exec is None and done.error_in_exec is None, block
    assert ip.user_ns["repos"] and (tmp_path / "sample-data" / "k8s.yaml").exists()
    assert ip.user_ns["defs"]  # the agents' block: the definitions it asked for


def test_every_magic_line_of_the_first_block_answers(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = _blocks("python")[0].splitlines()
    ip.run_cell("\n".join(line for line in lines if not line.startswith("%jq")))
    for line in (line for line in lines if line.startswith("%jq ")):
        result = ip.run_line_magic("jq", line.removeprefix("%jq "))
        assert result.values, line


def test_every_terminal_command_runs(tmp_path):
    import jqmagic.samples

    jqmagic.samples.write(str(tmp_path / "sample-data"))
    commands = [line.removeprefix("$ ") for block in _blocks("console")
                for line in block.splitlines() if line.startswith("$ ")]
    assert commands
    for command in commands:
        assert command.startswith("jqmagic "), command
        done = subprocess.run(f"{sys.executable} -m {command}", shell=True, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout.strip(), (command, done.stderr)
    assert '"version": "1.4.0"' in (tmp_path / "sample-data" / "package.json").read_text()


def test_the_two_set_up_commands():
    # the one console block without prompts: .ci/run runs `make test` itself
    setup = [b for b in _blocks("console") if not b.startswith("$ ")]
    assert len(setup) == 1
    assert [line.split("#")[0].strip() for line in setup[0].splitlines()] == \
        ["make demo", "make test"]


def test_every_link_names_a_page_of_the_guide():
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/index.md" in links
    assert all((ROOT / link).is_file() for link in links), links


def test_the_differences_from_jq_are_one_table():
    section = README.split("## Where it differs from jq", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert rows[0] == "| where | jq 1.8.2 | jqmagic query |" and len(rows) > 5
