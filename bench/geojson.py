"""A GeoJSON session over a 150 MB FeatureCollection (the corpus's world countries, their
coordinates as written, repeated): ten questions asked in one jqmagic session (the first
parses the file), each timed beside jq 1.8.2 and jaq on the same file (each parses it every
time), with the engine that answered each (the fast path, or libjq over the held values).
Every answer is checked against jq 1.8.2's. A plain install's jqmagic is what runs when
bench/small.py's plain venv exists (``--python``), else this interpreter's. The worker is
started first, as ``%load_ext jqmagic`` starts it (its time is said apart).
jaq takes minutes a question at 150 MB: each of its runs is stopped at ``--jaq-cap``
seconds and reported as "> N s" (``--jaq-cap 0``: jaq is not run).

    flock /tmp/jqmagic-heavy.lock .venv/bin/python bench/geojson.py [--mb 150] \
        [--python PY] [--jaq-cap 60]                             -> bench/RESULTS-geojson.md
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = Path(sys.executable)
ORACLE = PY.parent / "jq-1.8.2"
JAQ = shutil.which("jaq", path=str(PY.parent)) or shutil.which("jaq")
SOURCE = HERE.parent.parent / "shared" / "corpus" / "json" / "geojson" / "world-countries.geo.json"
PLAIN = HERE.parent / "build" / "bench-plain" / "bin" / "python"

QUESTIONS = [
    ".features | length",
    '[.features[].properties.name | select(test("^san|straße"; "i"))] | length',
    "[.features[] | .geometry.coordinates | flatten | length] | add",
    "[.features[] | .geometry.coordinates | flatten | min] | min",
    '[.features[] | select(.geometry.type == "MultiPolygon") | .id] | unique | length',
    "[.features[] | {id, n: (.geometry.coordinates | flatten | length)}] | max_by(.n)",
    "[.features[] | .geometry | [paths(type == \"number\")] | length] | add",
    '[.features[] | .id | ascii_downcase | ltrimstr("u")] | unique | length',
    # two that leave the fast path (Unicode classes: Oniguruma's, not Python's re)
    r'[.features[] | .properties.name | select(test("\\p{Lu}{2}"))] | unique',
    r'[.features[].properties.name | match("\\p{Lu}\\p{Ll}+"; "g").string] | unique | length',
]

SESSION = """
import json, os, sys, time
import jqmagic
TICK = os.sysconf("SC_CLK_TCK")

def cpu(pid=os.getpid()):
    # user + system seconds of pid and its descendants (the worker), the children they
    # waited for included: the session's CPU whatever else the cores ran
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    total = sum(int(f) for f in fields[11:15]) / TICK
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as children:
            total += sum(cpu(int(child)) for child in children.read().split())
    return total

started, used = time.perf_counter(), cpu()
jqmagic.query("null", null_input=True)  # the worker starts, as %load_ext jqmagic starts it
out = [[time.perf_counter() - started, cpu() - used]]
for program in json.loads(sys.argv[2]):
    started, used = time.perf_counter(), cpu()
    result = jqmagic.query(program, sys.argv[1], compact=True, passthrough=True,
                           timeout=900)  # jq has no clock: the default 30 s is the notebook's
    out.append([time.perf_counter() - started, cpu() - used, result.engine, result.text])
