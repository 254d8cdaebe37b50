"""Generated analyst sessions over a held-out-like JSON Lines log (issue 57): a dozen
questions drawn from the shapes analysts ask (counts by key, selects on comparisons and
regexes, sums, min/max, sort_by on a nested field, unique, dates, first/limit, optional
arrays), each in jq and in SQL, asked in a row in one jqmagic process, against jq 1.8.2
and jaq (a process per question: each parses again) and DuckDB (the file loaded into a
table once, the load counted). Every jqmagic answer is compared with jq 1.8.2's.

    python bench/analyst_sessions.py [--mb 60] [--n 12] [--seeds 1 2] [--no-jaq]  # tables

Done when (issue 57): the whole session within 2x DuckDB's (table load included) at
60-80 MB, 3x at 500 MB; no question slower than jq 1.8.2; every answer jq's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import formats  # noqa: E402
import heldout  # noqa: E402
from run import JAQ, PY, TIME  # noqa: E402

CAP = 300.0


def question(rng: random.Random) -> tuple[str, str]:
    """One question as (jq program run with -n, DuckDB SQL over table t)."""
    kind, n = rng.choice(heldout.KINDS), rng.randrange(1, 6)
    word = rng.choice(["str", "ss", "o", "ilk", "é", "an"])
    limit = rng.choice([-20, 0, 10, 50])
    shapes = [
        ("[inputs | .kind] | group_by(.) | map({k: .[0], n: length})",
         "SELECT kind, count(*) FROM t GROUP BY kind ORDER BY kind"),
        (f'[inputs | select(.kind == "{kind}")] | length',
         f"SELECT count(*) FROM t WHERE kind = '{kind}'"),
        ("[inputs | .amount // 0] | add", "SELECT sum(coalesce(amount, 0)) FROM t"),
        ("[inputs | .score] | max", "SELECT max(score) FROM t"),
        ("[inputs | .score] | min", "SELECT min(score) FROM t"),
        (f'[inputs | select(.user.name | test("{word}"; "i"))] | length',
         f"SELECT count(*) FROM t WHERE regexp_matches(\"user\".name, '{word}', 'i')"),
        (f"[inputs | {{id, lat: .geo.lat}}] | sort_by(.lat) | .[-{n}:]",
         f"SELECT id, geo.lat FROM t ORDER BY geo.lat DESC NULLS LAST LIMIT {n}"),
        ("[inputs | .geo.city] | unique | length",
         "SELECT count(DISTINCT geo.city) FROM t"),
        ('[inputs | .ts | fromdateiso8601 | strftime("%H")] | group_by(.) | map(length) | max',
         "SELECT max(c) FROM (SELECT strftime(CAST(ts AS TIMESTAMP), '%H') h, count(*) c "
         "FROM t GROUP BY h)"),
        (f'first(inputs | select(.kind == "{kind}" and .amount != null)) | .id',
         f"SELECT id FROM t WHERE kind = '{kind}' AND amount IS NOT NULL LIMIT 1"),
        (f"[limit({n}; inputs | select(.score > {limit}) | .id)]",
         f"SELECT id FROM t WHERE score > {limit} LIMIT {n}"),
        ("[inputs | .tags[]?] | group_by(.) | map({k: .[0], n: length})",
         "SELECT tag, count(*) FROM (SELECT unnest(tags) tag FROM t) GROUP BY tag"),
        ("[inputs | .items[]? | .qty * .price] | add",
         "SELECT sum(i.qty * i.price) FROM (SELECT unnest(items) i FROM t)"),
        ("reduce inputs as $e ({}; .[$e.kind] += ($e.amount // 0))",
         "SELECT kind, sum(coalesce(amount, 0)) FROM t GROUP BY kind"),
        ("[inputs | select(.ok)] | min_by(.score) | .id",
         "SELECT id FROM t WHERE ok ORDER BY score LIMIT 1"),
        (f'[inputs | select(.kind == "{kind}") | .user.id] | max',
         f"SELECT max(\"user\".id) FROM t WHERE kind = '{kind}'"),
        ("[inputs | .user.name] | unique | length",
         "SELECT count(DISTINCT \"user\".name) FROM t"),
        ('[inputs | select(.ts >= "2025-03-15")] | length',
         "SELECT count(*) FROM t WHERE ts >= '2025-03-15'"),
    ]
    return rng.choice(shapes)


SESSION = """
import json, os, sys, time
import jqmagic
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
path, programs = sys.argv[1], json.loads(sys.argv[2])
if os.environ.get("BENCH_BUDGET"):  # the document budget, a multiple of the file's size
    settings.doc_cache_bytes = int(float(os.environ["BENCH_BUDGET"]) *
                                   os.path.getsize(path))
