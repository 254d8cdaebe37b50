"""The formats sessions: a JSON Lines event log and a YAML stream of manifests, questions
in a row in one jqmagic process (the first parses, the rest reuse the cache) against the
tools people use instead, each in its own process per question (wall time, peak RSS), in
one run. jqmagic runs twice: as a plain `pip install` gives it (the binding's unoptimised
libjq behind the fast path) and with `make libjq`'s -O2 build.

    .venv/bin/python bench/formats.py jsonl --mb 60     # -> bench/RESULTS-formats.md
    .venv/bin/python bench/formats.py yaml --mb 20
    .venv/bin/python bench/formats.py jsonl --quick     # 2 MB, prints only
    ... --plain-python /tmp/v/bin/python   # the plain install: a venv with `pip install .`

JSON Lines: jq 1.8.2 (the oracle built from the binding's source), jq 1.6 (Debian), jaq,
DuckDB (`read_json` into a table, then the same questions in SQL: the bench extra). YAML:
yq (python-yq: PyYAML's loader, then jq 1.6) and PyYAML's C safe loader + Python answers.
Every jqmagic answer is compared with jq 1.8.2's (JSON Lines) or with the libjq path's
(YAML: the fast path off, no cache).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import formatsdata  # noqa: E402
from run import JAQ, PY, measure  # noqa: E402

JQ18 = str(Path(PY).parent / "jq-1.8.2")
JQ16 = "/usr/bin/jq"
YQ = "/usr/bin/yq"

# (what, jq program run with -n, DuckDB SQL over table t)
EVENTS = [
    ("select on a string", '[inputs | select(.type == "PushEvent")] | length',
     "SELECT count(*) FROM t WHERE type = 'PushEvent'"),
    ("reduce into an object", "reduce inputs as $e ({}; .[$e.type] += 1)",
     "SELECT type, count(*) FROM t GROUP BY type"),
    ("unique", "[inputs | .actor.login] | unique | length",
     "SELECT count(DISTINCT actor.login) FROM t"),
    ("group_by", "[inputs | .repo.name] | group_by(.) | map({repo: .[0], n: length}) | "
     "sort_by(-.n) | .[:3]",
     "SELECT repo.name, count(*) AS n FROM t GROUP BY 1 ORDER BY n DESC LIMIT 3"),
    ("dates", '[inputs | .created_at | fromdateiso8601 | strftime("%H")] | group_by(.) | '
     "map(length) | max",
     "SELECT max(c) FROM (SELECT strftime(CAST(created_at AS TIMESTAMP), '%H') AS h, "
     "count(*) AS c FROM t GROUP BY h)"),
    ("ascii_downcase", '[inputs | .actor.login | ascii_downcase | select(startswith("zo"))]'
     " | length", "SELECT count(*) FROM t WHERE starts_with(lower(actor.login), 'zo')"),
    ("optional fields", "[inputs | .payload.commits[]? | .message] | length",
     "SELECT sum(coalesce(len(payload.commits), 0)) FROM t"),
    ("test()", '[inputs | select(.repo.name | test("^al.*-1[0-9]$"))] | length',
     "SELECT count(*) FROM t WHERE regexp_matches(repo.name, '^al.*-1[0-9]$')"),
    ("interpolation", '[inputs | "\\(.type) by \\(.actor.login) at \\(.created_at)"] | '
     "length", "SELECT sum(length(type || ' by ' || actor.login || ' at ' || "
     "CAST(created_at AS VARCHAR))) FROM t"),
    ("arithmetic", "[inputs | (.payload.size // 0) * 2 + (.payload.number // 0)] | add",
     "SELECT sum(coalesce(payload.size, 0) * 2 + coalesce(payload.number, 0)) FROM t"),
    ("first()", 'first(inputs | select(.org.login? == "docs")) | .id',
     "SELECT id FROM t WHERE org.login = 'docs' LIMIT 1"),
]

# (what, jq program run with -n, Python over docs: the stream's documents)
MANIFESTS = [
    ("deployments", '[inputs | select(.kind == "Deployment")] | length',
     "sum(1 for d in docs if d['kind'] == 'Deployment')"),
    ("images", "[inputs | .spec.template.spec.containers[]?.image] | unique | length",
     "len({c['image'] for d in docs if d['kind'] == 'Deployment' "
     "for c in d['spec']['template']['spec']['containers']})"),
    ("by namespace", "reduce inputs as $d ({}; .[$d.metadata.namespace] += 1)",
     "collections.Counter(d['metadata']['namespace'] for d in docs)"),
    ("ports", '[inputs | select(.kind == "Service") | .spec.ports[].targetPort] | add',
     "sum(p['targetPort'] for d in docs if d['kind'] == 'Service' "
     "for p in d['spec']['ports'])"),
    ("merged labels", "first(inputs | select(.spec.template.metadata.labels.managed? == "
     "false)) | .metadata.name",
     "next(d['metadata']['name'] for d in docs if d['kind'] == 'Deployment' and "
     "d['spec']['template']['metadata']['labels']['managed'] is False)"),
]

SESSION = """
import json, sys, time
import jqmagic
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
path, programs = sys.argv[1], json.loads(sys.argv[2])
settings.fast_path = sys.argv[3] != "libjq-only"
if int(sys.argv[4]):
    settings.doc_cache_bytes = int(sys.argv[4])
