"""Benchmark shape inference: jqmagic in memory and streamed vs the jqschema filter in jq and jaq.

Data is generated deterministically under bench/data/ (gitignored): an API dump shaped like
``{"total_count": N, "items": [user, ...]}`` with optional, nullable and nested fields.
Every tool runs in its own process; time is wall clock, peak RSS comes from ``wait4``.

    .venv/bin/python bench/bench_shape.py --sizes 100          # the 100 MB case
    .venv/bin/python bench/bench_shape.py --sizes 100,1000     # both, rewrites the results
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from jqmagic.core.shape import JQSCHEMA_FILTER

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "RESULTS-shape.md"
MEMORY_LIMIT_MB = 256  # the default stream threshold: above it jqmagic streams anyway


def generate(path: Path, megabytes: int) -> None:
    """Write a deterministic API dump of about ``megabytes`` MB to ``path``."""
    rng = random.Random(megabytes)
    target = megabytes * 2**20
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as fh:
        fh.write('{"total_count": 0, "items": [')
        size, n = 0, 0
        while size < target:
            item = {"id": n, "login": f"user{n}", "name": rng.choice([None, "Ann", "Bo"]),
                    "verified": rng.random() < 0.5, "score": round(rng.random() * 100, 3),
                    "tags": rng.sample(words, rng.randint(0, 4)),
                    "address": {"city": rng.choice(words), "zip": f"{rng.randint(0, 99999):05}",
                                "geo": {"lat": rng.uniform(-90, 90),
                                        "lon": rng.uniform(-180, 180)}},
                    "orders": [{"sku": f"k{rng.randint(0, 999)}", "qty": rng.randint(1, 9),
                                "price": round(rng.uniform(1, 500), 2)}
                               for _ in range(rng.randint(0, 3))]}
            if rng.random() < 0.7:
                item["email"] = f"user{n}@example.org"
            if rng.random() < 0.1:
                item["orders"].append({"sku": "gift", "gift": True})
            text = ("," if n else "") + json.dumps(item)
            fh.write(text)
            size += len(text)
            n += 1
        fh.write("]}")
    os.replace(tmp, path)


def data_file(megabytes: int) -> Path:
    path = DATA / f"api-{megabytes}mb.json"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        print(f"generating {path} ...", file=sys.stderr)
        generate(path, megabytes)
    return path


def measure(argv: list[str], stdout_path: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process."""
    with open(stdout_path, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        raise RuntimeError(f"{argv[0]} failed ({proc.returncode}): {err[-500:]}")
    return elapsed, usage.ru_maxrss / 1024


def tools(path: Path, megabytes: int) -> list[tuple[str, list[str] | None]]:
    py = sys.executable
    ours = "from jqmagic.core.shape import shape; import json, sys; " \
           "print(json.dumps(shape(file=sys.argv[1], {kw}).value))"
    filt = DATA / "jqschema.jq"
    filt.write_text(JQSCHEMA_FILTER)
    in_memory = [py, "-c", ours.format(kw="stream=False"), str(path)] \
        if megabytes <= MEMORY_LIMIT_MB else None
    jaq = shutil.which("jaq") or str(Path(sys.executable).parent / "jaq")
    return [
        ("jqmagic shape, in memory (json.load + merge)", in_memory),
        ("jqmagic shape, streamed (ijson yajl2_c)", [py, "-c", ours.format(kw="stream=True"),
                                                     str(path)]),
        ("jqmagic shape --stats, streamed", [py, "-c", ours.format(kw="stream=True, stats=True"),
                                             str(path)]),
        ("jqmagic jqschema, streamed", [py, "-c", ours.format(kw="stream=True, format='jqschema'"),
                                        str(path)]),
        (f"jq {_version(['jq', '--version'])} jqschema filter",
         ["jq", "-c", "-f", str(filt), str(path)] if shutil.which("jq") else None),
        (f"jaq {_version([jaq, '--version'])} jqschema filter",
         [jaq, "-c", "-f", str(filt), str(path)] if os.path.exists(jaq) else None),
    ]


def _version(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout
    except OSError:
        return "(missing)"
    return out.strip().split()[-1].removeprefix("jq-")


def run(sizes: list[int]) -> list[dict]:
    rows = []
    for mb in sizes:
        path = data_file(mb)
        actual = path.stat().st_size / 2**20
        jq_time = None
        outputs = {}
        for name, argv in tools(path, mb):
            if argv is None:
                rows.append({"size": actual, "tool": name, "time": None, "rss": None})
                continue
            out = DATA / f"out-{len(rows)}.json"
            elapsed, rss = measure(argv, out)
            outputs[name] = out
            if name.startswith("jq "):
                jq_time = elapsed
            rows.append({"size": actual, "tool": name, "time": elapsed, "rss": rss})
            print(f"{actual:7.0f} MB  {name:48s} {elapsed:8.2f} s {rss:9.0f} MB", file=sys.stderr)
        _check_same_jqschema(outputs)
        for row in rows:
            if row["size"] == actual and row["time"] and jq_time:
                row["ratio"] = row["time"] / jq_time
    return rows


def _check_same_jqschema(outputs: dict[str, Path]) -> None:
    """The three jqschema outputs must be the same JSON."""
    found = {n: json.loads(p.read_text()) for n, p in outputs.items() if "jqschema" in n}
    if len({json.dumps(v, sort_keys=True) for v in found.values()}) > 1:
        raise RuntimeError(f"jqschema outputs differ: {sorted(found)}")


def table(rows: list[dict]) -> str:
    lines = ["| input | tool | time (s) | peak RSS (MB) | time / jq |",
             "|---:|---|---:|---:|---:|"]
    for r in rows:
        if r["time"] is None:
            lines.append(f"| {r['size']:.0f} MB | {r['tool']} | not run (above the "
                         f"{MEMORY_LIMIT_MB} MB stream threshold) | | |")
            continue
        ratio = f"{r['ratio']:.2f}x" if "ratio" in r else ""
        lines.append(f"| {r['size']:.0f} MB | {r['tool']} | {r['time']:.2f} | {r['rss']:.0f} | "
                     f"{ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100", help="comma-separated sizes in MB")
    args = parser.parse_args()
    rows = run([int(s) for s in args.sizes.split(",")])
    text = table(rows)
    print(text)
    RESULTS.write_text(
        "# Shape inference benchmark\n\n"
        f"`bench/bench_shape.py --sizes {args.sizes}` on {os.cpu_count()} shared cores, "
        f"Python {sys.version.split()[0]}. Each row is one process: wall time and peak RSS "
        "(wait4). The input is a generated API dump (`{\"total_count\", \"items\": [...]}`, "
        "nullable, optional and nested fields). jq and jaq run the gh-aw jqschema filter; "
        "the three jqschema outputs are checked to be identical. jqmagic's `shape` merges "
        "every element (more work than jqschema's first element).\n\n" + text + "\n")


if __name__ == "__main__":
    main()
