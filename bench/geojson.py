"""A GeoJSON session over a 150 MB FeatureCollection (the corpus's world countries, their
coordinates as written, repeated): ten questions asked in one jqmagic session (the first
parses the file), each timed beside jq 1.8.2 and jaq on the same file (each parses it every
time), with the engine that answered each (the fast path, or libjq over the held values).
Every answer is checked against jq 1.8.2's. A plain install's jqmagic is what runs when
bench/small.py's plain venv exists (``--python``), else this interpreter's.

    .venv/bin/python bench/geojson.py [--mb 150] [--python PY]   -> bench/RESULTS-geojson.md
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
    ".features | map(.geometry.type) | group_by(.) | map({type: .[0], n: length})",
    "[.features[] | .geometry.coordinates | flatten | length] | add",
    "[.features[] | .geometry.coordinates | flatten | min] | min",
    '[.features[] | select(.geometry.type == "MultiPolygon") | .id] | unique | length',
    "[.features[] | {id, n: (.geometry.coordinates | flatten | length)}] | max_by(.n)",
    "[.features[] | .geometry | [paths(type == \"number\")] | length] | add",
    '[.features[] | .id | ascii_downcase | ltrimstr("u")] | unique | length',
    '[.features[] | .properties.name | ascii_downcase | splits("[ ,]+")] | unique | length',
]

SESSION = """
import json, sys, time
import jqmagic
out = []
for program in json.loads(sys.argv[2]):
    started = time.perf_counter()
    result = jqmagic.query(program, sys.argv[1], compact=True, passthrough=True)
    out.append([time.perf_counter() - started, result.engine, result.text])
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


def timed(argv: list[str], program: str, path: Path) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([*argv, "-c", program, str(path)], capture_output=True, text=True)
    return time.perf_counter() - started, done.stdout.rstrip("\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=150)
    parser.add_argument("--python", default=str(PLAIN if PLAIN.exists() else PY))
    options = parser.parse_args()
    path = make(options.mb)
    peers = {"jq 1.8.2": [str(ORACLE)], **({"jaq": [JAQ]} if JAQ else {})}
    times = {name: [timed(argv, q, path) for q in QUESTIONS] for name, argv in peers.items()}
    done = subprocess.run([options.python, "-c", SESSION, str(path), json.dumps(QUESTIONS)],
                          capture_output=True, text=True, check=True)
    session = json.loads(done.stdout.strip().splitlines()[-1])
    lines = ["| # | question | engine | jqmagic | jq 1.8.2 | ratio | jaq | equal |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    answers = zip(QUESTIONS, session, strict=True)
    for i, (question, (seconds, engine, text)) in enumerate(answers, 1):
        jq_seconds, expected = times["jq 1.8.2"][i - 1]
        jaq = f"{times['jaq'][i - 1][0]:.2f} s" if "jaq" in times else "-"
        lines.append(f"| {i} | `{question}` | {engine} | {seconds:.2f} s | {jq_seconds:.2f} s "
                     f"| {seconds / jq_seconds:.2f}x | {jaq} | {text == expected} |")
    total = sum(s for s, _, _ in session)
    jq_total = sum(s for s, _ in times["jq 1.8.2"])
    report = "\n".join([
        "# A GeoJSON session (bench/geojson.py)", "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; {path.stat().st_size / 1e6:.0f} MB; jqmagic from "
        f"{options.python}. The session: {total:.2f} s, {total / jq_total:.2f}x jq 1.8.2's "
        f"{jq_total:.2f} s.", "", *lines]) + "\n"
    print(report)
    if options.mb == 150:
        (HERE / "RESULTS-geojson.md").write_text(report)


if __name__ == "__main__":
    main()
