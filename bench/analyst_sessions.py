"""Generated analyst sessions over a held-out-like JSON Lines log (issue 57): a dozen
questions drawn from the shapes analysts ask (counts by key, selects on comparisons and
regexes, sums, min/max, sort_by on a nested field, unique, dates, first/limit, optional
arrays), each in jq and in SQL, asked in a row in one jqmagic process, against jq 1.8.2
and jaq (a process per question: each parses again) and DuckDB (the file loaded into a
table once, the load counted). Every jqmagic answer is compared with jq 1.8.2's.

    python bench/analyst_sessions.py [--mb 60] [--n 12] [--seeds 1 2]   # prints tables

Done when (issue 57): the whole session within 2x DuckDB's (table load included) at
60-80 MB, 3x at 500 MB; no question slower than jq 1.8.2; every answer jq's.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import formats  # noqa: E402
import heldout  # noqa: E402
from run import JAQ, Run, measure  # noqa: E402

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


def session(path: Path, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    pairs = [question(rng) for _ in range(count)]
    programs = [p for p, _ in pairs]
    started = formats.load_average()
    mine = formats.session(path, programs, "fast", plain=True)
    duck = formats.helper(formats.DUCKDB, path, [sql for _, sql in pairs])
    lines = [f"#### Seed {seed}: {count} generated questions, {path.stat().st_size / 1e6:.0f} MB "
             f"({time.strftime('%Y-%m-%d %H:%M')} UTC, load average {started} at the start; "
             f"jqmagic worker peak {mine['worker_peak_mb']:.0f} MB)", "",
             "| question | jq 1.8.2 | jaq | DuckDB | jqmagic (engine) | / jq 1.8.2 | / DuckDB "
             "| same as jq |", "|---|---:|---:|---:|---:|---:|---:|:---:|"]
    load = duck[0] if duck else None
    if duck:
        lines.append(f"| DuckDB table load | | | {load:.3f} s | | | | |")
    totals = {"jq": 0.0, "jaq": 0.0, "mine": 0.0, "slower": 0, "same": 0}
    for i, (program, (seconds, engine, text)) in enumerate(zip(programs, mine["rows"],
                                                               strict=True)):
        try:
            jq = measure([formats.JQ18, "-nc", program, str(path)], 1, CAP)[0]
        except subprocess.TimeoutExpired:  # counted at the cap, no answer to compare
            jq = Run(CAP, 0.0, "(stopped at the cap)")
        try:
            jaq = measure([JAQ, "-nc", program, str(path)], 1, CAP)[0].seconds if JAQ else None
        except (RuntimeError, subprocess.TimeoutExpired):
            jaq = None  # a builtin jaq lacks
        sql = duck[i + 1] if duck else None
        capped = jq.out == "(stopped at the cap)"
        same = text == jq.out or capped
        totals["jq"] += jq.seconds
        totals["jaq"] += jaq or 0.0
        totals["mine"] += seconds
        totals["slower"] += seconds > jq.seconds
        totals["same"] += same
        shown = program.replace("|", "\\|")
        lines.append(f"| `{shown}` | {jq.seconds:.3f} s | {f'{jaq:.3f} s' if jaq else '-'} | "
                     f"{f'{sql:.3f} s' if sql is not None else '-'} | {seconds:.3f} s ({engine}) "
                     f"| {seconds / jq.seconds:.3f}x | "
                     f"{f'{seconds / sql:.1f}x' if sql else '-'} | {'yes' if same else '**no**'} |")
    duck_total = sum(duck) if duck else None
    lines += ["", f"Session: jqmagic {totals['mine']:.2f} s; jq 1.8.2 {totals['jq']:.2f} s "
              f"(**{totals['mine'] / totals['jq']:.3f}x**); jaq {totals['jaq']:.2f} s; DuckDB "
              + (f"{duck_total:.2f} s with its load (**{totals['mine'] / duck_total:.2f}x**)"
                 if duck_total else "not installed")
              + f"; slower than jq: **{totals['slower']}**; answers equal to jq's: "
              f"**{totals['same']} of {count}**.", ""]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    args = parser.parse_args()
    path = heldout.events_file(args.mb)
    for seed in args.seeds:
        print("\n".join(session(path, seed, args.n)), flush=True)


if __name__ == "__main__":
    main()