jqmagic.query("null", null_input=True)  # the worker starts, as %load_ext jqmagic starts it
pid = shared_worker()._process.pid
tick = os.sysconf("SC_CLK_TCK")

def cpu():  # the worker's CPU seconds, its reaped children's (the literal facts) with them
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / tick + time.process_time()

rows = []
for program in programs:
    started, used = time.perf_counter(), cpu()
    result = jqmagic.query(program, path, null_input=True, compact=True, passthrough=True,
                           timeout=900)
    rows.append([time.perf_counter() - started, cpu() - used, result.engine, result.text])
peak = [line for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM")][0]
print(json.dumps({"rows": rows, "worker_peak_mb": int(peak.split()[1]) / 1024}))
"""

DUCKDB = """
import json, resource, sys, time
import duckdb
path, queries = sys.argv[1], json.loads(sys.argv[2])
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
times = []
for sql in [None, *queries]:
    t, c = time.perf_counter(), time.process_time()  # every thread's CPU
    if sql is None:
        con.execute(f"CREATE TABLE t AS SELECT * FROM read_json('{path}', "
                    "format='newline_delimited')")
    else:
        con.execute(sql).fetchall()
    times.append([time.perf_counter() - t, time.process_time() - c])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"times": times, "peak_mb": peak}))
