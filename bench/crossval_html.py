"""Cross-validated main-content scores: choose a design on one half of the shared corpus,
report it on the other half, both ways.

The 73 pages of ../shared/corpus/html/ are split into two fixed halves by a hash of their
names (nobody picks which page goes where). Every method converts every page; each is
scored as bench/score_html.py scores (bag of words, markdown stripped, CJK by character).
Then, for each half, the design with the best mean F1 on that half is chosen among the
candidate designs and reported on the *other* half, beside every library alone there.
Writes bench/RESULTS-crossval.md (keeping its hand-written History section).

    .venv/bin/python bench/crossval_html.py [--only a,b] [--pages p,q] [--no-write] [-v]

trafilatura and readability-lxml are bench-only (``pip install -e '.[bench]'``). Their
markdown is cached under $TMPDIR/jqmagic-crossval (keyed by library version and page), so a
run that only changes jqmagic converts only with jqmagic.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from html_methods import (  # noqa: E402
    m_jqmagic,
    m_readability,
    m_trafilatura,
    m_trafilatura_precision,
    m_trafilatura_recall,
)
from score_html import (  # noqa: E402
    BASE,
    CORPUS,
    corpus_pages,
    prf,
    strip_markdown,
    structure,
    tokens,
)

CACHE = Path(tempfile.gettempdir()) / "jqmagic-crossval"


# -- methods: (html, base) -> markdown (the libraries' in bench/html_methods.py) ------
def m_jqmagic_kept(html: str, base: str) -> str:
    """jqmagic without its boilerplate rules (jqmagic/core/web/boiler.py)."""
    from unittest import mock

    with mock.patch("jqmagic.core.web.html.drop_boilerplate", lambda root: 0):
        return m_jqmagic(html, base)


def m_agreement(html: str, base: str) -> str:
    """jqmagic, then the blocks trafilatura does not confirm dropped (bench/agreement.py)."""
    from unittest import mock

    import agreement

    from jqmagic.core.web.boiler import drop_boilerplate

    other = agreement.second_text(html, base)

    def drop(root: object) -> int:
        n = drop_boilerplate(root)
        return n + (agreement.prune(root, agreement.squash(other)) if other else 0)

    with mock.patch("jqmagic.core.web.html.drop_boilerplate", drop):
        return m_jqmagic(html, base)


def m_boundary(html: str, base: str) -> str:
    """trafilatura's boundary of the main content, rendered by jqmagic (bench/agreement.py)."""
    from unittest import mock

    import agreement

    other = agreement.second_text(html, base)
    if not other:
        return m_jqmagic(html, base)
    def find(soup: object, check: object = None) -> object:
        return agreement.boundary(soup.body or soup, agreement.squash(other))

    with mock.patch("jqmagic.core.web.html.main_content", find):
        return m_jqmagic(html, base)


# name -> (function, library whose version keys the cache, or None: never cached)
METHODS = {
    "jqmagic": (m_jqmagic, None),
    "jqmagic without boiler rules": (m_jqmagic_kept, None),
    "jqmagic + trafilatura agreement": (m_agreement, None),
    "trafilatura boundary + jqmagic markdown": (m_boundary, None),
    "trafilatura": (m_trafilatura, "trafilatura"),
    "trafilatura (precision)": (m_trafilatura_precision, "trafilatura"),
    "trafilatura (recall)": (m_trafilatura_recall, "trafilatura"),
    "readability-lxml": (m_readability, "readability-lxml"),
}
LIBRARIES = ("trafilatura", "trafilatura (precision)", "trafilatura (recall)",
             "readability-lxml")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def convert(name: str, page: str, html: str) -> tuple[str, float]:
    """The method's markdown for the page and the seconds it took (0 when cached)."""
    fn, lib = METHODS[name]
    path = None
    if lib is not None:
        path = CACHE / f"{name}-{_version(lib)}" / f"{page}.md"
        if path.exists():
            return path.read_text("utf-8"), 0.0
    t0 = time.perf_counter()
    md = fn(html, BASE)
    took = time.perf_counter() - t0
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(md, "utf-8")
    return md, took


def halves(names: list[str]) -> tuple[list[str], list[str]]:
    """Two fixed halves: pages ordered by the SHA-1 of their name, cut in the middle."""
    ranked = sorted(names, key=lambda n: hashlib.sha1(n.encode()).hexdigest())
    mid = len(ranked) // 2
    return sorted(ranked[:mid]), sorted(ranked[mid:])


def mean(scores: dict, pages: list[str]) -> tuple[float, float, float]:
    return tuple(statistics.fmean(scores[p][i] for p in pages) for i in range(3))


