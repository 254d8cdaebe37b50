"""The SchemaBrowser on big inputs, as issue 41 measured it: 220,000 customers
(``samples.customers``, 55 MB of JSON) as a file and as a Python variable.
``%inspect FILE --browse`` right after ``%jq`` read the file (and again), the variable's
tree, a search whose one value is in the last column read (a whole first pass), the jq
box on its hit (the program on the hit alone, and, for comparison, the whole variable
sent with the hit's path in front). Wall and CPU seconds, the kernel's peak RSS.

    flock /tmp/jqmagic-bench.lock .venv/bin/python bench/browse.py -> bench/RESULTS-browse.md
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jqmagic import query, samples  # noqa: E402
from jqmagic.core.browsing import model  # noqa: E402
from jqmagic.notebook.widget import SchemaBrowser  # noqa: E402

RECORDS = 220_000
LATE = "Nagoya-late"  # the last record's one order's city: the last column searched


def records() -> list[dict]:
    found = samples.customers(RECORDS)
    found[-1]["orders"] = [{"total": 7, "shipping": {"carrier": "Yamato", "city": LATE}}]
    return found


def timed(what, rows: list, label: str, target: float | None = None):
    wall, cpu = time.perf_counter(), time.process_time()
    result = what()
    rows.append((label, time.perf_counter() - wall, time.process_time() - cpu, target))
    return result


def main() -> None:
    rows: list[tuple[str, float, float, float | None]] = []
    recs = records()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "customers.json"
        path.write_text(json.dumps(recs))
        size = path.stat().st_size / 2**20
        timed(lambda: query("length", file=str(path)), rows,
              f"%jq 'length' on the {size:.0f} MB file (the worker reads it)")
        timed(lambda: SchemaBrowser(file=str(path)), rows,
              "%inspect FILE --browse, right after", target=2.0)
        timed(lambda: SchemaBrowser(file=str(path)), rows, "%inspect FILE --browse, again")
    browser = timed(lambda: SchemaBrowser(value=recs), rows,
                    f"%inspect VAR --browse ({RECORDS:,} records)")
    model.SEARCH_SECONDS = 60.0  # one slice: the whole pass, timed
    timed(lambda: browser.set_state({"search": LATE}), rows,
          "search a value only the last column read holds (a whole first pass)")
    assert browser.search_note == "1 match in keys and values", browser.search_note
    browser.query = "ascii_downcase"
    text = timed(browser.run_query, rows, "jq box on the hit (the hit's value alone)",
                 target=1.0)
    assert text.startswith('"nagoya-late"'), text
    hit = browser.hit["path"]
    timed(lambda: query(f"{hit} | (ascii_downcase)", value=recs), rows,
          "the same through the whole variable (before)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()[0]
    lines = ["# The SchemaBrowser on big inputs (bench/browse.py)", "",
             f"{time.strftime('%Y-%m-%d %H:%M')} UTC; a shared 2-core host (load {load:.1f} "
             f"at the end); the kernel's peak RSS {rss:.0f} MB.", "",
             "| step | wall s | CPU s | issue 41's target |", "|---|---|---|---|"]
    lines += [f"| {label} | {wall:.2f} | {cpu:.2f} | " + (
        f"{target:g} s: {'met' if wall <= target else 'NOT met'}" if target else "") + " |"
        for label, wall, cpu, target in rows]
    lines += ["", "The search reads in slices of model.SEARCH_SECONDS (2 s): a first pass "
              "shorter than one slice finishes before any progress note is sent, so the "
              "browser test cuts the slice to 0.1 s to see the note. --browse of a file "
              "parses it again in the kernel and builds its shape there (the worker's "
              "parsed copy is in another process): the row after %jq is that second "
              "parse (orjson with the collector paused, about 0.6 s) and the shape built "
              "column by column (core/shape/columns.py, about 0.7 s). Before both, the "
              "same row took 4.00 s wall / 3.09 s CPU on this host (commit b19ebbd, "
              "23:43 UTC, load 2.2): the parse with the collector running took 2.3 s of "
              "CPU, the one-by-one shape 1.1 s. After, six runs between 23:44 and 00:03 "
              "UTC took 1.55-1.63 s of CPU each, 1.57-1.68 s wall in four (load up to "
              "3.1) and 2.36-2.68 s in two at load 3.2-3.7: on this 2-core host the "
              "target holds when it is not oversubscribed. What is left: the parse "
              "(0.5-0.6 s), the shape (0.65 s), and the collector's first pass over the "
              "new tree once it runs again (0.2-0.5 s; the worker freezes its trees, the "
              "kernel does not)."]
    (HERE / "RESULTS-browse.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
