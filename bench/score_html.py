"""Score HTML -> markdown converters on the shared readable-content corpus and on
documentation pages.

For each page of ../shared/corpus/html/ (saved source.html + Readability's expected.html),
and each documentation page of Debian's python3-doc and cargo-doc found installed (reference
text from the page's own source, bench/docpages.py), convert the page with each method,
strip markdown syntax and URLs, and compare the bag of words with the reference text:
precision, recall, F1 (CJK pages by character). Prints a markdown table per set and writes
bench/RESULTS-html.md (keeping bench/pathological_html.py's section and the hand-written
History section).

    .venv/bin/python bench/score_html.py [--only jqmagic,markdownify] [--pages a,b]

trafilatura and readability-lxml are bench-only (``pip install -e '.[bench]'``); a method
whose library is missing is skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from html_methods import m_jqmagic, m_jqmagic_stdlib, m_readability, m_trafilatura  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "html"
BASE = "http://fakehost/test/page.html"
CJK_PAGES = {"gmw", "pixnet", "yahoo-4"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# "_" separates words on both sides (strip_markdown blanks it as emphasis in candidates).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


# -- methods: each takes (html, base_url) and returns markdown or text ---------------
def m_markdownify(html: str, base: str) -> str:
    from markdownify import markdownify

    return markdownify(html, heading_style="ATX")


METHODS = {
    "jqmagic": m_jqmagic,
    "jqmagic (html.parser)": m_jqmagic_stdlib,
    "markdownify": m_markdownify,
    "trafilatura": m_trafilatura,
    "readability+markdownify": m_readability,
}


# -- text normalisation ------------------------------------------------------------------
def reference_text(expected_html: str) -> str:
    """The reference's text, an image counting as its alt text: the same rule
    :func:`strip_markdown` applies to a candidate's ``![alt](src)``. (bs4's get_text alone
    drops alt, so a page whose formulas are images, wikipedia-3, counted every formula
    a tool kept as extra words.)"""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(expected_html, "html.parser")
    for img in soup.find_all("img"):
        img.replace_with(f" {tex_out(img.get('alt') or '')} ")
    return soup.get_text("\n")


# In a formula, TeX's control words are markup, like markdown's: "\\frac" and
# "\\begin{matrix}" are not words of it, in a candidate's $...$ or image alt text as in the
# alt text of a reference's formula images.
_TEX = re.compile(r"\\(?:begin|end)\{\w+\*?\}|\\[a-zA-Z]+")


def tex_out(text: str) -> str:
    return _TEX.sub(" ", text)


def strip_markdown(md: str) -> str:
    md = re.sub(r"\$\$?[^$\n]+\$?\$", lambda m: tex_out(m.group()), md)  # formulas
    md = re.sub(r"!\[([^\]]*)\]\([^)]*\)", lambda m: tex_out(m.group(1)), md)  # images
    md = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", md)  # links -> text
    md = re.sub(r"https?://\S+", " ", md)  # bare URLs
    md = re.sub(r"^[ \t]*```.*$", " ", md, flags=re.M)  # fences, indented ones too
    md = re.sub(r"</?su[bp]>", " ", md)  # the HTML markdown keeps for super/subscripts
    md = re.sub(r"[#*_`|>\\]", " ", md)
    return re.sub(r"^\s*[-+]\s", " ", md, flags=re.M)


def tokens(text: str, cjk: bool) -> Counter:
    text = re.sub(r"https?://\S+", " ", text).lower()
    if cjk:
        out = []
        for word in _WORD.findall(text):
            out.extend(ch for ch in word) if _CJK.search(word) else out.append(word)
        return Counter(out)
    return Counter(_WORD.findall(text))


def prf(candidate: Counter, reference: Counter) -> tuple[float, float, float]:
    common = sum((candidate & reference).values())
    p = common / max(sum(candidate.values()), 1)
    r = common / max(sum(reference.values()), 1)
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def structure(md: str) -> dict[str, bool]:
    return {
        "table": bool(re.search(r"^\|.*\|\s*$", md, re.M)),
        "fence": "```" in md,
        "heading": bool(re.search(r"^#{2,3} ", md, re.M)),
    }


def corpus_pages(names: list[str] | None = None) -> list[tuple[str, str, str, bool]]:
    """(name, source html, reference text, cjk) for the shared corpus's pages."""
    pages = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
    return [(p, (CORPUS / p / "source.html").read_text("utf-8"),
             reference_text((CORPUS / p / "expected.html").read_text("utf-8")), p in CJK_PAGES)
            for p in pages if not names or p in names]


def doc_pages(names: list[str] | None = None) -> list[tuple[str, str, str, bool]]:
    """(name, html, reference text, False) for the documentation pages (bench/docpages.py)
    found installed; empty without the package."""
    from docpages import doc_pages as found

    return [(n, h.read_text("utf-8"), ref, False) for n, h, ref in found()
            if not names or n in names]