def run(names: list[str] | None, only: list[str] | None) -> dict:
    index = {e["name"]: e for e in json.loads((CORPUS / "index.json").read_text())}
    methods = [m for m in METHODS if not only or m in only]
    scores: dict[str, dict[str, tuple]] = {m: {} for m in methods}
    secs = dict.fromkeys(methods, 0.0)
    missing: dict[str, list[str]] = {m: [] for m in methods}
    for page, src, ref_text, _cjk in corpus_pages(names):
        ref = tokens(ref_text, True)
        counts = index.get(page, {}).get("expected_tag_counts", {})
        for m in methods:
            md, took = convert(m, page, src)
            secs[m] += took
            scores[m][page] = prf(tokens(strip_markdown(md), True), ref)
            st = structure(md)
            for key, tag in (("table", "table"), ("fence", "pre")):
                if counts.get(tag) and not st[key]:
                    missing[m].append(f"{page}:{key}")
    return {"scores": scores, "secs": secs, "missing": missing}


def report(res: dict) -> str:
    scores = res["scores"]
    methods = list(scores)
    pages = sorted(next(iter(scores.values())))
    a, b = halves(pages)
    out = [f"Halves (by SHA-1 of the page name): A = {len(a)} pages, B = {len(b)} pages.\n"]
    lines = ["| method | A: P | A: R | A: F1 | B: P | B: R | B: F1 | all: F1 | "
             "worst page (F1) | pages < 0.85 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for m in methods:
        pa, ra, fa = mean(scores[m], a)
        pb, rb, fb = mean(scores[m], b)
        _, _, fall = mean(scores[m], pages)
        worst = min(pages, key=lambda p: scores[m][p][2])
        low = sum(1 for p in pages if scores[m][p][2] < 0.85)
        lines.append(f"| {m} | {pa:.3f} | {ra:.3f} | {fa:.3f} | {pb:.3f} | {rb:.3f} | "
                     f"{fb:.3f} | {fall:.3f} | {worst} ({scores[m][worst][2]:.3f}) | {low} |")
    out.append("\n".join(lines))
    out.append("\n**Cross-validated choice** (the design with the best mean F1 on one half, "
               "reported on the other; libraries alone on that other half beside it):\n")
    rows = ["| chosen on | chosen design | reported on | its P | its R | its F1 | "
            "best library alone there (F1) |", "|---|---|---|---:|---:|---:|---|"]
    for seen, unseen, sn, un in ((a, b, "A", "B"), (b, a, "B", "A")):
        chosen = max(methods, key=lambda m: mean(scores[m], seen)[2])
        p, r, f = mean(scores[chosen], unseen)
        libs = [m for m in methods if m in LIBRARIES]
        best = max(libs, key=lambda m: mean(scores[m], unseen)[2]) if libs else None
        lib = f"{best} ({mean(scores[best], unseen)[2]:.3f})" if best else "-"
        rows.append(f"| {sn} | {chosen} | {un} | {p:.3f} | {r:.3f} | {f:.3f} | {lib} |")
    out.append("\n".join(rows))
    notes = "".join(f"- {m}: structure missing on {', '.join(v)}\n"
                    for m, v in res["missing"].items() if v)
    out.append("\n" + (notes or "- every method keeps every table and code block the "
                       "references hold\n"))
    secs = ", ".join(f"{m} {res['secs'][m] / len(pages):.3f}" for m in methods
                     if res["secs"][m])
    if secs:
        out.append(f"Seconds per page (uncached runs only): {secs}.\n")
    head = "| page | half | " + " | ".join(methods) + " |"
    detail = [head, "|---|---|" + "---:|" * len(methods)]
    for p in pages:
        cells = []
        for m in methods:
            pp, rr, ff = scores[m][p]
            cells.append(f"{pp:.2f}/{rr:.2f}/**{ff:.3f}**")
        detail.append(f"| {p} | {'A' if p in a else 'B'} | " + " | ".join(cells) + " |")
    out.append("<details><summary>per page (P/R/F1)</summary>\n\n" + "\n".join(detail) +
               "\n\n</details>\n")
    return "\n".join(out)


HISTORY = "## History"


def write(text: str) -> None:
    path = ROOT / "bench" / "RESULTS-crossval.md"
    old = path.read_text("utf-8") if path.exists() else ""
    history = old[old.find(HISTORY):] if HISTORY in old else ""
    head = ("# Main content, cross-validated\n\nMade by `bench/crossval_html.py` on the "
            "shared corpus (Readability's test pages; reference = expected.html). "
            "Bag-of-words precision / recall / F1 as `bench/score_html.py` scores; "
            "library output rendered as markdown (trafilatura's own, readability-lxml's "
            "HTML by jqmagic's renderer).\n\n")
    path.write_text(head + text + ("\n" + history if history else ""), "utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated methods")
    ap.add_argument("--pages", help="comma-separated page names")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 2
    res = run(args.pages.split(",") if args.pages else None,
              args.only.split(",") if args.only else None)
    text = report(res)
    print(text if args.verbose else text.split("<details>")[0])
    if not args.no_write and not args.pages:
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
