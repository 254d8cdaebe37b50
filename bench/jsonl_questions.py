"""Generated analyst questions over a JSON Lines log, asked in a row in one jqmagic session,
each beside the jq 1.8.2 command line on the same file: the fast path's reach (the share
it answers), every answer equal to jq's, and no question slower than jq (issue 43).

    python bench/jsonl_questions.py [--mb 60] [--n 200] [--seed 43]   # -> RESULTS-formats.md
    python bench/jsonl_questions.py --mb 2 --n 20 --quick                # prints only

The questions are drawn from the shapes people ask of event logs: selects with regexes
and their flags, optional iterations over nested arrays, interpolations, ``first`` and
``limit`` over ``inputs``, dates, group and count shapes, arithmetic with defaults, counts
keyed by a piped key (``.[$e.a // "none" | tostring]``) of a field whose values repeat (over
ids, each a key of its own, jq 1.8.2 itself takes 2 minutes on 31 MB).
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
import formatsdata  # noqa: E402
from run import measure  # noqa: E402

TYPES = ["PushEvent", "WatchEvent", "IssuesEvent", "ForkEvent", "CreateEvent"]
STRINGS = [".type", ".actor.login", ".repo.name", ".created_at", ".org.login", ".id"]
PATTERNS = ["^al", "zo", "-1[0-9]$", "CAFE", "é", "^[a-z]+[0-9]{2}$", "fix|typo", "ИВАН",
            "o'n", "^m.*-j"]
FLAGS = ["", "i", "x", "g", "ix"]
JQ_CAP = 60.0  # seconds: jq 1.8.2 counting by a key of unique values is quadratic (minutes)
KEYS = [".type", ".actor.login", ".repo.name", ".org.login"]  # counted: values that repeat
NUMBERS = [".payload.size", ".payload.number", ".actor.id", ".repo.id", ".score"]
FORMATS = ["%H", "%Y-%m-%d", "%a", "%F %T", "%d"]


def question(rng: random.Random) -> str:
    s, s2, key = rng.choice(STRINGS), rng.choice(STRINGS), rng.choice(KEYS)
    kind, n, num = rng.choice(TYPES), rng.randrange(1, 6), rng.choice(NUMBERS)
    pattern, flags = rng.choice(PATTERNS), rng.choice(FLAGS)
    test = f'test("{pattern}"; "{flags}")' if flags else f'test("{pattern}")'
    shapes = [
        f'[inputs | select(.type == "{kind}")] | length',
        f"[inputs | select({s} | strings | {test})] | length",
        f'[inputs | select({s}? // "" | {test}) | "\\({s2}) at \\(.created_at)"] | .[:3]',
        f'[inputs | select(.actor.login | {test}) | "\\(.actor.login) -> \\(.repo.name)"]'
        " | length",
        "[inputs | .payload.commits[]? | select(.distinct) | .message] | length",
        f"[inputs | .payload.commits[]?.message | select({test})] | length",
        "[inputs | .payload.commits[]?.sha[:7]] | unique | length",
        f"[inputs | select(any(.payload.commits[]?; .message | {test}))] | length",
        f'first(inputs | select(.type == "{kind}")) | {s2}',
        f"first(inputs | select({s} | strings | {test})) | .id",
        f'[limit({n}; inputs | select(.type == "{kind}") | {s2})]',
        f'[inputs | .created_at | fromdateiso8601 | strftime("{rng.choice(FORMATS)}")] | '
        "group_by(.) | map(length) | max",
        f"[inputs | select(.created_at | fromdateiso8601 > {1739000000 + n * 86400})] | length",
        "[inputs | .created_at[11:13]] | unique",
        f"reduce inputs as $e ({{}}; .[$e{s} // \"none\"] += 1) | to_entries | "
        "sort_by(-.value) | .[:3]",
        f"reduce inputs as $e ({{}}; .[$e{key} // \"none\" | tostring] += 1) | length",
        f"reduce inputs as $e ({{}}; .[$e{key} | ascii_downcase? // \"?\"] += 1) | length",
        f"[inputs | {s}] | group_by(.) | map({{k: .[0], n: length}}) | sort_by(-.n) | .[:{n}]",
        f"[inputs | {s}] | unique | length",
        f"[inputs | {num} // 0] | add",
        f"[inputs | {num} // empty] | max",
        f"[inputs | ({num} // 0) * {n} + 1] | add",
        f'[inputs | select(.type == "{kind}") | {{type, login: .actor.login, n: {num}}}] | '
        ".[:2]",
        "[inputs | .repo.name | split(\"/\")[0]] | unique | length",
        f'[inputs | .actor.login | ascii_downcase | select(startswith("{pattern[-2:]}"))]'
        " | length",
        "[inputs | select(.public | not)] | length",
        f"[inputs | select({num}? > {n * 10})] | length",
        "input | .id",
        '[inputs | select(has("org")) | .org.login] | unique | length',
    ]
    return rng.choice(shapes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--plain-python", default=formats.PY)
    parser.add_argument("--quick", action="store_true", help="print only")
    args = parser.parse_args()
    formats.PLAIN_PY = args.plain_python
    rng = random.Random(args.seed)
    programs = [question(rng) for _ in range(args.n)]
    path = formatsdata.events_file(args.mb)
    started = formats.load_average()
    mine = formats.session(path, programs, "fast", plain=True)
    rows, slower, fast_share, same, jq_total, capped = [], [], 0, 0, 0.0, []
    for program, (seconds, engine, text) in zip(programs, mine["rows"], strict=True):
        fast_share += engine == "fast"
        try:
            jq = measure([formats.JQ18, "-nc", program, str(path)], 1, JQ_CAP)[0]
        except subprocess.TimeoutExpired:  # jq's own cliff: counted at the cap, not compared
            capped.append((program, seconds, engine))
            jq_total += JQ_CAP
            rows.append((program, seconds, JQ_CAP, engine, True))
            continue
        jq_total += jq.seconds
        same += text == jq.out
        if seconds > jq.seconds:
            slower.append((program, seconds, jq.seconds, engine))
        rows.append((program, seconds, jq.seconds, engine, text == jq.out))
    ours = sum(r[1] for r in rows)
    lines = [f"### {args.n} generated analyst questions, JSON Lines "
             f"{path.stat().st_size / 1e6:.0f} MB ({time.strftime('%Y-%m-%d %H:%M')} UTC, "
             f"load average {started} at the start, seed {args.seed})", "",
             f"The fast path answered **{fast_share} of {args.n}** "
             f"({100 * fast_share / args.n:.0f}%); answers equal to jq 1.8.2's: **{same} of "
             f"{args.n - len(capped)} compared**; jqmagic (plain install, one session) "
             f"{ours:.2f} s against jq 1.8.2's "
             f"{jq_total:.2f} s = **{ours / jq_total:.3f}x**; the first question (the parse) "
             f"{rows[0][1]:.2f} s; slower than jq: **{len(slower)}**.", ""]
    if capped:
        lines += [f"jq 1.8.2 ran past {JQ_CAP:.0f} s (stopped there, counted at {JQ_CAP:.0f} s; "
                  "these answers are not compared):", "",
                  *(f"- `{p}`: jqmagic {s:.2f} s ({e})" for p, s, e in capped), ""]
    if slower:
        lines += ["| slower than jq | jqmagic | jq 1.8.2 | engine |", "|---|---:|---:|---|"]
        lines += [f"| `{p.replace('|', chr(92) + '|')}` | {s:.3f} s | {j:.3f} s | {e} |"
                  for p, s, j, e in slower]
        lines.append("")
    declined = sorted({p for p, _, _, e, _ in rows if e != "fast"})
    if declined:
        lines += ["Left to libjq:", "", *(f"- `{p}`" for p in declined), ""]
    differ = [p for p, _, _, _, ok in rows if not ok]
    if differ:
        lines += ["Answers that differ from jq's:", "", *(f"- `{p}`" for p in differ), ""]
    print("\n".join(lines))
    if args.quick:
        return
    out = HERE / "RESULTS-formats.md"
    out.write_text(out.read_text() + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