def score(pages: list, methods: dict, index: dict) -> tuple[dict, dict, dict, dict]:
    """Each method over each page: (P, R, F1) per page, seconds, methods skipped (why),
    structure a reference has and the method's markdown lacks."""
    scores: dict[str, dict[str, tuple]] = {m: {} for m in methods}
    times: dict[str, float] = dict.fromkeys(methods, 0.0)
    skipped: dict[str, str] = {}
    struct_miss: dict[str, list[str]] = {m: [] for m in methods}
    for page, src, ref_text, cjk in pages:
        ref = tokens(ref_text, cjk)
        counts = index.get(page, {}).get("expected_tag_counts", {})
        for name, fn in list(methods.items()):
            if name in skipped:
                continue
            t0 = time.perf_counter()
            try:
                md = fn(src, BASE if page in index else "file:///" + page)
            except ImportError as exc:
                skipped[name] = f"not installed ({exc.name})"
                continue
            times[name] += time.perf_counter() - t0
            scores[name][page] = prf(tokens(strip_markdown(md), cjk), ref)
            st = structure(md)
            for key, tag in (("table", "table"), ("fence", "pre")):
                if counts.get(tag) and not st[key]:
                    struct_miss[name].append(f"{page}:{key}")
    return scores, times, skipped, struct_miss


def table(scores: dict, times: dict) -> str:
    lines = ["| method | mean P | mean R | mean F1 | median F1 | worst page (F1) | "
             "pages F1<0.5 | s/page |", "|---|---:|---:|---:|---:|---|---:|---:|"]
    for name, vals in scores.items():
        if not vals:
            continue
        n = len(vals)
        mp = sum(v[0] for v in vals.values()) / n
        mr = sum(v[1] for v in vals.values()) / n
        f1s = sorted(v[2] for v in vals.values())
        mf = sum(f1s) / n
        med = f1s[n // 2]
        worst = min(vals, key=lambda k: vals[k][2])
        low = sum(1 for f in f1s if f < 0.5)
        lines.append(f"| {name} | {mp:.3f} | {mr:.3f} | {mf:.3f} | {med:.3f} | "
                     f"{worst} ({vals[worst][2]:.3f}) | {low} | {times[name] / n:.3f} |")
    return "\n".join(lines)


def per_page(scores: dict) -> str:
    """F1 of every page for every method (P/R/F1 for jqmagic)."""
    names = [m for m in scores if scores[m]]
    pages = list(scores[names[0]]) if names else []
    lines = ["| page | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for page in pages:
        cells = []
        for m in names:
            p, r, f = scores[m].get(page, (0, 0, 0))
            cells.append(f"{p:.3f}/{r:.3f}/**{f:.3f}**" if m == "jqmagic" else f"{f:.3f}")
        lines.append(f"| {page} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated methods")
    ap.add_argument("--pages", help="comma-separated page names")
    ap.add_argument("--no-write", action="store_true", help="do not write RESULTS-html.md")
    ap.add_argument("-v", "--verbose", action="store_true", help="per-page F1")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}; nothing to score", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    methods = {k: v for k, v in METHODS.items()
               if not args.only or k in args.only.split(",")}
    index = {e["name"]: e for e in json.loads((CORPUS / "index.json").read_text())} \
        if (CORPUS / "index.json").exists() else {}
    names = args.pages.split(",") if args.pages else None
    out = []
    for title, pages in (("corpus", corpus_pages(names)), ("docs", doc_pages(names))):
        if not pages:
            why = " (install Debian's python3-doc and cargo-doc)" if title == "docs" and \
                not names else ""
            print(f"{title}: no pages{why}")
            continue
        scores, times, skipped, miss = score(pages, methods, index)
        text = table(scores, times)
        detail = per_page(scores)
        print(f"{title}: {len(pages)} pages\n{text}\n")
        if args.verbose:
            print(detail + "\n")
        for name, why in skipped.items():
            print(f"skipped {name}: {why}")
        notes = "".join(f"- {n}: structure missing on {', '.join(m)}\n"
                        for n, m in miss.items() if m and n not in skipped)
        print(notes)
        out.append((title, len(pages), text, detail, notes))
    if not args.no_write and not args.pages:
        write_results(out)
    return 0


HISTORY = "## History"
PATHOLOGICAL = "## Pathological pages"


def write_results(out: list) -> None:
    text = ["# HTML -> markdown: readable-content scores\n\nMade by `bench/score_html.py`. "
            "Bag-of-words precision / recall / F1 of each method's markdown against a "
            "reference text, after stripping markdown syntax, links and URLs (an image "
            "counts as its alt text on both sides; in a formula, TeX's control words are "
            "markup, as are <sup>/<sub>); CJK pages by character. `jqmagic` "
            "parses with lxml when it is installed, `jqmagic (html.parser)` with the "
            "standard library's parser, as a plain install does.\n"]
    for title, n, table_text, detail, notes in out:
        what = (f"{n} pages of the shared corpus (Readability's test pages; reference = "
                "expected.html)" if title == "corpus" else
                f"{n} documentation pages: the Python docs' Sphinx HTML from Debian's "
                "python3-doc against each page's reST source, rustdoc pages (`rust/`) from "
                "Debian's cargo-doc against the doc comments of the Rust source the package "
                "renders (references made by `bench/docpages.py`'s fixed rules)")
        text.append(f"## {title}: {what}\n\n{table_text}\n\n{notes}\n"
                    f"<details><summary>per page (jqmagic P/R/F1, others F1)</summary>"
                    f"\n\n{detail}\n\n</details>\n")
    path = ROOT / "bench" / "RESULTS-html.md"
    old = path.read_text("utf-8") if path.exists() else ""
    # Kept, run to run: bench/pathological_html.py's section and the hand-written History.
    kept = next((old[old.find(head):] for head in (PATHOLOGICAL, HISTORY) if head in old), "")
    path.write_text("\n".join(text) + ("\n" + kept if kept else ""))


if __name__ == "__main__":
    raise SystemExit(main())
