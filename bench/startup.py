"""Start-up: `echo 1 | jqmagic query .` against `echo 1 | jq .`, and where the time goes
(Python itself, the command's imports, the worker's imports), best of N runs each.

Run: .venv/bin/python bench/startup.py [N]  (wall and CPU seconds; agents call the command
in loops, so this is the cost of every call).
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

PYTHON = sys.executable
ORACLE = Path(PYTHON).parent / "jq-1.8.2"


def measure(command: list[str], runs: int) -> tuple[float, float]:
    """The best wall and CPU seconds (children's user + system) of ``runs`` runs."""
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, input=b"1\n", stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    jq = str(ORACLE) if ORACLE.exists() else shutil.which("jq")
    rows = [
        ("jq 1.8.2: echo 1 | jq .", [jq, "."]),
        ("python -c pass", [PYTHON, "-c", "pass"]),
        ("import jqmagic.cli (the command)", [PYTHON, "-c", "import jqmagic.cli"]),
        ("import jqmagic.core.query.worker (the worker)",
         [PYTHON, "-c", "import jqmagic.core.query.worker"]),
        ("echo 1 | jqmagic query .", [PYTHON, "-m", "jqmagic", "query", "."]),
    ]
    print(f"| step (best of {runs}) | wall s | CPU s |\n|---|---:|---:|")
    for name, command in rows:
        wall, cpu = measure(command, runs)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()
