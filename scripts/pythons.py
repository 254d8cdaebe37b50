"""The CPythons jqmagic supports and where each is on this machine.

``python scripts/pythons.py [--except PYTHON]`` prints ``X.Y PATH`` a line for every version
pyproject.toml's classifiers declare (requires-python is their floor; tests check they
agree), leaving out the one PYTHON is. A declared version this machine lacks is an error:
CI must fail, not quietly test fewer. An interpreter is ``$JQMAGIC_PYTHON_X_Y``, else
the newest ``$PYENV_ROOT/versions/X.Y.*`` (~/.pyenv), else ``pythonX.Y`` on PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
_CLASSIFIER = re.compile(r"Programming Language :: Python :: (3\.\d+)$")


def project() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]


def supported() -> list[str]:
    """The declared versions, oldest first: ["3.11", "3.12", ...]."""
    found = (_CLASSIFIER.match(c) for c in project()["classifiers"])
    return sorted((m.group(1) for m in found if m), key=_key)


def find(version: str) -> Path | None:
    """This machine's interpreter for a version ("3.12"), or None."""
    given = os.environ.get(f"JQMAGIC_PYTHON_{version.replace('.', '_')}")
    if given:
        return Path(given) if Path(given).is_file() else None
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    builds = [b / "bin" / "python" for b in root.glob(f"{version}.*")
              if re.fullmatch(r"\d+\.\d+\.\d+", b.name) and (b / "bin" / "python").exists()]
    if builds:
        return max(builds, key=lambda python: _key(python.parents[1].name))
    on_path = shutil.which(f"python{version}")
    if on_path and _version_of(on_path) == version:  # not a shim that cannot run it
        return Path(on_path)
    return None


def _version_of(python: str | Path) -> str | None:
    run = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                         capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else None


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--except", dest="skip", metavar="PYTHON",
                        help="leave out the version this interpreter is")
    args = parser.parse_args()
    skip = _version_of(args.skip) if args.skip else None
    missing = []
    for version in supported():
        python = find(version)
        if python is None:
            missing.append(version)
        elif version != skip:
            print(version, python)
    if missing:
        print(f"error: pyproject.toml declares Python {', '.join(missing)}, not found here "
              f"(looked for $JQMAGIC_PYTHON_X_Y, pyenv's versions, pythonX.Y on PATH)",
              file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
