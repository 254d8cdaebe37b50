"""Benchmark jqmagic against the jq CLI, jaq and plain Python on the same files, in one run.

Every row runs each tool in its own process (wall time, peak RSS from GNU time) and reports
the median of N runs and the ratio to the jq CLI. Warm rows time a second, different query
inside one jqmagic process. Data is generated deterministically under bench/data/.

    .venv/bin/python bench/run.py            # the full table -> bench/RESULTS.md (make bench)
    .venv/bin/python bench/run.py --quick    # small files, one run each: a smoke test
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import datagen  # noqa: E402

PY = sys.executable
JQ = shutil.which("jq") or "/usr/bin/jq"
TIME = "/usr/bin/time"  # GNU time (Debian package "time")
JAQ = shutil.which("jaq", path=str(Path(PY).parent)) or shutil.which("jaq")
SELECT = "[.[] | select(.score > 900) | .id] | length"
UNIQUE = "[.[] | .owner.login] | unique | length"
FALLBACK = '[.[] | select(.name | test("^a"))] | length'
LOADERS = {
    "json": "import gc, orjson; gc.disable(); d = orjson.loads(open(F, 'rb').read())",
    "yaml": "import yaml; d = yaml.load(open(F), Loader=yaml.CSafeLoader)",
}
PYTHON = {
    "length": "len(d)",
    SELECT: "sum(1 for x in d if x['score'] > 900)",
    UNIQUE: "len({x['owner']['login'] for x in d})",
    FALLBACK: "sum(1 for x in d if re.match('a', x['name']))",
}


@dataclass
class Run:
    seconds: float
    rss_mb: float
    out: str = ""


@dataclass
class Row:
    what: str
    cells: dict[str, list[Run]] = field(default_factory=dict)


def measure(argv: list[str], runs: int, timeout: float | None = None) -> list[Run]:
    """Run ``argv`` ``runs`` times: wall time, peak RSS (MB) and stdout of each
    (``subprocess.TimeoutExpired`` past ``timeout`` seconds).

    Peak RSS comes from ``/usr/bin/time -f %M``: a child of this (bigger) process would
    inherit its high-water mark across fork and exec.
    """
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        done = _run_group([TIME, "-f", "%M", *argv], timeout)
        elapsed = time.perf_counter() - started
        if done.returncode:
            raise RuntimeError(f"{argv[:3]} failed: {done.stderr.decode()[-300:]}")
        rss_kb = int(done.stderr.decode().strip().splitlines()[-1])
        out.append(Run(elapsed, rss_kb / 1024, done.stdout.decode().strip()))
    return out


def _run_group(argv: list[str], timeout: float | None) -> subprocess.CompletedProcess:
    """``subprocess.run`` whose timeout stops the whole process group: killing
    ``/usr/bin/time`` alone left the program it runs on a core for the next bench."""
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def tools(program: str, path: Path, runs: int, jsonl: bool = False) -> dict[str, list[Run]]:
    """jq CLI, jaq, jqmagic (command line, cold) and plain Python on one query."""
    cells = {"jq CLI": measure([JQ, "-c", program, str(path)], runs)}
    if JAQ:
        cells["jaq"] = measure([JAQ, "-c", program, str(path)], runs)
    cells["jqmagic"] = measure([PY, "-m", "jqmagic", "query", "-c", "--all", program,
                                str(path)], runs)
    python = _python(program, path, jsonl)
    if python:
        cells["Python"] = measure([PY, "-c", python], runs)
    return cells


def _python(program: str, path: Path, jsonl: bool) -> str | None:
    if jsonl:
        return (f"import orjson\nfor line in open({str(path)!r}, 'rb'):\n"
                f"    x = orjson.loads(line)\n    if x['score'] > 900: print(x['id'])")
    expr = PYTHON.get(program)
    if expr is None:
        return None
    loader = LOADERS["yaml" if path.suffix == ".yaml" else "json"].replace("F", repr(str(path)))
    return f"import re\n{loader}\nprint({expr})"


def warm(path: Path, programs: list[str], runs: int) -> list[float]:
    """Seconds of each program after the first, in one jqmagic process (medians)."""
    samples = [json.loads(measure([PY, str(HERE / "session.py"), str(path), *programs], 1)[0]
                          .out) for _ in range(runs)]
    return [statistics.median(s[i] for s in samples) for i in range(len(programs))]


def import_time(runs: int) -> dict[str, float]:
    """Seconds beyond a bare interpreter: ``import jqmagic`` and ``%load_ext jqmagic``."""
    def median(code: str) -> float:
        return statistics.median(r.seconds for r in measure([PY, "-c", code], runs))

    bare = median("pass")
    shell = ("from IPython.core.interactiveshell import InteractiveShell\n"
             "s = InteractiveShell.instance()\n")
    return {"import jqmagic": median("import jqmagic") - bare,
            "%load_ext jqmagic": median(shell + "s.run_line_magic('load_ext', 'jqmagic')")
            - median(shell)}


# ---------------------------------------------------------------- the table


def _median(runs: list[Run]) -> Run:
    ordered = sorted(runs, key=lambda r: r.seconds)
    mid = ordered[len(ordered) // 2]
    return Run(statistics.median(r.seconds for r in runs), max(r.rss_mb for r in runs), mid.out)


def table(rows: list[Row]) -> str:
    names = ["jq CLI", "jaq", "Python", "jqmagic"]
    lines = ["| case | " + " | ".join(names) + " | jqmagic / jq |",
             "|---|" + "---:|" * (len(names) + 1)]
    for row in rows:
        med = {name: _median(runs) for name, runs in row.cells.items()}
        base = med.get("jq CLI")
        cells = [f"{med[n].seconds:.3f} s / {med[n].rss_mb:.0f} MB" if n in med and med[n].rss_mb
                 else f"{med[n].seconds:.3f} s" if n in med else "-" for n in names]
        ratio = (f"{med['jqmagic'].seconds / base.seconds:.2f}x" if base and "jqmagic" in med
                 else "-")
        what = row.what.replace("|", "\\|")
        lines.append(f"| {what} | " + " | ".join(cells) + f" | {ratio} |")
    return "\n".join(lines)


def check_agreement(rows: list[Row]) -> list[str]:
    """Rows where the tools printed different answers (jq's text is the reference)."""
    bad = []
    for row in rows:
        outs = {name: _median(runs).out for name, runs in row.cells.items() if runs[0].out}
        if len(set(outs.values())) > 1:
            bad.append(f"{row.what}: " + ", ".join(f"{k}={v[:40]!r}" for k, v in outs.items()))
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 MB files, one run each")
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (median)")
    parser.add_argument("--data", type=Path, default=datagen.DATA, help="where data goes")
    parser.add_argument("--no-500", dest="big", action="store_false", help="skip 500 MB")
    parser.add_argument("--out", type=Path, help="write the markdown here (default: "
                        "bench/RESULTS.md, or nothing with --quick)")
    args = parser.parse_args(argv)
    datagen.DATA = args.data
    size, runs = (1, 1) if args.quick else (100, args.runs)
    array, lines = datagen.array_file(size), datagen.jsonl_file(size)
    openapi = datagen.openapi_file(60 if args.quick else 3000)
    yaml_doc = datagen.yaml_file(20 if args.quick else 300)
    rows = [
        Row(f"{size} MB array, cold: `length`", tools("length", array, runs)),
        Row(f"{size} MB array, cold: `{SELECT}`", tools(SELECT, array, runs)),
        Row(f"{size} MB array, cold: `{UNIQUE}`", tools(UNIQUE, array, runs)),
        Row(f"{size} MB JSON Lines: `select(.score > 900) | .id`",
            tools("select(.score > 900) | .id", lines, runs, jsonl=True)),
        Row(f"{size} MB array, fallback to libjq: `{FALLBACK}`", tools(FALLBACK, array, runs)),
        Row(f"OpenAPI-like {openapi.stat().st_size >> 20} MB: "
            "`[.. | objects | select(has(\"operationId\"))] | length`",
            tools('[.. | objects | select(has("operationId"))] | length', openapi, runs)),
    ]
    yaml_prog = "[.paths[][].operationId] | length"
    rows.append(Row(f"YAML {yaml_doc.stat().st_size >> 10} KB: `{yaml_prog}`", {
        "jqmagic": measure([PY, "-m", "jqmagic", "query", "-c", yaml_prog, str(yaml_doc)],
                           runs),
        "Python": measure([PY, "-c", LOADERS["yaml"].replace("F", repr(str(yaml_doc)))
                           + "\nprint(sum(len(m) for m in d['paths'].values()))"], runs)}))
    warm_times = warm(array, ["length", SELECT, UNIQUE], runs)
    for program, seconds, cold_row in ((SELECT, warm_times[1], rows[1]),
                                       (UNIQUE, warm_times[2], rows[2])):
        rows.append(Row(f"{size} MB array, warm (after `length`): `{program}`",
                        {"jq CLI": cold_row.cells["jq CLI"], "jqmagic": [Run(seconds, 0)]}))
    if args.big and not args.quick:
        big = datagen.array_file(500)
        rows.append(Row("500 MB array, cold: `length` (one run, alone)", tools("length", big, 1)))
    imports = import_time(max(runs, 5))
    text = table(rows)
    notes = "\n".join(f"- {k}: {v * 1000:.0f} ms beyond a bare interpreter"
                      for k, v in imports.items())
    bad = check_agreement(rows)
    report = (f"{text}\n\nImport time (median of {max(runs, 5)}):\n{notes}\n"
              + ("\nDisagreements:\n" + "\n".join(bad) + "\n" if bad else ""))
    print(report)
    out = args.out or (None if args.quick else HERE / "RESULTS.md")
    if out is not None:
        out.write_text(_header(runs) + report, encoding="utf-8")
    return 1 if bad else 0


def _header(runs: int) -> str:
    jq_version = subprocess.run([JQ, "--version"], capture_output=True, text=True).stdout.strip()
    jaq_version = (subprocess.run([JAQ, "--version"], capture_output=True, text=True)
                   .stdout.strip() if JAQ else "absent")
    return (f"# Query benchmark\n\n`make bench` (bench/run.py) on {os.cpu_count()} shared cores, "
            f"Python {sys.version.split()[0]}, {jq_version} (Debian), {jaq_version}. Each cell: "
            f"median wall time of {runs} runs of a whole process / its peak RSS; jqmagic runs "
            "`python -m jqmagic query --all`. Warm rows: the query's time inside one jqmagic "
            "process after a first query parsed the file.\n\n")


if __name__ == "__main__":
    sys.exit(main())
