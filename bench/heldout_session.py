"""A held-out-like JSON Lines session (issue 53): ten questions drawn by the generator of
``bench/heldout.py`` (nobody picks them) over a 60 MB event log whose numbers include
``-0.0``, ``1.0``, ``1e-05`` and integers past 2^53 and whose strings are not all ASCII,
asked in a row in one jqmagic process as a plain install runs it (bench/small.py's plain
venv, `pip install .` with its own -O2 libjq, when it exists; ``--python``), each beside
jq 1.8.2's command line on the same file (and jaq's where it is installed); every answer
compared with jq 1.8.2's, byte for byte.

    python bench/heldout_session.py [--mb 60] [--n 10] [--seeds 1 2 3] [--python PY]

Done when (issue 53): no question slower than jq 1.8.2, first included; the session at
most 0.2x jq 1.8.2's.
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

import formats  # noqa: E402
import heldout  # noqa: E402
from run import JAQ, Run, measure  # noqa: E402

CAP = 120.0  # seconds a tool may take on one question
PLAIN = HERE.parent / "build" / "bench-plain" / "bin" / "python"  # bench/small.py's venv


def _timed(argv: list[str]) -> Run:
    """One run of a tool; past :data:`CAP` (jq 1.8.2's counts keyed by a field of unique
    values are quadratic) counted at the cap with no answer; a tool's error as no answer."""
    try:
        return measure(argv, 1, CAP)[0]
    except subprocess.TimeoutExpired:
        return Run(CAP, 0.0, "(stopped at the cap)")
    except RuntimeError:
        return Run(float("nan"), 0.0, "(failed)")


def _session(python: str, path: Path, programs: list[str]) -> dict:
    """One jqmagic session in ``python`` (run outside the source tree, so that a plain
    install imports its own copy), on the libjq that install loads."""
    environ = {k: v for k, v in os.environ.items() if k != "JQMAGIC_LIBJQ"}
    done = subprocess.run([python, "-c", formats.SESSION, str(path.resolve()),
                           json.dumps(programs), "fast", str(formats.BUDGET)],
                          cwd=tempfile.gettempdir(), capture_output=True, text=True,
                          env=environ, timeout=3600)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout)


def session_table(path: Path, seed: int, count: int,
                  python: str = str(PLAIN if PLAIN.exists() else sys.executable)
                  ) -> tuple[list[str], dict]:
    programs = heldout.questions(count, seed)
    started = formats.load_average()
    mine = _session(python, path, programs)
    lines = [f"#### Seed {seed}: {count} generated questions, {path.stat().st_size / 1e6:.0f} MB "
             f"({time.strftime('%Y-%m-%d %H:%M')} UTC, load average {started} at the start; "
             f"jqmagic worker peak {mine['worker_peak_mb']:.0f} MB)", "",
             "| question | jq 1.8.2 | jaq | jqmagic (engine) | / jq 1.8.2 | same as jq |",
             "|---|---:|---:|---:|---:|:---:|"]
    totals = {"jq": 0.0, "mine": 0.0, "jaq": 0.0, "slower": 0, "same": 0, "fast": 0,
              "capped": 0}
    for program, (seconds, engine, text) in zip(programs, mine["rows"], strict=True):
        jq = _timed([formats.JQ18, "-nc", program, str(path)])
        jaq = _timed([JAQ, "-nc", program, str(path)]) if JAQ else None
        capped = jq.out == "(stopped at the cap)"
        same = text == jq.out
        totals["jq"] += jq.seconds
        totals["mine"] += seconds
        totals["jaq"] += jaq.seconds if jaq and jaq.out != "(failed)" else 0.0
        totals["slower"] += seconds > jq.seconds
        totals["same"] += same
        totals["capped"] += capped
        totals["fast"] += engine == "fast"
        shown = program.replace("|", "\\|")
        lines.append(f"| `{shown}` | {jq.seconds:.3f} s | "
                     f"{f'{jaq.seconds:.3f} s' if jaq else '-'} | {seconds:.3f} s ({engine}) | "
                     f"{seconds / jq.seconds:.3f}x | "
                     f"{'jq stopped' if capped else 'yes' if same else '**no**'} |")
    lines += ["", f"Session: jqmagic {totals['mine']:.2f} s against jq 1.8.2 "
              f"{totals['jq']:.2f} s = **{totals['mine'] / totals['jq']:.3f}x**"
              + (f" (jaq {totals['jaq']:.2f} s)" if JAQ else "")
              + f"; slower than jq: **{totals['slower']}**; answers equal to jq's: "
              f"**{totals['same']} of {count - totals['capped']} compared** (jq stopped at "
              f"{CAP:.0f} s, counted at it: {totals['capped']}); fast path: "
              f"{totals['fast']} of {count}.", ""]
    return lines, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--python", default=str(PLAIN if PLAIN.exists() else sys.executable))
    args = parser.parse_args()
    path = heldout.events_file(args.mb)
    print(f"jqmagic from {args.python}\n")
    for seed in args.seeds:
        lines, _ = session_table(path, seed, args.n, args.python)
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