"""


@dataclass
class Timed:
    """One run: wall and CPU seconds, peak RSS in MB, stdout."""

    wall: float
    cpu: float
    rss_mb: float = 0.0
    out: str = ""


def timed(argv: list[str], cap: float) -> Timed:
    """``argv`` run once under GNU time: wall, user + system CPU, peak RSS, stdout; at the
    cap, counted at the cap with no answer."""
    started = time.perf_counter()
    with subprocess.Popen([TIME, "-f", "%U %S %M", *argv], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=cap)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return Timed(cap, cap, 0.0, STOPPED)
    wall = time.perf_counter() - started
    if process.returncode:
        raise RuntimeError(f"{argv[:3]} failed: {err.decode()[-300:]}")
    user, system, rss = err.decode().strip().splitlines()[-1].split()
    return Timed(wall, float(user) + float(system), int(rss) / 1024, out.decode().strip())


STOPPED = "(stopped at the cap)"
PLAIN = {**os.environ, "JQMAGIC_LIBJQ": "/nonexistent/libjq.so"}
"""jqmagic as a plain install without a C compiler runs it (the binding's libjq)."""


def _python(code: str, path: Path, items: list[str], env: dict | None = None) -> Any:
    done = subprocess.run([PY, "-c", code, str(path), json.dumps(items)], capture_output=True,
                          text=True, timeout=7200, cwd=tempfile.gettempdir(), env=env)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cell(run: Timed | None) -> str:
    return "-" if run is None else f"{run.wall:.3f} s ({run.cpu:.2f})"


def session(path: Path, seed: int, count: int, jaq: bool = True,
            budget: float | None = None) -> list[str]:
    rng = random.Random(seed)
    pairs = [question(rng) for _ in range(count)]
    programs = [p for p, _ in pairs]
    started = formats.load_average()
    env = {**PLAIN, "BENCH_BUDGET": str(budget)} if budget else PLAIN
    mine = _python(SESSION, path.resolve(), programs, env)
    try:
        ducked = _python(DUCKDB, path, [sql for _, sql in pairs])
        duck = [Timed(w, c) for w, c in ducked["times"]]
    except (RuntimeError, subprocess.TimeoutExpired):
        ducked, duck = {}, None
    size = path.stat().st_size
    peak = mine["worker_peak_mb"]
    lines = [f"#### Seed {seed}: {count} generated questions, {size / 1e6:.0f} MB "
             f"({time.strftime('%Y-%m-%d %H:%M')} UTC, load average {started} at the start; "
             + (f"document budget {budget}x the file; " if budget else "")
             + f"jqmagic worker peak {peak:.0f} MB = {peak * 2 ** 20 / size:.2f}x the file"
             + (f", DuckDB's {ducked['peak_mb']:.0f} MB" if ducked else "") + ")", "",
             "Each cell: wall seconds (CPU seconds); ratios of wall, then of CPU.", "",
             "| question | jq 1.8.2 | jaq | DuckDB | jqmagic (engine) | / jq 1.8.2 | / DuckDB "
             "| same as jq |", "|---|---:|---:|---:|---:|---:|---:|:---:|"]
    if duck:
        lines.append(f"| DuckDB table load | | | {_cell(duck[0])} | | | | |")
    total = {name: Timed(0.0, 0.0) for name in ("jq", "jaq", "mine")}
    slower = same = 0
    jq_peak = 0.0
    for i, (program, (wall, cpu, engine, text)) in enumerate(zip(programs, mine["rows"],
                                                                 strict=True)):
        ours = Timed(wall, cpu)
        jq = timed([formats.JQ18, "-nc", program, str(path)], CAP)
        jq_peak = max(jq_peak, jq.rss_mb)
        theirs = None
        if jaq and JAQ:
            try:
                theirs = timed([JAQ, "-nc", program, str(path)], CAP)
            except RuntimeError:
                theirs = None  # a builtin jaq lacks
        sql = duck[i + 1] if duck else None
        agrees = text == jq.out or jq.out == STOPPED
        for name, run in (("jq", jq), ("jaq", theirs), ("mine", ours)):
            if run is not None:
                total[name].wall += run.wall
                total[name].cpu += run.cpu
        slower += wall > jq.wall
        same += agrees
        shown = program.replace("|", "\\|")
        lines.append(f"| `{shown}` | {_cell(jq)} | {_cell(theirs)} | {_cell(sql)} | "
                     f"{_cell(ours)} ({engine}) | {_ratios(ours, jq)} | "
                     f"{_ratios(ours, sql) if sql else '-'} | {'yes' if agrees else '**no**'} |")
    duck_total = Timed(sum(d.wall for d in duck), sum(d.cpu for d in duck)) if duck else None
    mine_total = total["mine"]
    lines += ["", f"Peak RSS of jq 1.8.2's biggest question: {jq_peak:.0f} MB.",
              "", f"Session: jqmagic {_cell(mine_total)}; jq 1.8.2 {_cell(total['jq'])} "
              f"(**{_ratios(mine_total, total['jq'])}**); jaq {_cell(total['jaq'])}; DuckDB "
              + (f"{_cell(duck_total)} with its load (**{_ratios(mine_total, duck_total)}**)"
                 if duck_total else "not installed")
              + f"; slower than jq: **{slower}**; answers equal to jq's: "
              f"**{same} of {count}**.", ""]
    return lines


def _ratios(mine: Timed, than: Timed) -> str:
    """Wall ratio, CPU ratio."""
    def one(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b > 0 else "-"
    return f"{one(mine.wall, than.wall)}; CPU {one(mine.cpu, than.cpu)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--no-jaq", action="store_true", help="jq 1.8.2 and DuckDB only")
    parser.add_argument("--budget", type=float, help="jqmagic's document budget, a multiple "
                        "of the file's size (1.5: a file whose whole values are over it is "
                        "held as spans of its text)")
    args = parser.parse_args()
    path = heldout.events_file(args.mb)
    for seed in args.seeds:
        print("\n".join(session(path, seed, args.n, not args.no_jaq, args.budget)), flush=True)


if __name__ == "__main__":
    main()
