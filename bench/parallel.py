"""Fleets of files: one per-input filter over a glob of JSON Lines files, serial against
``--parallel`` and ``--dask`` (a LocalCluster) against the jq CLI and ``xargs -P`` with jq,
and the same lines in one big file (``--parallel`` cuts it into byte ranges), in one run
(wall time and the answers compared).

    .venv/bin/python bench/parallel.py [--files 8] [--lines 250000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import JQ, PY  # noqa: E402

PROGRAM = 'select(.level == "error" and .ms > 100) | .id'


def make_logs(folder: Path, files: int, lines: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        path = folder / f"app-{f:02d}.jsonl"
        if path.exists():
            continue
        with open(path, "w") as out:
            for i in range(lines):
                out.write(json.dumps({"id": f * lines + i, "level": "error" if i % 13 == 0
                                      else "info", "ms": (i * 7919) % 500 / 2.0,
                                      "path": f"/api/v1/items/{i % 97}"}) + "\n")


def timed(argv: list[str], shell: bool = False) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, shell=shell, check=True)
    return time.perf_counter() - started, done.stdout


WARM = """
import sys, time
import distributed, jqmagic
if __name__ == "__main__":
    cluster = distributed.LocalCluster(n_workers=int(sys.argv[3]), threads_per_worker=1,
                                       dashboard_address=":0")
    client = distributed.Client(cluster)
    jqmagic.query(sys.argv[1], sys.argv[2], dask="", passthrough=True)  # workers warm
    started = time.perf_counter()
    text = jqmagic.query(sys.argv[1], sys.argv[2], dask="", passthrough=True,
                         compact=True).text
    print(time.perf_counter() - started, file=sys.stderr)
    print(text)
    client.close()
    cluster.close()
"""


def warm_dask(glob: str) -> tuple[float, str]:
    """The second query on a running LocalCluster (the first one started its workers)."""
    done = subprocess.run([PY, "-c", WARM, PROGRAM, glob, str(os.cpu_count())],
                          capture_output=True, text=True, check=True)
    return float(done.stderr.strip().splitlines()[-1]), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--lines", type=int, default=250_000)
    args = parser.parse_args()
    folder = HERE / "data" / f"logs-{args.files}x{args.lines}"
    make_logs(folder, args.files, args.lines)
    glob = str(folder / "*.jsonl")
    files = sorted(str(p) for p in folder.glob("*.jsonl"))
    one = folder.parent / f"{folder.name}-one.jsonl"  # the same lines in one big file
    if not one.exists():
        with open(one, "wb") as out:
            for path in files:
                out.write(Path(path).read_bytes())
    cores = str(os.cpu_count())
    rows = {
        "jq CLI (one process)": timed([JQ, "-c", PROGRAM, *files]),
        f"xargs -P {os.cpu_count()} jq": timed(
            f"ls {folder}/*.jsonl | xargs -P {os.cpu_count()} -n 1 {JQ} -c '{PROGRAM}'",
            shell=True),
        "jqmagic serial": timed([PY, "-m", "jqmagic", "query", "--all", "-c", PROGRAM, glob]),
        f"jqmagic --parallel {os.cpu_count()}": timed(
            [PY, "-m", "jqmagic", "query", "--all", "-c", f"--parallel={os.cpu_count()}",
             PROGRAM, glob]),
        "jqmagic --dask (command line: LocalCluster started, then the query)": timed(
            [PY, "-m", "jqmagic", "query", "--all", "-c", PROGRAM, glob, "--dask"]),
        "jqmagic --dask (a running LocalCluster, second query)": warm_dask(glob),
        "jqmagic serial, one big file": timed(
            [PY, "-m", "jqmagic", "query", "--all", "-c", PROGRAM, str(one)]),
        f"jqmagic --parallel {cores}, one big file (byte ranges)": timed(
            [PY, "-m", "jqmagic", "query", "--all", "-c", f"--parallel={cores}", PROGRAM,
             str(one)]),
    }
    expected = rows["jq CLI (one process)"][1]
    size = sum(os.path.getsize(f) for f in files) / 1e6
    print(f"### {args.files} JSON Lines files x {args.lines:,} lines ({size:.0f} MB), "
          f"{os.cpu_count()} cores: `{PROGRAM}`\n")
    print("| tool | wall time | same answer as jq, in order |\n|---|---:|:---:|")
    for name, (seconds, out) in rows.items():
        same = out == expected
        print(f"| {name} | {seconds:.2f} s | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
