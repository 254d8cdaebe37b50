"""A JSON array bigger than the document budget: peak RSS and wall time of a select-count, a
sum and a group-by with jqmagic (streamed evaluation, automatic past the budget; on a
smaller file also with --stream-eval) against the jq CLI, jaq and ijson + plain Python,
each in its own process under GNU time, in one run.

    flock /tmp/jqmagic-heavy.lock .venv/bin/python bench/bigfile.py [--mb 1500] [--cap-gb 8]

jq and jaq run under an address-space cap (``--cap-gb``: the machine is shared), and at
most ten minutes; past either the table says so. Every tool's answer is compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import JAQ, JQ, PY  # noqa: E402

LIMIT_SECONDS = 600
QUESTIONS = {
    "select-count": '[.[] | select(.status == "error")] | length',
    "sum": "[.[] | .amount] | add",
    "group-by": "[.[] | .category] | group_by(.) | map({key: .[0], n: length})",
}
PLAIN = {  # the same questions in ijson + Python (floats; the answers are compared as JSON)
    "select-count": "sum(1 for r in rows if r['status'] == 'error')",
    "sum": "sum(r['amount'] for r in rows)",
    "group-by": "[{'key': k, 'n': n} for k, n in sorted(collections.Counter("
                "r['category'] for r in rows).items())]",
}


def make(path: Path, megabytes: int) -> None:
    """An array of log-like records, about ``megabytes`` MB (the head of a bigger one made
    before, when there is one)."""
    if path.exists() and path.stat().st_size >= megabytes * 10**6:
        return
    bigger = [p for p in path.parent.glob("big-*mb.json") if p.stat().st_size > megabytes *
              10**6]
    if bigger:
        with open(bigger[0], "rb") as source, open(path, "wb") as out:
            head = source.read(megabytes * 10**6)
            out.write(head[:head.rindex(b',{"id":')] + b"]\n")
        return
    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "zeta"]
    with open(path, "w") as out:
        out.write("[")
        i, size = 0, 1
        while size < megabytes * 10**6:
            record = json.dumps({
                "id": i, "status": "error" if rng.random() < 0.07 else "ok",
                "amount": round(rng.uniform(0, 500), 2), "category": f"c{rng.randrange(40)}",
                "user": {"name": rng.choice(words) + str(rng.randrange(1000)),
                         "tags": rng.sample(words, 3)},
                "message": " ".join(rng.choice(words) for _ in range(12))})
            text = ("," if i else "") + record
            out.write(text)
            size += len(text)
            i += 1
        out.write("]\n")


def measured(argv: list[str], cap: int | None = None) -> tuple[str, float, int, str]:
    """(status, seconds, peak RSS in bytes, stdout) of one run under GNU time."""
    prefix = ["prlimit", f"--as={cap}"] if cap else []
    command = ["/usr/bin/time", "-f", "%e %M", "--", *prefix, *argv]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        return "did not finish in 10 min", LIMIT_SECONDS, 0, ""
    seconds, kb = done.stderr.strip().splitlines()[-1].split()
    if done.returncode != 0:
        oom = "alloc" in done.stderr.lower() or "memory" in done.stderr.lower() or \
            done.returncode in (134, 137, 139, -6, -9)
        status = "ran out of memory" if oom else f"failed ({done.returncode})"
        return status, float(seconds), int(kb) * 1024, ""
    return "ok", float(seconds), int(kb) * 1024, done.stdout


def runners(path: Path, question: str) -> dict[str, list[str]]:
    program = QUESTIONS[question]
    jqmagic = ("import jqmagic, sys; r = jqmagic.query(sys.argv[1], sys.argv[2], "
               "timeout=60, compact=True); print(r.text); print(r.engine, file=sys.stderr)")
    plain = ("import collections, ijson, json, sys\n"
             "with open(sys.argv[1], 'rb') as f:\n"
             "    rows = ijson.items(f, 'item', use_float=True)\n"
             f"    print(json.dumps({PLAIN[question]}))")
    streamed = jqmagic.replace("compact=True", "compact=True, stream_eval=True")
    found = {"jqmagic": [PY, "-c", jqmagic, program, str(path)],
             "jqmagic --stream-eval": [PY, "-c", streamed, program, str(path)],
             "jq " + _version([JQ, "--version"]): [JQ, "-c", program, str(path)],
             "ijson + Python": [PY, "-c", plain, str(path)]}
    if JAQ:
        found["jaq " + _version([JAQ, "--version"]).split()[-1]] = [JAQ, "-c", program,
                                                                     str(path)]
    return found


def _version(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True).stdout.strip()


def same(answer: str, reference: str) -> bool:
    """Equal as JSON, sums to a cent (the plain Python sum adds binary floats)."""
    try:
        a, b = json.loads(answer), json.loads(reference)
    except ValueError:
        return False
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) < 0.01
    return a == b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=1500)
    parser.add_argument("--cap-gb", type=float, default=8.0)
    parser.add_argument("--only", help="run only this tool (a name's first word)")
    parser.add_argument("--questions", nargs="*", default=list(QUESTIONS), choices=QUESTIONS)
    args = parser.parse_args()
    folder = HERE / "data"
    folder.mkdir(exist_ok=True)
    path = folder / f"big-{args.mb}mb.json"
    make(path, args.mb)
    size = path.stat().st_size
    cap = int(args.cap_gb * 2**30)
    print(f"## A {size / 1e6:,.0f} MB JSON array ({os.cpu_count()} cores; jq and jaq capped "
          f"at {args.cap_gb:g} GiB of address space)\n")
    print("| question | tool | status | time (s) | peak RSS (MB) | answer equal |")
    print("|---|---|---|---:|---:|---|")
    for question in args.questions:
        reference = None
        for tool, argv in runners(path, question).items():
            if (args.only and tool.split()[0] != args.only) or (
                    tool == "jqmagic --stream-eval" and size > 2**30):  # streams anyway
                continue
            capped = cap if tool.split()[0] in ("jq", "jaq") else None
            status, seconds, rss, out = measured(argv, capped)
            answer = out.strip()
            if reference is None and status == "ok":  # the first tool that answered
                reference = answer
            equal = "-" if status != "ok" else ("yes" if same(answer, reference) else "NO")
            print(f"| {question} | {tool} | {status} | {seconds:.1f} | {rss / 1e6:,.0f} | "
                  f"{equal} |", flush=True)


if __name__ == "__main__":
    main()
