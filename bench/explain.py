"""--explain's cost and suggest()'s reach.

    .venv/bin/python bench/explain.py analyst [--mb 60]   # explain vs the plain libjq run
    .venv/bin/python bench/explain.py suggest [--seconds 5]  # jq's manual examples

``analyst``: bench/analyst.py's ten questions on its generated file, parsed once by libjq,
each run plainly and explained back to back in one process (the explanation re-runs the
plain program to check its answer), with the process's peak RSS.
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
SESSION = """
import json, resource, sys, time
from jqmagic.core.query import libjq
from jqmagic.core.query import libjqinput
from jqmagic.core.explain.run import explain_values
from jqmagic.core.explain.values import Owned

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

path, programs = sys.argv[1], json.loads(sys.argv[2])
t = time.perf_counter()
values = [Owned(v) for v in libjqinput.parse_text(open(path, 'rb').read())]
rows = [{'parse': time.perf_counter() - t, 'rss_parsed': peak()}]
for program in programs:
    compiled = libjq.compile_program(program)
    t = time.perf_counter()
    n = sum(1 for v in values for _ in libjq.results(compiled, v.copy()))
    plain = time.perf_counter() - t
    t = time.perf_counter()
    data = explain_values(program, list(values))
    rows.append({'plain': plain, 'explain': time.perf_counter() - t, 'n': n,
                 'same': data['same_as_plain'] and data['outputs'] == n, 'rss': peak(),
                 'stages': len(data['stages'])})
print(json.dumps(rows))
"""


def analyst(megabytes: int) -> list[str]:
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    path = data / f"orders-{megabytes}mb.json"
    make_file(path, megabytes)
    programs = [program for _, program, _ in QUESTIONS]
    first, *rows = json.loads(subprocess.run(
        [PY, "-c", SESSION, str(path), json.dumps(programs)], capture_output=True, text=True,
        check=True, cwd=ROOT).stdout)
    lines = [f"## --explain on the analyst session ({path.stat().st_size / 1e6:.0f} MB, "
             f"{time.strftime('%Y-%m-%d')})", "",
             f"One process parses the file once with libjq ({first['parse']:.1f} s, peak RSS "
             f"{first['rss_parsed']:.0f} MB), then for each question runs the program plainly "
             "and explains it (the explanation includes its own plain run, to check the "
             "answer), back to back; peak RSS is the process's after each.", "",
             "| question | plain run | explained | ratio | same answer | stages | peak RSS |",
             "|---|---:|---:|---:|:---:|---:|---:|"]
    for (what, program, _), row in zip(QUESTIONS, rows, strict=True):
        lines.append(f"| {what}: `{program.replace('|', chr(92) + '|')}` | "
                     f"{row['plain']:.2f} s | {row['explain']:.2f} s | "
                     f"{row['explain'] / max(row['plain'], 1e-3):.1f}x | "
                     f"{'yes' if row['same'] else 'NO'} | {row['stages']} | "
                     f"{row['rss']:.0f} MB |")
    plain = sum(r["plain"] for r in rows)
    explained = sum(r["explain"] for r in rows)
    lines += ["", f"Totals: plain {plain:.1f} s, explained {explained:.1f} s = "
              f"**{explained / plain:.1f}x** (parse excluded: both read the same parsed "
              f"values); peak RSS {rows[-1]['rss']:.0f} MB against "
              f"{first['rss_parsed']:.0f} MB once parsed.", ""]
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
