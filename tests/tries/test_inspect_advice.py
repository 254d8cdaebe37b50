"""`jqmagic inspect` over its bound says how to see less in words that work for the format:
--depth cuts only the shape format (a 1.9 MB manifest's 18 MB jsonschema was the same with
--depth 2 as the advice said to use)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

JQMAGIC = Path(sys.executable).with_name("jqmagic")


def inspect(folder: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(JQMAGIC), "inspect", "wide.json", *flags], cwd=folder,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("form", ["jsonschema", "jqschema"])
def test_the_schemas_are_not_told_to_use_depth(tmp_path, form):
    wide = {f"key{i}": {"a": {"b": [i, "x"]}} for i in range(4000)}
    (tmp_path / "wide.json").write_text(json.dumps(wide))
    cut = inspect(tmp_path, "--format", form, "--depth", "0")
    assert cut.returncode == 0 and cut.stdout == ""
    assert "See less with --path POINTER" in cut.stderr and "--depth N" not in cut.stderr
    part = inspect(tmp_path, "--format", form, "--path", "/key7")
    assert part.returncode == 0 and json.loads(part.stdout)
