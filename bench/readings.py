"""One big JSON document, `{"station": ..., "readings": [{"v": ..., ...}, ...]}`, asked three
questions that stream (a select-count, a sum, a length) by jq 1.8.2, jaq and the
`jqmagic query` command line, each in its own process under GNU time: wall, CPU and peak
RSS, ratios to jq 1.8.2, and every answer compared byte for byte with jq's, in one run.

The command line runs libjq in its own process only where libjq's parse of the file fits
(jqmagic/cli/here.py: 14 resident bytes a byte of text, within the document budget); past that,
a program that streams goes to the worker's streaming pass, in bounded memory.

    flock /tmp/jqmagic-heavy.lock .venv/bin/python bench/readings.py --mb 1500 [--keep]

The file is made under /tmp (not in the project) and removed at the end unless --keep.
jq and jaq run under an address-space cap (--cap-gb: the machine is shared); past it the
table says so. --ratio measures libjq's resident bytes per byte of text on three smaller
files instead (the figure jqmagic/cli/here.py judges by).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

PY = sys.executable
BIN = Path(PY).parent
JQ = str(BIN / "jq-1.8.2")
JAQ = shutil.which("jaq", path=str(BIN)) or shutil.which("jaq")
QUESTIONS = {
    "select-count": "[.readings[] | select(.v > 990)] | length",
    "sum": "[.readings[].v] | add",
    "length": ".readings | length",
}
NOTES = ["routine reading from the automated logger", "manual check after maintenance",
         "calibrated against the reference probe", "value flagged for review by the operator"]
LIMIT_SECONDS = 1200


def readings(path: Path, megabytes: int, rich: bool = True, seed: int = 53) -> Path:
    """About ``megabytes`` MB of readings (``rich``: with a sensor name, a unit and a note,
    as a logger writes them; else short records)."""
    if path.exists() and path.stat().st_size >= megabytes * 10**6:
        return path
    rng = random.Random(seed)
    with open(path, "w") as out:
        out.write('{"station":"north","readings":[')
        size, at = 0, 0
        while size < megabytes * 10**6:
            parts = []
            for _ in range(2000):
                v, ok = rng.randrange(100000) / 100, "true" if rng.random() < 0.9 else "false"
                if rich:
                    parts.append(f'{{"v":{v},"t":{1700000000 + at},"sensor":"north-station-'
                                 f'{rng.randrange(500):04d}","unit":"celsius","ok":{ok},'
                                 f'"note":"{rng.choice(NOTES)}"}}')
                else:
                    parts.append(f'{{"v":{v},"t":{1700000000 + at},"sensor":"s'
                                 f'{rng.randrange(500)}","ok":{ok}}}')
                at += 1
            chunk = ("," if size else "") + ",".join(parts)
            out.write(chunk)
            size += len(chunk)
        out.write("]}\n")
    return path


def numbers(path: Path, megabytes: int) -> Path:
    rng = random.Random(5)
    with open(path, "w") as out:
        out.write("[")
        size = 0
        while size < megabytes * 10**6:
            chunk = ("," if size else "") + ",".join(str(rng.randrange(10**6))
                                                     for _ in range(5000))
            out.write(chunk)
            size += len(chunk)
        out.write("]\n")
    return path


def timed(command: list[str], cap_gb: float | None) -> tuple[float, float, int, bytes, str]:
    """Wall and CPU seconds (the process and its children), peak RSS (bytes, GNU time's:
    the largest process), the output, and what went wrong (or "")."""
    limit = ["prlimit", f"--as={int(cap_gb * 2**30)}"] if cap_gb else []
    started = time.perf_counter()
    try:
        done = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", *limit, *command],
                              capture_output=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        return LIMIT_SECONDS, 0.0, 0, b"", f"over {LIMIT_SECONDS} s"
    wall = time.perf_counter() - started
    user, system, kb = done.stderr.decode().strip().splitlines()[-1].split()[-3:]
    failed = "" if done.returncode == 0 else \
        f"exit {done.returncode}: {done.stderr.decode().splitlines()[0][:60]}"
    return wall, float(user) + float(system), int(kb) * 1024, done.stdout, failed


def measure_ratio() -> None:
    """libjq's peak RSS per byte of text (jq 1.8.2 `length`), for the figure here.py uses."""
    print("| file | MB | jq 1.8.2 peak RSS | bytes a byte |\n|---|---:|---:|---:|")
    made = [("readings, rich records", readings(Path("/tmp/jqmagic-ratio-rich.json"), 50)),
            ("readings, short records",
             readings(Path("/tmp/jqmagic-ratio-short.json"), 50, rich=False)),
            ("an array of integers", numbers(Path("/tmp/jqmagic-ratio-numbers.json"), 50))]
    for name, path in made:
        size = path.stat().st_size
        _, _, peak, _, _ = timed([JQ, "length", str(path)], None)
        print(f"| {name} | {size / 1e6:.0f} | {peak / 1e6:,.0f} MB | {peak / size:.1f} |")
        path.unlink()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--mb", type=int, default=1500)
    options.add_argument("--cap-gb", type=float, default=16.0)
    options.add_argument("--keep", action="store_true")
    options.add_argument("--ratio", action="store_true")
    options.add_argument("--skip", nargs="*", default=[], metavar="TOOL",
                         help="tools left out (jaq: several minutes a question at 1.5 GB)")
    given = options.parse_args()
    if given.ratio:
        measure_ratio()
        return
    path = readings(Path(f"/tmp/jqmagic-readings-{given.mb}mb.json"), given.mb)
    tools = {"jq 1.8.2": ([JQ], given.cap_gb),
             **({"jaq": ([JAQ], given.cap_gb)} if JAQ else {}),
             "jqmagic": ([str(BIN / "jqmagic"), "query"], None)}
    tools = {name: tool for name, tool in tools.items() if name not in given.skip}
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; {path.stat().st_size / 1e9:.2f} GB; jq and jaq "
          f"capped at {given.cap_gb:.0f} GB of address space\n")
    print("| question | tool | wall | CPU | peak RSS | x jq wall | same bytes as jq |\n"
          "|---|---|---:|---:|---:|---:|---|")
    try:
        for program in QUESTIONS.values():
            answers: dict[str, tuple] = {}
            for tool, (command, cap) in tools.items():
                answers[tool] = timed([*command, program, str(path)], cap)
                wall, cpu, peak, out, failed = answers[tool]
                reference = answers["jq 1.8.2"]
                ratio = f"{wall / reference[0]:.2f}x" if not reference[4] else "-"
                same = "-" if tool == "jq 1.8.2" else \
                    "jq failed" if reference[4] else str(out == reference[3]).lower()
                shown = program.replace("|", "\\|")  # a table cell
                print(f"| `{shown}` | {tool} | {wall:.1f} s | {cpu:.1f} s | "
                      f"{peak / 1e6:,.0f} MB | {ratio} | {f'{same} {failed}'.strip()} |",
                      flush=True)
    finally:
        if not given.keep:
            path.unlink()


if __name__ == "__main__":
    main()
