"""Score HTML -> markdown converters on the shared readable-content corpus.

For each page of ../shared/corpus/html/ (saved source.html + Readability's expected.html)
convert the source with each method, strip markdown syntax and URLs, and compare the bag of
words with the reference text: precision, recall, F1 (CJK pages by character). Prints a
markdown table and writes bench/RESULTS-html.md.

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
CORPUS = ROOT.parent / "shared" / "corpus" / "html"
BASE = "http://fakehost/test/page.html"
CJK_PAGES = {"gmw", "pixnet", "yahoo-4"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# "_" separates words on both sides (strip_markdown blanks it as emphasis in candidates).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


# -- methods: each takes (html, base_url) and returns markdown or text ---------------
def m_jqmagic(html: str, base: str) -> str:
    from jqmagic.core.web.html import to_markdown

    return to_markdown(html, base).markdown


def m_jqmagic_stdlib(html: str, base: str) -> str:
    from jqmagic.core.web.html import to_markdown

    return to_markdown(html, base, parser="html.parser").markdown


def m_markdownify(html: str, base: str) -> str:
    from markdownify import markdownify

    return markdownify(html, heading_style="ATX")


def m_trafilatura(html: str, base: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=base, output_format="markdown",
                               include_tables=True, include_links=True,
                               include_formatting=True) or ""


def m_readability(html: str, base: str) -> str:
    from readability import Document

    from jqmagic.core.web.html import parse, render

    return render(parse(Document(html, url=base).summary(html_partial=True)))


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
        img.replace_with(f" {img.get('alt') or ''} ")
    return soup.get_text("\n")


def strip_markdown(md: str) -> str:
    md = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", md)  # images -> alt
    md = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", md)  # links -> text
    md = re.sub(r"https?://\S+", " ", md)  # bare URLs
    md = re.sub(r"^```.*$", " ", md, flags=re.M)  # fences
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
    pages = sorted(p.name for p in CORPUS.iterdir() if (p / "source.html").exists())
    if args.pages:
        pages = [p for p in pages if p in args.pages.split(",")]
    scores: dict[str, dict[str, tuple]] = {m: {} for m in methods}
    times: dict[str, float] = dict.fromkeys(methods, 0.0)
    skipped: dict[str, str] = {}
    struct_miss: dict[str, list[str]] = {m: [] for m in methods}
    for page in pages:
        src = (CORPUS / page / "source.html").read_text(encoding="utf-8")
        ref = tokens(reference_text((CORPUS / page / "expected.html").read_text("utf-8")),
                     page in CJK_PAGES)
        counts = index.get(page, {}).get("expected_tag_counts", {})
        for name, fn in list(methods.items()):
            t0 = time.perf_counter()
            try:
                md = fn(src, BASE)
            except ImportError as exc:
                skipped[name] = f"not installed ({exc.name})"
                del methods[name]
                continue
            times[name] += time.perf_counter() - t0
            cand = tokens(strip_markdown(md), page in CJK_PAGES)
            scores[name][page] = prf(cand, ref)
            st = structure(md)
            for key, tag in (("table", "table"), ("fence", "pre")):
                if counts.get(tag) and not st[key]:
                    struct_miss[name].append(f"{page}:{key}")
    lines = ["| method | mean P | mean R | mean F1 | median F1 | worst page (F1) | "
             "pages F1<0.5 | s/page |", "|---|---:|---:|---:|---:|---|---:|---:|"]
    for name in methods:
        vals = scores[name]
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
                     f"{worst} ({vals[worst][2]:.2f}) | {low} | {times[name] / n:.3f} |")
    table = "\n".join(lines)
    print(table)
    if args.verbose:
        names = list(methods)
        print("\n| page | " + " | ".join(names) + " |")
        print("|---|" + "---:|" * len(names))
        for page in pages:
            print(f"| {page} | " + " | ".join(
                f"{scores[m][page][0]:.2f}/{scores[m][page][1]:.2f}/{scores[m][page][2]:.2f}"
                for m in names) + " |")
    for name, why in skipped.items():
        print(f"skipped {name}: {why}")
    for name, miss in struct_miss.items():
        if miss and name in methods:
            print(f"{name}: structure missing on {len(miss)}: {', '.join(miss)}")
    if not args.no_write and not args.pages:
        out = ROOT / "bench" / "RESULTS-html.md"
        out.write_text(
            "# HTML -> markdown: readable-content scores\n\n"
            f"{len(pages)} pages of the shared corpus (Readability's test pages; reference = "
            "expected.html). `jqmagic` parses with lxml when it is installed (the bench extra "
            "brings it), `jqmagic (html.parser)` with the standard library's parser, as a "
            "plain install does. Bag-of-words precision / recall / F1 after stripping markdown "
            "syntax, links and URLs; CJK pages by character. Made by `bench/score_html.py`.\n\n"
            + table + "\n\n"
            + "".join(f"- {n}: structure missing on {', '.join(m)}\n"
                      for n, m in struct_miss.items() if m and n in methods)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
