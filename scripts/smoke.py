"""Ask the installed jqmagic one question from each face: ``PYTHON scripts/smoke.py``.

The core (``jqmagic.query``), the ``jqmagic`` command beside this interpreter and ``%jq``
in an IPython shell each answer, or the script says which did not and exits 1. It imports
the jqmagic that interpreter has installed (this folder, not the checkout, is on its path):
`.ci/run` runs it in each version's venv, tests/test_python_versions.py in a `pip install .`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DOC = {"users": [{"name": "ada"}, {"name": "bob"}]}
NAMES = ["ada", "bob"]


def core() -> object:
    import jqmagic

    return jqmagic.query(".users[].name", value=DOC).values


def command_line() -> object:
    jqmagic = Path(sys.executable).with_name("jqmagic")
    run = subprocess.run([str(jqmagic), "query", "-c", "[.users[].name]"], input=json.dumps(DOC),
                         capture_output=True, text=True, timeout=120)
    return run.stdout.strip() if run.returncode == 0 else f"exit {run.returncode}: {run.stderr}"


def ipython() -> object:
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=config)
    shell.user_ns["data"] = DOC
    for cell in ("%load_ext jqmagic", "%jq '.users[].name' data"):
        result = shell.run_cell(cell)
        if not result.success:
            return repr(result.error_before_exec or result.error_in_exec)
    return result.result.values


CHECKS = {"core": (core, NAMES), "command line": (command_line, '["ada","bob"]'),
          "%jq in IPython": (ipython, NAMES)}


def main() -> int:
    import jqmagic

    print(f"Python {sys.version.split()[0]}, jqmagic from {Path(jqmagic.__file__).parent}")
    failed = []
    for face, (ask, expected) in CHECKS.items():
        try:
            got = ask()
        except Exception as exc:  # a face that crashes is reported, the others still asked
            got = f"{type(exc).__name__}: {exc}"
        print(f"{face}: {'answers' if got == expected else f'FAILED, got {got!r}'}")
        if got != expected:
            failed.append(face)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
