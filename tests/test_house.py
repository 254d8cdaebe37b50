"""The house rules the code keeps, checked over its source: settings are written only
through settings.py, the environment is read there, and ARCHITECTURE.md maps every module."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "jqmagic"
ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)

# The environment handled, not read as configuration: a process's own plumbing.
ENVIRONMENT_HANDLED = {
    "core/confine.py",  # a confined worker's scratch folder is its $TMPDIR
    "core/query/worker.py",  # takes its caller's home and payload store
    "core/query/libjq.py",  # hides $HOME while a sandboxed program compiles (~/.jq)
    "core/query/supervisor.py",  # starts a worker with this environment or a scrubbed one
    "core/query/forkworker.py",  # a forked worker takes that environment as its own
    "core/explain/child.py",  # the same for --explain's child process
}


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_no_module_writes_settings():
    writes = re.compile(r"\bsettings\.[a-z_]+\s*=(?!=)|setattr\(\s*(core_)?settings\b")
    found = [f"{_name(p)}:{n}" for p in MODULES if _name(p) != "core/settings.py"
             for n, line in enumerate(_source(p).splitlines(), 1) if writes.search(line)]
    assert found == [], "write settings through settings.configure / settings.using"


def test_the_environment_is_read_in_settings_py():
    reads = re.compile(r"os\.environ|os\.getenv")
    found = sorted({_name(p) for p in MODULES if reads.search(_source(p))})
    assert set(found) - ENVIRONMENT_HANDLED - {"core/settings.py"} == set()


def test_architecture_maps_every_module():
    text = _source(ARCHITECTURE)
    missing = [_name(p) for p in MODULES if not p.name.startswith("__") and
               not re.search(rf"(?<![\w.]){re.escape(p.stem)}(?!\w)", text)]
    assert missing == [], "add these modules to ARCHITECTURE.md's map"
