"""The SchemaBrowser on big inputs, as issue 41 measured it: ``%inspect FILE --browse`` of
a 51 MB file right after ``%jq`` read it (and again), and the jq box on a search hit of a
55 MB Python variable (the program on the hit alone, and, for comparison, the whole
variable sent with the hit's path in front). Wall and CPU seconds, the kernel's peak RSS.

    flock /tmp/jqmagic-bench.lock .venv/bin/python bench/browse.py -> bench/RESULTS-browse.md
"""

from __future__ import annotations

import json
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jqmagic import query, samples  # noqa: E402
from jqmagic.widget import SchemaBrowser  # noqa: E402

RECORDS = 200_000
DEEP = RECORDS - 3


def records() -> list[dict]:
    found = samples.repos(RECORDS)
    found[DEEP]["owner"]["login"] = "needle-deep"
    for i, rec in enumerate(found):
        rec["score"] = (i * 7919 % 10007) / 97.0
    return found


def timed(what, rows: list, label: str):
    wall, cpu = time.perf_counter(), time.process_time()
    result = what()
    rows.append((label, time.perf_counter() - wall, time.process_time() - cpu))
    return result


def main() -> None:
    rows: list[tuple[str, float, float]] = []
    recs = records()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "recs.json"
        path.write_text(json.dumps(recs))
        size = path.stat().st_size / 2**20
        timed(lambda: query(".[0]", file=str(path)), rows, f"%jq '.[0]' on the {size:.0f} MB "
              "file (the worker reads it)")
        timed(lambda: SchemaBrowser(file=str(path)), rows,
              "%inspect FILE --browse, right after")
        timed(lambda: SchemaBrowser(file=str(path)), rows, "%inspect FILE --browse, again")
    browser = timed(lambda: SchemaBrowser(value=recs), rows,
                    "%inspect VAR --browse (200k records)")
    timed(lambda: browser.set_state({"search": "needle-deep"}), rows,
          "search a value at depth 2 of the last records")
    browser.query = "ascii_upcase"
    text = timed(browser.run_query, rows, "jq box on the hit (the hit's value alone)")
    assert text.startswith('"NEEDLE-DEEP"'), text
    timed(lambda: query(f".[{DEEP}].owner.login | (ascii_upcase)", value=recs), rows,
          "the same through the whole variable (before)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = ["# The SchemaBrowser on big inputs (bench/browse.py)", "",
             f"{time.strftime('%Y-%m-%d %H:%M')} UTC; a shared 2-core host (other runs "
             "beside it); the kernel's peak RSS " f"{rss:.0f} MB.", "",
             "| step | wall s | CPU s |", "|---|---|---|"]
    lines += [f"| {label} | {wall:.2f} | {cpu:.2f} |" for label, wall, cpu in rows]
    (HERE / "RESULTS-browse.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