print(json.dumps(out))
"""


def make(mb: int) -> Path:
    """The corpus's features repeated (their text as written) to about ``mb`` MB."""
    path = Path("/tmp/jqmagic-geojson") / f"countries-{mb}mb.geo.json"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    text = SOURCE.read_text()
    start = text.index("[", text.index('"features"'))
    features = text[start + 1:text.rindex("]")].strip()
    copies = max(1, mb * 2**20 // len(features))
    with path.open("w") as out:
        out.write(text[:start + 1])
        out.write(",".join([features] * copies))
        out.write("]}\n")
    return path


def timed(argv: list[str], program: str, path: Path,
          cap: float | None = None) -> tuple[float, float, str | None, int]:
    """Wall and CPU seconds (user + system) of one run, its output and its peak RSS in KB;
    a run past ``cap`` seconds is stopped and counted at the cap (output None)."""
    started = time.perf_counter()
    with subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", *argv, "-c", program,
                           str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, start_new_session=True) as done:
        try:
            out, err = done.communicate(timeout=cap)
        except subprocess.TimeoutExpired:
            os.killpg(done.pid, signal.SIGKILL)  # the tool too, not only GNU time
            done.communicate()
            return cap, cap, None, 0
    user, system, peak = err.split()[-3:]
    return time.perf_counter() - started, float(user) + float(system), out.rstrip("\n"), \
        int(peak)


def _peer(run: tuple[float, float, str | None, int]) -> str:
    wall, used, text, _ = run
    return f"> {wall:.0f} s" if text is None else f"{wall:.2f} / {used:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=150)
    parser.add_argument("--python", default=str(PLAIN if PLAIN.exists() else PY))
    parser.add_argument("--jaq-cap", type=float, default=60.0)
    options = parser.parse_args()
    path = make(options.mb)
    peers = {"jq 1.8.2": ([str(ORACLE)], None),
             **({"jaq": ([JAQ], options.jaq_cap)} if JAQ and options.jaq_cap else {})}
    times = {name: [timed(argv, q, path, cap) for q in QUESTIONS]
             for name, (argv, cap) in peers.items()}
    done = subprocess.run([options.python, "-c", SESSION, str(path), json.dumps(QUESTIONS)],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the jqmagic session failed: {done.stderr[-3000:]}")
    start, *session = json.loads(done.stdout.strip().splitlines()[-1])
    lines = ["| # | question | engine | jqmagic wall / CPU | jq 1.8.2 wall / CPU | ratio "
             "wall / CPU | jaq wall / CPU | equal |", "|---|---|---|---:|---:|---:|---:|---|"]
    answers = zip(QUESTIONS, session, strict=True)
    for i, (question, (seconds, used, engine, text)) in enumerate(answers, 1):
        jq_seconds, jq_used, expected, _ = times["jq 1.8.2"][i - 1]
        jaq = _peer(times["jaq"][i - 1]) if "jaq" in times else "-"
        shown = question.replace("|", "\\|")
        lines.append(f"| {i} | `{shown}` | {engine} | {seconds:.2f} / {used:.2f} s | "
                     f"{jq_seconds:.2f} / {jq_used:.2f} s | {seconds / jq_seconds:.2f}x / "
                     f"{used / jq_used:.2f}x | {jaq} | {text == expected} |")
    total = sum(row[0] for row in session)
    jq_total = sum(row[0] for row in times["jq 1.8.2"])
    used = sum(row[1] for row in session)
    jq_used = sum(row[1] for row in times["jq 1.8.2"])
    jq_peak = max(row[3] for row in times["jq 1.8.2"]) / 1024
    report = "\n".join([
        "# A GeoJSON session (bench/geojson.py)", "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; {path.stat().st_size / 1e6:.0f} MB; jqmagic from "
        f"{options.python}. The session: {total:.2f} s wall, {total / jq_total:.2f}x jq "
        f"1.8.2's {jq_total:.2f} s; {used:.2f} s of CPU, {used / jq_used:.2f}x jq's "
        f"{jq_used:.2f} s (jqmagic's: its process and its worker; the worker's start "
        f"before them took {start[0]:.2f} s, {start[1]:.2f} s of CPU). jq 1.8.2's peak RSS "
        f"{jq_peak:,.0f} MB; " + (f"jaq stopped at {options.jaq_cap:.0f} s a question."
                                  if "jaq" in times else "jaq not run."), "",
        *lines]) + "\n"
    print(report)
    if options.mb == 150:
        (HERE / "RESULTS-geojson.md").write_text(report)


if __name__ == "__main__":
    main()
