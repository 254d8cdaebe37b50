"""--explain's cost and suggest()'s reach.

    .venv/bin/python bench/explain.py analyst [--mb 60]   # explain vs the plain libjq run
    .venv/bin/python bench/explain.py suggest [--seconds 5]  # jq's manual examples

``analyst``: each of bench/analyst.py's ten questions on its generated file, run by libjq
whole (parse included) and explained (parse included: the explanation re-runs the plain
program to check its answer), in a child process each, with its peak RSS.
``suggest``: every (input, program) pair of jq's manual (man.test) whose program libjq
runs; the outputs are libjq's; a pair counts as found when suggest() returns a program
libjq verified within the time limit. Results go to bench/RESULTS-explain.md.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from analyst import QUESTIONS, make_file  # noqa: E402

PY = sys.executable
ONE = """
import json, resource, sys, time
from jqmagic.core.query import libjq
from jqmagic.core.explain.run import explain_values
from jqmagic.core.explain.values import Owned
path, program, mode = sys.argv[1:]
t = time.perf_counter()
values = [Owned(v) for v in libjq.parse_text(open(path, 'rb').read())]
parsed = time.perf_counter() - t
if mode == 'plain':
    p = libjq.compile_program(program)
    n = sum(1 for v in values for _ in libjq.results(p, v.copy()))
    extra = {}
else:
    data = explain_values(program, values)
    n = data['outputs']
    extra = {'same': data['same_as_plain'], 'stages': len(data['stages']),
             'plain_inside': data['plain_seconds']}
print(json.dumps({'seconds': time.perf_counter() - t, 'parse': parsed, 'n': n,
                  'rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, **extra}))
"""


def analyst(megabytes: int) -> list[str]:
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    path = data / f"orders-{megabytes}mb.json"
    make_file(path, megabytes)
    lines = [f"## --explain on the analyst session ({path.stat().st_size / 1e6:.0f} MB, "
             f"{time.strftime('%Y-%m-%d')})", "",
             "| question | plain libjq run | explained | ratio | same answer | peak RSS plain "
             "/ explained |", "|---|---:|---:|---:|:---:|---:|"]
    total_plain = total_explain = 0.0
    for what, program, _ in QUESTIONS:
        runs = {mode: json.loads(subprocess.run([PY, "-c", ONE, str(path), program, mode],
                                                capture_output=True, text=True, check=True,
                                                cwd=ROOT).stdout)
                for mode in ("plain", "explain")}
        plain, explained = runs["plain"], runs["explain"]
        total_plain += plain["seconds"]
        total_explain += explained["seconds"]
        lines.append(f"| {what}: `{program.replace('|', chr(92) + '|')}` | "
                     f"{plain['seconds']:.2f} s | {explained['seconds']:.2f} s | "
                     f"{explained['seconds'] / plain['seconds']:.1f}x | "
                     f"{'yes' if explained['same'] and explained['n'] == plain['n'] else 'NO'}"
                     f" | {plain['rss_mb']:.0f} / {explained['rss_mb']:.0f} MB |")
        print(lines[-1], flush=True)
    lines += ["", f"Totals: plain {total_plain:.1f} s, explained {total_explain:.1f} s = "
              f"**{total_explain / total_plain:.1f}x**.", ""]
    return lines


def _pairs() -> list[tuple[str, object, list]]:
    from jqmagic.core.suggest.verify import outputs
    from tests.conformance.jq_suite import SUITE, read_cases

    found = []
    for case in read_cases(SUITE / "man.test"):
        if case.fail:
            continue
        try:
            given = json.loads(case.input)
        except ValueError:
            continue
        outs = outputs(case.program, given)
        if outs is not None:
            found.append((case.program, given, outs))
    return found


def suggest(seconds: float) -> list[str]:
    from jqmagic.core.explain.child import SUGGEST_MEMORY
    from jqmagic.core.query.worker import limit_memory
    from jqmagic.core.suggest.verify import answer

    limit_memory(SUGGEST_MEMORY)  # as the child process of suggest() runs

    pairs = _pairs()
    rows, times, found, reading, shorter = [], [], 0, 0, 0
    for program, given, outs in pairs:
        started = time.monotonic()
        result = answer({"examples": [[given, outs]], "seconds": seconds, "limit": 1})
        took = time.monotonic() - started
        times.append(took)
        best = result["programs"][0] if result["programs"] else None
        if best:
            found += 1
            reading += best["reads_input"]
            shorter += len(_squeezed(best["program"])) <= len(_squeezed(program))
        shown = f"`{_cell(best['program'])}`" if best else "-"
        rows.append(f"| `{_cell(program)}` | {shown} "
                    f"| {'' if not best or best['reads_input'] else 'constant'} | "
                    f"{took:.2f} s |")
        print(rows[-1], flush=True)
    n = len(pairs)
    return [f"## suggest() on jq's manual examples ({time.strftime('%Y-%m-%d')}, "
            f"{seconds:g} s each)", "",
            f"{n} pairs (man.test cases libjq runs, outputs by libjq): a verified program "
            f"for **{found} ({found / n:.0%})**, {reading} of them reading the input "
            f"({reading / n:.0%}; the rest are constants that fit); median time "
            f"{statistics.median(times):.2f} s; the program found is no longer than the "
            f"manual's in {shorter} of {found} ({shorter / max(found, 1):.0%}).", "",
            "| manual's program | found | | time |", "|---|---|---|---:|", *rows, ""]


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:80]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["analyst", "suggest"])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    lines = analyst(args.mb) if args.what == "analyst" else suggest(args.seconds)
    out = HERE / "RESULTS-explain.md"
    old = out.read_text() if out.exists() else "# --explain and suggest()\n\n"
    out.write_text(old + "\n".join(lines) + "\n")
    print("\n".join(lines[:4]))


if __name__ == "__main__":
    main()
