"""The user guide (docs/, mkdocs.yml) builds under ``--strict`` with no warning at all (a
broken link or anchor, a page left out of the navigation, a snippet or docstring that cannot
be read), and keeps what the README used to hold (issue 59)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

def _guide() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")))


@pytest.mark.slow  # the whole site with its API reference: about 10 s
def test_the_guide_builds_strict_with_no_warning(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # griffe's docstring warnings do not fail --strict by themselves: none is allowed either
    assert "WARNING" not in done.stderr, done.stderr
    site = tmp_path / "site"
    for page in ("getting-started", "magics", "browsing", "command-line", "big-files",
                 "agents", "safety", "performance", "development", "reference"):
        assert (site / page / "index.html").is_file(), page
    # the benches' tables are included, not linked
    assert "Query benchmark" in (site / "performance" / "queries" / "index.html").read_text()
    # the API reference is made from the docstrings
    reference = (site / "reference" / "index.html").read_text()
    assert "JSON Patch (list of operations), applied whole" in reference


def test_the_guide_keeps_every_section_the_readme_had():
    guide = _guide()
    for heading in ("## Set up on a fresh machine", "## Notebooks", "## What you get",
                    "# The magics", "## Completion from your data, in three places",
                    "# The command line", "## The payload store", "# Agents and MCP",
                    "## The sandbox: what it promises, and what it cannot", "## The layout",
                    "## The test suite", "## Data beside the project: `../shared`"):
        assert heading in guide, heading
    assert "../shared/suites/" in guide and "../shared/corpus/" in guide
    assert "jqmagic payloads --clear" in guide
    assert "~/.cache/jqmagic/payloads/<id>/payload.json" in guide


def test_every_benchmark_result_has_a_page():
    pages = {p.read_text() for p in (DOCS / "performance").glob("*.md")}
    for result in sorted((ROOT / "bench").glob("RESULTS*.md")):
        assert any(f'--8<-- "bench/{result.name}"' in page for page in pages), result.name


def test_every_agent_tool_and_command_is_in_the_guide():
    import jqmagic.tools as tools
    from jqmagic.cli.commands import COMMANDS

    guide = _guide()
    for definition in tools.definitions("plain"):
        assert f"`{definition['name']}`" in guide
    for name, *_ in COMMANDS:
        assert f"jqmagic {name}" in guide
