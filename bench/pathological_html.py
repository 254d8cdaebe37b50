"""Pathological pages: how long HTML -> markdown takes on pages built to be slow.

Each page below is made here (about 1 MB unless its name says otherwise; real pages of
Debian's python3.11-doc beside them when installed) and converted by
``jqmagic.core.web.html.to_markdown``, the function ``web_fetch`` and ``%webfetch`` call,
once with the standard library's parser (a plain install, CI) and once with lxml when it
is installed; each conversion runs in its own process, ended after ``--timeout`` seconds.
Writes the "Pathological pages" section of bench/RESULTS-html.md (keeping the rest).

    .venv/bin/python bench/pathological_html.py [--only li,deep] [--timeout 60] [--no-write]

Run it under ``flock /tmp/jqmagic-bench.lock``: the seconds are wall-clock on a shared host.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS-html.md"
SECTION = "## Pathological pages"
HISTORY = "## History"


def _attrs(n: int, per: int) -> str:
    """``n`` attributes on ``n // per`` elements (short distinct names: a1 a2 ...)."""
    return "".join("<p " + " ".join(f"a{j:x}" for j in range(i, i + per)) + ">t</p>"
                   for i in range(0, n, per))


CASES = {
    "200k unclosed <li>": lambda: "<html><body><ul>" + "<li>item " * 200_000,
    "10^6 attributes on one element": lambda: "<html><body>" + _attrs(1_000_000, 1_000_000),
    "10^6 attributes on 10^4 elements": lambda: "<html><body>" + _attrs(1_000_000, 100),
    "100k nested <div>": lambda: "<html><body>" + "<div>" * 100_000 + "deep",
    "10^5 unclosed <p>": lambda: "<html><body>" + "<p>a line, of text " * 100_000,
    "10^5 unclosed <td>": lambda: "<html><body><table><tr>" + "<td>cell " * 100_000,
    "one 5 MB text node": lambda: "<html><body><p>" + "word " * 1_000_000,
    "10^4 tiny tables": lambda: "<html><body>" + "<table><tr><td>a</td><td>b</td></tr>"
                                                 "</table>" * 10_000,
    "10^5 links in one paragraph": lambda: "<html><body><p>" + "<a href='/x'>x</a> " * 100_000,
    "10^5 <br>": lambda: "<html><body><div>" + "line<br>" * 100_000,
}
# Just under the tree's budget (html.TREE_TAGS start tags): the most a tree is given.
_TREE = 19_900
CASES[f"{_TREE:,} unclosed <li> (a tree)"] = lambda: "<html><body><ul>" + "<li>item " * _TREE
CASES[f"{_TREE:,} unclosed <p> (a tree)"] = lambda: "<html><body>" + "<p>a line, of text " * _TREE
# Real pages beside them, when Debian's python3.11-doc is installed: the biggest page a
# tree converts (17,100 start tags) and two that are streamed (past TREE_TAGS).
DOCS = Path("/usr/share/doc/python3.11-doc/html")
for _name in ("library/stdtypes.html", "genindex-all.html", "contents.html"):
    if (DOCS / _name).exists():
        CASES[f"Python docs: {_name}"] = \
            lambda _name=_name: (DOCS / _name).read_text("utf-8", "replace")


def one(case: str, parser: str) -> dict:
    """Convert one page in this process: seconds, sizes, peak RSS, how it ended."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.web.html import to_markdown

    html = CASES[case]()
    started = time.perf_counter()
    try:
        page = to_markdown(html, "http://127.0.0.1/page.html", parser=parser)
        ended = "cut" if page.cut else "whole"
        out = len(page.markdown)
    except JqMagicError as exc:
        ended, out = exc.code, 0
    took = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"secs": took, "bytes": len(html.encode()), "out": out, "ended": ended,
            "rss": rss}


def run(case: str, parser: str, timeout: float) -> dict:
    cmd = [sys.executable, __file__, "--one", case, "--parser", parser]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"secs": None, "ended": f"> {timeout:g} s (killed)"}
    if done.returncode:
        return {"secs": None, "ended": f"failed: {done.stderr.strip().splitlines()[-1]}"}
    return json.loads(done.stdout)


def parsers() -> list[str]:
    try:
        import lxml  # noqa: F401
    except ImportError:
        return ["html.parser"]
    return ["html.parser", "lxml"]


def table(rows: list[tuple[str, str, dict]]) -> str:
    lines = ["| page | MB | parser | seconds | ended | markdown chars | peak RSS MB |",
             "|---|---:|---|---:|---|---:|---:|"]
    for case, parser, r in rows:
        secs = f"{r['secs']:.2f}" if r.get("secs") is not None else "-"
        mb = f"{r['bytes'] / 1e6:.1f}" if "bytes" in r else "-"
        lines.append(f"| {case} | {mb} | {parser} | {secs} | {r['ended']} | "
                     f"{r.get('out', '-'):,} | {r.get('rss', 0):.0f} |"
                     if "out" in r else
                     f"| {case} | {mb} | {parser} | {secs} | {r['ended']} | - | - |")
    return "\n".join(lines)


def write(text: str) -> None:
    old = RESULTS.read_text("utf-8")
    cut = old.find(SECTION)
    if cut < 0:
        cut = old.find(HISTORY) if HISTORY in old else len(old)
    rest = old[old.find(HISTORY):] if HISTORY in old else ""
    RESULTS.write_text(old[:cut] + text + "\n" + rest, "utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated words; cases whose name holds one")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per conversion")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--parser", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.parser)))
        return 0
    words = args.only.split(",") if args.only else None
    rows = []
    for case in CASES:
        if words and not any(w in case for w in words):
            continue
        for parser in parsers():
            rows.append((case, parser, run(case, parser, args.timeout)))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = (f"{SECTION}\n\nMade by `bench/pathological_html.py` ({time.strftime('%Y-%m-%d')}, "
            f"load {os.getloadavg()[0]:.1f}): each page converted by `to_markdown` (what "
            "`web_fetch` calls) in its own process; \"whole\" is the full page, \"cut\" an "
            "answer cut at the conversion's budget, saying so.\n\n" + table(rows) + "\n")
    print(text)
    if not args.no_write and not words:
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