started = time.perf_counter()
jqmagic.query("null", null_input=True)  # the worker starts, as %load_ext jqmagic starts it
startup = time.perf_counter() - started
rows = []
for program in programs:
    started = time.perf_counter()
    result = jqmagic.query(program, path, null_input=True, compact=True, passthrough=True,
                           timeout=900, cache=sys.argv[3] != "oracle")
    rows.append([time.perf_counter() - started, result.engine, result.text])
pid = shared_worker()._process.pid
peak = [line for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM")][0]
print(json.dumps({"rows": rows, "worker_peak_mb": int(peak.split()[1]) / 1024,
                  "startup": startup}))
"""

DUCKDB = """
import json, sys, time
import duckdb
path, queries = sys.argv[1], json.loads(sys.argv[2])
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
times = []
t = time.perf_counter()
con.execute(f"CREATE TABLE t AS SELECT * FROM read_json('{path}', format='newline_delimited')")
times.append(time.perf_counter() - t)
for sql in queries:
    t = time.perf_counter()
    con.execute(sql).fetchall()
    times.append(time.perf_counter() - t)
print(json.dumps(times))
"""

PYYAML = """
import collections, gc, json, sys, time
import yaml
t = time.perf_counter()
gc.disable()
docs = list(yaml.load_all(open(sys.argv[1], encoding="utf-8"), Loader=yaml.CSafeLoader))
times = [time.perf_counter() - t]
for expr in json.loads(sys.argv[2]):
    t = time.perf_counter()
    eval(expr)
    times.append(time.perf_counter() - t)
print(json.dumps(times))
"""


PLAIN_PY = PY  # --plain-python: the interpreter of a venv where `pip install .` ran
BUDGET = 0  # --budget-gb: the document budget in bytes (0: jqmagic's default)
JQ16_TOO = True  # --no-jq16: leave jq 1.6 out (a 500 MB run: it takes as long as the rest)


def session(path: Path, programs: list[str], mode: str, plain: bool = False) -> dict:
    """One jqmagic session, run outside the source tree (so that a plain install imports
    its own copy); ``plain``: as a plain install runs it (no -O2 libjq: the binding's
    copy, whatever this venv holds)."""
    env = {**os.environ, "JQMAGIC_LIBJQ": "/nonexistent/libjq.so"} if plain else None
    done = subprocess.run([PLAIN_PY if plain else PY, "-c", SESSION, str(path.resolve()),
                           json.dumps(programs), mode, str(BUDGET)], cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout)


def helper(code: str, path: Path, items: list[str]) -> list[float] | None:
    done = subprocess.run([PY, "-c", code, str(path), json.dumps(items)],
                          capture_output=True, text=True, timeout=3600)
    # the last line: DuckDB may draw a progress bar on a long load before it
    return json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else None


def budget_note() -> str:
    return f", document budget {BUDGET / 2**30:g} GiB" if BUDGET else ""


def ratio(seconds: float, than) -> str:
    """``seconds`` over a run's (or a total's) seconds; "-" when it was not run."""
    if than is None:
        return "-"
    return f"{seconds / (than if isinstance(than, float) else than.seconds):.3f}x"


def cell(run) -> str:
    return f"{run.seconds:.2f} s / {run.rss_mb:.0f} MB" if run else "-"


def load_average() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def jsonl_session(path: Path) -> list[str]:
    programs = [p for _, p, _ in EVENTS]
    started = load_average()
    plain = session(path, programs, "fast", plain=True)
    built = session(path, programs, "fast")
    duck = helper(DUCKDB, path, [sql for _, _, sql in EVENTS])
    lines = [f"### JSON Lines: {path.stat().st_size / 1e6:.0f} MB of events, "
             f"{len(programs)} `-n inputs` questions ({time.strftime('%Y-%m-%d %H:%M')} UTC, "
             f"load average {started} at the start{budget_note()})", "",
             "| question | jq 1.8.2 | jq 1.6 | jaq | DuckDB | jqmagic plain install (engine) "
             "| jqmagic make libjq | plain / jq 1.8.2 | plain / jq 1.6 | same as jq 1.8.2 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    totals = dict.fromkeys(("jq18", "jq16", "jaq", "plain", "built"), 0.0)
    later = []
    for i, ((what, program, _), p, b) in enumerate(zip(EVENTS, plain["rows"], built["rows"],
                                                       strict=True)):
        jq18 = measure([JQ18, "-nc", program, str(path)], 1)[0]
        jq16 = measure([JQ16, "-nc", program, str(path)], 1)[0] if JQ16_TOO else None
        jaq = measure([JAQ, "-nc", program, str(path)], 1)[0] if JAQ else None
        for key, run in (("jq18", jq18.seconds), ("jq16", jq16.seconds if jq16 else 0),
                         ("jaq", jaq.seconds if jaq else 0), ("plain", p[0]),
                         ("built", b[0])):
            totals[key] += run
        if i:
            later.append(p[0] / jq18.seconds)
        same = p[2] == jq18.out == b[2]
        duck_cell = f"{duck[i + 1]:.3f} s" if duck else "-"
        lines.append(f"| {what}: `{program.replace('|', chr(92) + '|')}` | {cell(jq18)} | "
                     f"{cell(jq16)} | {cell(jaq)} | {duck_cell} | {p[0]:.3f} s ({p[1]}) | "
                     f"{b[0]:.3f} s ({b[1]}) | {p[0] / jq18.seconds:.3f}x | "
                     f"{ratio(p[0], jq16)} | {'yes' if same else 'NO'} |")
    duck_total = sum(duck) if duck else float("nan")
    jq16_total = f"{totals['jq16']:.2f} s" if totals["jq16"] else "- (not run)"
    lines += ["", f"Totals: jq 1.8.2 {totals['jq18']:.2f} s, jq 1.6 {jq16_total}, "
              f"jaq {totals['jaq']:.2f} s, DuckDB {duck_total:.2f} s (its load "
              f"{duck[0] if duck else float('nan'):.2f} s), jqmagic plain install "
              f"{totals['plain']:.2f} s = **{totals['plain'] / totals['jq18']:.3f}x** jq 1.8.2, "
              f"**{ratio(totals['plain'], totals['jq16'] or None)}** jq 1.6, "
              f"{totals['plain'] / duck_total:.1f}x DuckDB; with make libjq "
              f"{totals['built']:.2f} s. First question (the parse) "
              f"{plain['rows'][0][0]:.2f} s = "
              f"{plain['rows'][0][0] / totals['jq18'] * len(EVENTS):.2f}x an average jq 1.8.2 "
              f"question (the worker started before it, as `%load_ext jqmagic` starts it: "
              f"{plain['startup']:.2f} s); later questions {min(later):.3f}x-"
              f"{max(later):.3f}x jq 1.8.2. The worker's peak RSS: {plain['worker_peak_mb']:.0f}"
              f" MB (plain), {built['worker_peak_mb']:.0f} MB (make libjq); load average "
              f"{load_average()} at the end.", ""]
    return lines


def yaml_session(path: Path) -> list[str]:
    programs = [p for _, p, _ in MANIFESTS]
    started = load_average()
    plain = session(path, programs, "fast", plain=True)
    built = session(path, programs, "fast")
    oracle = session(path, programs, "oracle")
    py = helper(PYYAML, path, [expr for _, _, expr in MANIFESTS])
    lines = [f"### YAML: {path.stat().st_size / 1e6:.0f} MB of commented multi-document "
             f"manifests, {len(programs)} questions ({time.strftime('%Y-%m-%d %H:%M')} UTC, "
             f"load average {started} at the start{budget_note()})", "",
             "| question | yq | jqmagic plain install (engine) | jqmagic make libjq | "
             "plain / yq | same as libjq 1.8.2 | same as yq |",
             "|---|---:|---:|---:|---:|:---:|:---:|"]
    totals = dict.fromkeys(("yq", "plain", "built"), 0.0)
    firsts = []
    for (what, program, _), p, b, o in zip(MANIFESTS, plain["rows"], built["rows"],
                                           oracle["rows"], strict=True):
        yq = measure([YQ, "-nc", program, str(path)], 1)[0]
        firsts.append((yq.seconds, p[0]))
        totals["yq"] += yq.seconds
        totals["plain"] += p[0]
        totals["built"] += b[0]
        lines.append(f"| {what}: `{program.replace('|', chr(92) + '|')}` | {cell(yq)} | "
                     f"{p[0]:.3f} s ({p[1]}) | {b[0]:.3f} s ({b[1]}) | "
                     f"{p[0] / yq.seconds:.3f}x | {'yes' if p[2] == o[2] == b[2] else 'NO'} | "
                     f"{'yes' if p[2] == yq.out else 'no'} |")
    lines += ["", f"Totals: yq {totals['yq']:.2f} s, jqmagic plain install "
              f"{totals['plain']:.2f} s = **{totals['plain'] / totals['yq']:.3f}x** yq (with "
              f"make libjq {totals['built']:.2f} s); the first question "
              f"{firsts[0][1]:.2f} s against yq's {firsts[0][0]:.2f} s = "
              f"**{firsts[0][1] / firsts[0][0]:.2f}x** (the worker started before it: "
              f"{plain['startup']:.2f} s). PyYAML's C safe loader + Python "
              f"answers: load {py[0] if py else float('nan'):.2f} s, answers "
              f"{sum(py[1:]) if py else float('nan'):.3f} s. The worker's peak RSS "
              f"{plain['worker_peak_mb']:.0f} MB; load average {load_average()} at the end.", ""]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("format", choices=["jsonl", "yaml"])
    parser.add_argument("--mb", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--plain-python", default=PY,
                        help="the Python of a venv with a plain `pip install .` (default: "
                             "this one, its -O2 libjq hidden)")
    parser.add_argument("--budget-gb", type=float, default=0,
                        help="the document budget (default: jqmagic's, 1 GiB); 500 MB of "
                             "JSON Lines make about 4.5 GB of Python values")
    parser.add_argument("--no-jq16", action="store_true", help="leave jq 1.6 out")
    args = parser.parse_args()
    global PLAIN_PY, BUDGET, JQ16_TOO
    PLAIN_PY, BUDGET, JQ16_TOO = args.plain_python, int(args.budget_gb * 2**30), \
        not args.no_jq16
    megabytes = 2 if args.quick else args.mb or (60 if args.format == "jsonl" else 20)
    if args.format == "jsonl":
        lines = jsonl_session(formatsdata.events_file(megabytes))
    else:
        lines = yaml_session(formatsdata.manifests_file(megabytes))
    print("\n".join(lines))
    if not args.quick:
        out = HERE / "RESULTS-formats.md"
        old = out.read_text() if out.exists() else "# Formats sessions\n\n" + \
            __doc__.split("\n\n")[0] + "\n\n"
        out.write_text(old + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
