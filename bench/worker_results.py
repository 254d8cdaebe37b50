"""Many results off the fast path on the worker path (issue 53): a program the fast path
declines (it reads ``input_filename``), printing 300k results, run by jq 1.8.2, by
``jqmagic query`` here (libjq in its own process, as jq) and with ``--timeout`` (the
forked worker), and through ``jqmagic.query`` in Python; each jqmagic row also with libjq's
results taken one ctypes call at a time (``libjq._jqmain = None`` before the run: the path
before the results were dumped in C). Median wall and CPU seconds (the process and its
children) of N runs, ratios to jq 1.8.2 in the same run.

    .venv/bin/python bench/worker_results.py [--runs N] [--results N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PY = Path(sys.executable)
ORACLE = PY.parent / "jq-1.8.2"
PER_RESULT = "from jqmagic.core.query import libjq; libjq._jqmain = None; "
CLI = "from jqmagic.cli import main; raise SystemExit(main({argv!r}))"
API = ("import jqmagic; r = jqmagic.query({program!r}, null_input=True, compact=True, "
       "passthrough=True); assert r.total == {n} and r.engine == 'libjq', r.engine")


def _program(n: int) -> str:
    return f"range({n}) | {{a: ., f: input_filename}}"


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (children's user + system) of one run, its output dropped."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--results", type=int, default=300_000)
    options = parser.parse_args()
    n, program = options.results, _program(options.results)
    query = ["query", "-nc", program]
    rows = {
        "jq 1.8.2": [str(ORACLE), "-nc", program],
        "jqmagic query (libjq here)": [str(PY), "-c", CLI.format(argv=query)],
        "jqmagic query --timeout 60 (worker)":
            [str(PY), "-c", CLI.format(argv=["query", "--timeout", "60", "-nc", program])],
        "jqmagic query --timeout 60 (worker), a ctypes call a result":
            [str(PY), "-c", PER_RESULT + CLI.format(
                argv=["query", "--timeout", "60", "-nc", program])],
        "jqmagic.query(...) (worker)": [str(PY), "-c", API.format(program=program, n=n)],
        "jqmagic.query(...) (worker), a ctypes call a result":
            [str(PY), "-c", PER_RESULT + API.format(program=program, n=n)],
    }
    timings = {name: [_timed(command) for _ in range(options.runs)]
               for name, command in rows.items()}
    jq_wall = statistics.median(w for w, _ in timings["jq 1.8.2"])
    jq_cpu = statistics.median(c for _, c in timings["jq 1.8.2"])
    load = os.getloadavg()[0]
    print(f"`{program}` ({n:,} results), median of {options.runs}, load {load:.1f} at the end\n")
    print("| run | wall | CPU |\n|---|---:|---:|")
    for name, runs in timings.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.3f} s ({wall / jq_wall:.2f}x) | {cpu:.2f} s "
              f"({cpu / max(jq_cpu, 1e-3):.2f}x) |")


if __name__ == "__main__":
    main()
