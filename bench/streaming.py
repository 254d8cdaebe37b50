"""Results as they come: ``-c '.[]' BIG | head -1`` and ``-c '.[]' BIG > /dev/null`` for
jq 1.8.2, jaq and the ``jqmagic query`` command line, on arrays of repositories (100 MB and
1 GB by default), in one run, written to bench/RESULTS-streaming.md.

Each command is a fresh process (the command line as a user runs it: jqmagic parses the file
in a new worker each time). "first" is the wall time until the first line reaches a pipe
whose reader then goes away (as ``head -1``); "all" is the wall time and GNU time's peak RSS
of the whole output written to /dev/null; the bytes of jqmagic's output are checked against
jq 1.8.2's (by digest) for every size.

Usage: python bench/streaming.py [--mb 100 1024] [--out bench/RESULTS-streaming.md]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from datagen import array_file  # noqa: E402

PY = sys.executable
BIN = Path(PY).parent
TOOLS = {
    "jq 1.8.2": [str(BIN / "jq-1.8.2")],
    "jaq": [shutil.which("jaq", path=str(BIN)) or shutil.which("jaq") or "jaq"],
    "jqmagic": [PY, "-m", "jqmagic", "query"],
}
PROGRAM = ["-c", ".[]"]


def first_line(command: list[str], path: Path) -> tuple[float, float]:
    """Seconds until the first line arrives, and until the process is gone once the reader
    closes the pipe (``| head -1``)."""
    started = time.monotonic()
    with subprocess.Popen([*command, *PROGRAM, str(path)], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as process:
        process.stdout.readline()
        first = time.monotonic() - started
        process.stdout.close()
        process.wait()
    return first, time.monotonic() - started


def whole(command: list[str], path: Path) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (bytes, GNU time) and the output's digest."""
    out = path.with_suffix(".out")
    with open(out, "wb") as sink:
        done = subprocess.run(["/usr/bin/time", "-f", "%e %M", "--", *command, *PROGRAM,
                               str(path)], stdout=sink, stderr=subprocess.PIPE, text=True)
    seconds, kb = done.stderr.strip().splitlines()[-1].split()
    digest = hashlib.sha256()
    with open(out, "rb") as written:
        while block := written.read(1 << 22):
            digest.update(block)
    out.unlink()
    return float(seconds), int(kb) * 1024, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, nargs="+", default=[100, 1024])
    parser.add_argument("--out", default=str(Path(__file__).parent / "RESULTS-streaming.md"))
    options = parser.parse_args()
    rows = []
    for mb in options.mb:
        path = array_file(mb)
        size = os.path.getsize(path)
        digests = {}
        for name, command in TOOLS.items():
            first, gone = first_line(command, path)
            seconds, peak, digests[name] = whole(command, path)
            rows.append((f"{size / 1e6:,.0f} MB", name, first, gone, seconds, peak))
            print(rows[-1], flush=True)
        same = "yes" if digests["jqmagic"] == digests["jq 1.8.2"] else "NO"
        rows.append((f"{size / 1e6:,.0f} MB", f"jqmagic's bytes = jq 1.8.2's: {same}",
                     None, None, None, None))
    lines = ["# Results as they come: `-c '.[]' BIG`", "",
             f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores; each cell one fresh "
             "process (`python bench/streaming.py`). first: until the first line reaches "
             "the pipe; gone: until the process has ended after the reader closed it "
             "(`| head -1`); all: the whole output to /dev/null, with GNU time's peak RSS.",
             "", "| file | tool | first | gone after head -1 | all > /dev/null | peak RSS |",
             "|---|---|---:|---:|---:|---:|"]
    for file, name, first, gone, seconds, peak in rows:
        if first is None:
            lines.append(f"| {file} | {name} | | | | |")
            continue
        lines.append(f"| {file} | {name} | {first:.2f} s | {gone:.2f} s | {seconds:.2f} s | "
                     f"{peak / 2**20:,.0f} MB |")
    Path(options.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
