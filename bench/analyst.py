"""The analyst session: ten questions in a row on one Python-written file with floats,
jqmagic (one session: the first question parses, the rest reuse the parsed file) against
the jq CLI and jaq (a process per question: each parses again) and plain Python (load once,
then compute). Every jqmagic answer is checked against libjq 1.8.2 (the worker with the
fast path off, on a fresh parse).

    .venv/bin/python bench/analyst.py            # 60 MB -> bench/RESULTS-analyst.md
    .venv/bin/python bench/analyst.py --mb 500 --budget-gb 12   # the big file (appends)
    .venv/bin/python bench/analyst.py --quick    # 2 MB, a smoke test (prints only)
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import JAQ, JQ, PY, measure  # noqa: E402

QUESTIONS = [
    ("a count", ".orders | length",
     "len(d['orders'])"),
    ("a select", "[.orders[] | select(.price > 50)] | length",
     "sum(1 for o in d['orders'] if o['price'] > 50)"),
    ("one record", ".orders[1234]",
     "d['orders'][1234]"),
    ("an average", "[.orders[].price] | add / length",
     "sum(o['price'] for o in d['orders']) / len(d['orders'])"),
    ("group_by", ".orders | group_by(.region) | map({region: .[0].region, n: length})",
     "collections.Counter(o['region'] for o in d['orders'])"),
    ("interpolation", '[.orders[] | "\\(.name): \\(.price)"] | length',
     "len([f\"{o['name']}: {o['price']}\" for o in d['orders']])"),
    ("test()", '[.orders[] | select(.name | test("-9+$"))] | length',
     "sum(1 for o in d['orders'] if re.search('-9+$', o['name']))"),
    ("reduce", "reduce .orders[] as $o (0; . + $o.qty)",
     "sum(o['qty'] for o in d['orders'])"),
    ("@csv", ".orders[:1000][] | [.id, .name, .price] | @csv",
     "[','.join(map(str, (o['id'], o['name'], o['price']))) for o in d['orders'][:1000]]"),
    ("to_entries", "[.orders[:2000][] | to_entries[] | select(.value == null) | .key] | length",
     "sum(1 for o in d['orders'][:2000] for v in o.values() if v is None)"),
]


def make_file(path: Path, megabytes: int) -> None:
    """Orders as Python's json writes them: floats such as 12.0 and 3.5, nulls, arrays."""
    if path.exists():
        return
    rng = random.Random(7)
    regions = ["north", "south", "east", "west", None]
    count = megabytes * 1_000_000 // 139  # bytes per order as json.dump writes them
    orders = [{"id": i, "name": f"item-{i}", "price": round(rng.random() * 100, 2),
               "qty": float(rng.randint(1, 9)), "region": rng.choice(regions),
               "discount": None if i % 3 else 0.5, "tags": ["a", "b", "c"][: i % 4],
               "shipped": i % 2 == 0} for i in range(count)]
    with open(path, "w") as out:
        json.dump({"orders": orders, "generated_by": "json.dump"}, out)


SESSION = """
import json, os, sys, time
import jqmagic
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.settings import settings
path, programs, settings.fast_path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3] == "fast"
settings.doc_cache_bytes = int(sys.argv[4]) or settings.doc_cache_bytes
rows = []
for program in programs:
    started = time.perf_counter()
    result = jqmagic.query(program, path, compact=True, passthrough=True, timeout=600)
    rows.append([time.perf_counter() - started, result.engine, result.text])
pid = shared_worker()._process.pid
peak = [line for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM")][0]
print(json.dumps({"rows": rows, "worker_peak_mb": int(peak.split()[1]) / 1024}))
"""

ORACLE = """
import json, sys
import jqmagic
from jqmagic.core.settings import settings
settings.fast_path = False
path, programs = sys.argv[1], json.loads(sys.argv[2])
print(json.dumps([jqmagic.query(p, path, compact=True, passthrough=True, cache=False,
                                timeout=600).text for p in programs]))
"""


def _later_ratio(rows: list, jq_seconds: list[float]) -> str:
    """The range of the later questions' ratios to the jq CLI."""
    ratios = [row[0] / jq for row, jq in zip(rows[1:], jq_seconds[1:], strict=True)]
    return f"{min(ratios):.2f}x-{max(ratios):.2f}x"


