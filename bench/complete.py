"""Benchmark completion: how long Tab takes on a 50 MB document, first and once its shape
is kept, beside what the same question costs asked of jq (the keys of one element).

The document is bench_shape's generated API dump (bench/data/, gitignored). Completion
runs in this process as a notebook's kernel would run it (the shape made by the worker);
each cached row is the median (and the 95th percentile) of many keystrokes. Run it alone:

    flock /tmp/jqmagic-bench.lock .venv/bin/python bench/complete.py
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_shape import generate  # noqa: E402

from jqmagic.cli.browse import preview_text  # noqa: E402
from jqmagic.core.complete import complete, forget  # noqa: E402
from jqmagic.core.query import query  # noqa: E402
from jqmagic.notebook.completer import at_cursor  # noqa: E402

RESULTS = HERE / "RESULTS-complete.md"
# what a user types, each at its end: keys behind .[n], select, .., builtins, quoting
PROGRAMS = (".items[0].", ".items[] | select(.add", ".items | map(.orders[].",
            "..|.ge", ".items | ma", ".items[0].address.geo.l")


def _timed(function, *args, **kwargs) -> tuple[float, object]:
    began = time.perf_counter()
    answer = function(*args, **kwargs)
    return time.perf_counter() - began, answer


def _cell(text: str) -> str:
    """``text`` in a markdown table's cell (its pipes escaped)."""
    return text.replace("|", "\\|")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--keystrokes", type=int, default=300)
    options = parser.parse_args()
    path = HERE / "data" / f"api-{options.megabytes}mb.json"
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        generate(path, options.megabytes)
    size = path.stat().st_size / 2**20
    forget()
    first, done = _timed(complete, ".items[0].", source=str(path))
    assert ".address" in done.texts, done
    rows = [("first Tab (the worker reads the file and merges its shape)", first, None)]
    for program in PROGRAMS:
        times = []
        for _ in range(options.keystrokes // len(PROGRAMS)):
            seconds, done = _timed(complete, program, source=str(path))
            times.append(seconds)
        assert done.offers, program
        rows.append((f"cached Tab: `{program}`", statistics.median(times),
                     statistics.quantiles(times, n=20)[-1]))
    magic = f"%jq '.items[0].address.' {path} -c"
    cursor = len("%jq '.items[0].address.")
    times = [_timed(at_cursor, magic, 0, cursor, {})[0] for _ in range(100)]
    rows.append(("cached Tab through the %jq completer (line parsed, then the core)",
                 statistics.median(times), statistics.quantiles(times, n=20)[-1]))
    preview_text(".items | length", str(path))  # the worker parses the file once
    for program in (".items[0].address", ".items[] | select(.id == 5) | .login"):
        times = [_timed(preview_text, program, str(path))[0] for _ in range(10)]
        rows.append((f"jqmagic browse's preview of `{program}` (20 results, count)",
                     statistics.median(times), statistics.quantiles(times, n=20)[-1]))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows += _jq_box(path, options.keystrokes // len(PROGRAMS))
    widget_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    asked = [("jqmagic query `.items[0] | keys` (document cached by the worker)",
              _best(lambda: query(".items[0] | keys", str(path))))]
    jq = shutil.which("jq")
    if jq:
        version = subprocess.run([jq, "--version"], capture_output=True, text=True).stdout
        asked.append((f"{version.strip()} `.items[0] | keys` (a process)",
                      _best(lambda: subprocess.run([jq, "-c", ".items[0] | keys", str(path)],
                                                   capture_output=True, check=True))))
    cached = statistics.median(r[1] for r in rows[1:len(PROGRAMS) + 1])
    lines = [
        "# Completion benchmark",
        "",
        f"`flock /tmp/jqmagic-bench.lock .venv/bin/python bench/complete.py` on 2 shared "
        f"cores, Python {sys.version.split()[0]}: a {size:.0f} MB API dump "
        "(bench_shape's generator). Completion runs in this process as in a kernel; the "
        "first Tab has the worker read the file and merge its shape, later ones reuse the "
        f"shape kept for the file's version. Cached rows: median and 95th percentile of "
        f"{options.keystrokes // len(PROGRAMS)} keystrokes each. Peak RSS of the calling "
        f"process: {rss:.0f} MB (the document lives in the worker); {widget_rss:.0f} MB once "
        "the SchemaBrowser's tree holds the document too.",
        "",
        "| what | median (ms) | p95 (ms) | time / cached Tab |",
        "|---|---:|---:|---:|",
    ]
    for what, median, p95 in rows:
        lines.append(f"| {_cell(what)} | {_ms(median)} | {_ms(p95) if p95 else ''} | "
                     f"{median / cached:,.0f}x |")
    lines += ["", "The same question asked instead of completed (best of 3):", "",
              "| what | time (ms) | time / cached Tab |", "|---|---:|---:|"]
    lines += [f"| {_cell(what)} | {_ms(seconds)} | {seconds / cached:,.0f}x |"
              for what, seconds in asked]
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _jq_box(path: Path, keystrokes: int) -> list[tuple]:
    """The SchemaBrowser's jq box on ``.items[]``: its offers (read from the tree's shape)
    and its preview (the worker's cached document), as the view asks them."""
    from jqmagic.notebook.widget import SchemaBrowser

    seconds, browser = _timed(SchemaBrowser, file=str(path))
    rows = [("the SchemaBrowser's tree of the file (its shape, once per file version)",
             seconds, None)]
    browser.select(".items[]")
    for program in (".address.geo.l", ".orders[].", "select(.add"):
        times = [_timed(browser.offers, program)[0] for _ in range(keystrokes)]
        assert browser.offers(program)["items"], program
        rows.append((f"the jq box on .items[]: offers of `{program}`",
                     statistics.median(times), statistics.quantiles(times, n=20)[-1]))
    browser.preview(".address")  # the worker parses the file once
    for program in (".address", "select(.id == 5) | .login"):
        times = [_timed(browser.preview, program)[0] for _ in range(10)]
        rows.append((f"the jq box on .items[]: preview of `{program}` (20 results, count)",
                     statistics.median(times), statistics.quantiles(times, n=20)[-1]))
    return rows


def _best(run) -> float:
    return min(_timed(run)[0] for _ in range(3))


if __name__ == "__main__":
    main()