def python_total(path: Path) -> float:
    code = ("import collections, gc, re, orjson, time\nt = time.perf_counter()\ngc.disable()\n"
            f"d = orjson.loads(open({str(path)!r}, 'rb').read())\n"
            + "".join(f"_ = {expr}\n" for _, _, expr in QUESTIONS)
            + "print(time.perf_counter() - t)")
    return float(subprocess.run([PY, "-c", code], capture_output=True, text=True,
                                check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--budget-gb", type=float, default=0,
                        help="the document budget (default: jqmagic's, 1 GiB); a 500 MB "
                             "file's trees need about 5 GB each")
    args = parser.parse_args()
    budget = int(args.budget_gb * 2**30)
    megabytes = 2 if args.quick else args.mb
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    path = data / f"orders-{megabytes}mb.json"
    make_file(path, megabytes)
    programs = [program for _, program, _ in QUESTIONS]
    session, libjq_session = (json.loads(subprocess.run(
        [PY, "-c", SESSION, str(path), json.dumps(programs), engine, str(budget)],
        capture_output=True, text=True, check=True).stdout) for engine in ("fast", "libjq"))
    oracle = json.loads(subprocess.run([PY, "-c", ORACLE, str(path), json.dumps(programs)],
                                       capture_output=True, text=True, check=True).stdout)
    lines = [f"### {path.stat().st_size / 1e6:.0f} MB written by Python's json "
             f"({time.strftime('%Y-%m-%d')}"
             f"{f', document budget {args.budget_gb:g} GiB' if budget else ''})", "",
             "| question | jq CLI | jaq | jqmagic (engine) | jqmagic / jq | same as libjq 1.8.2 "
             "| libjq path only (cached jv) | libjq path / jq |",
             "|---|---:|---:|---:|---:|:---:|---:|---:|"]
    totals = {"jq": 0.0, "jaq": 0.0, "jqmagic": 0.0, "libjq": 0.0}
    jq_seconds: list[float] = []
    for (what, program, _), (seconds, engine, text), (slow, _, slow_text), expected in zip(
            QUESTIONS, session["rows"], libjq_session["rows"], oracle, strict=True):
        jq = measure([JQ, "-c", program, str(path)], 1)[0]
        jq_seconds.append(jq.seconds)
        jaq = measure([JAQ, "-c", program, str(path)], 1)[0] if JAQ else None
        totals["jq"] += jq.seconds
        totals["jaq"] += jaq.seconds if jaq else 0
        totals["jqmagic"] += seconds
        totals["libjq"] += slow
        lines.append(f"| {what}: `{program.replace('|', chr(92) + '|')}` | {jq.seconds:.3f} s / "
                     f"{jq.rss_mb:.0f} MB | {f'{jaq.seconds:.3f} s' if jaq else '-'} | "
                     f"{seconds:.3f} s ({engine}) | {seconds / jq.seconds:.2f}x | "
                     f"{'yes' if text == expected == slow_text else 'NO'} | {slow:.3f} s | "
                     f"{slow / jq.seconds:.2f}x |")
    python = python_total(path)
    lines += ["", f"Session totals: jq CLI {totals['jq']:.2f} s, jaq {totals['jaq']:.2f} s, "
              f"plain Python (orjson load once + the ten answers) {python:.2f} s, jqmagic "
              f"{totals['jqmagic']:.2f} s = **{totals['jqmagic'] / totals['jq']:.2f}x** the "
              f"jq CLI; the worker's peak RSS {session['worker_peak_mb']:.0f} MB. The libjq path "
              f"alone (the fast path off: the first question parses into libjq's cache, the "
              f"rest run on the cached jv): {totals['libjq']:.2f} s = "
              f"{totals['libjq'] / totals['jq']:.2f}x, later questions "
              f"{_later_ratio(libjq_session['rows'], jq_seconds)}, its peak RSS "
              f"{libjq_session['worker_peak_mb']:.0f} MB.", ""]
    print("\n".join(lines))
    if not args.quick:
        out = HERE / "RESULTS-analyst.md"
        head = "# Analyst session\n\n" + __doc__.split("\n\n")[0] + "\n\n"
        old = out.read_text() if out.exists() and args.mb != 60 else head
        out.write_text(old + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
