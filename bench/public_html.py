"""Main content on 1,400+ annotated pages: jqmagic beside trafilatura, readability-lxml and
jusText, per collection, with every page's score kept.

Pages: each collection of ../shared/corpus/html-public/ (CleanEval dev and final, the
CleanPortalEval news portals, the L3S Google News set "page-signal") and the 73 pages of
../shared/corpus/html/ ("readability"). One reading for all of them:

- the page's bytes are decoded once, as jqmagic's fetch decodes them (header-less: the
  document's BOM or <meta>, else UTF-8, else a guess), and every method gets that text;
- gold text: CleanEval and CleanPortalEval drop their first ``URL:`` line and their block
  markers (``<p>``, ``<h>``, ``<l>``) and unescape entities; page-signal's gold is the text
  the annotators marked as the article's full text (``x-nc-sel2``; headline, bylines and
  captions, ``sel1`` and ``sel3``, are not: the page's title is a field of its own); the
  73 pages' is Readability's expected.html (bench/score_html.py's reference_text);
- candidates: markdown stripped as bench/score_html.py strips it; one tokeniser
  (score_html.tokens, CJK by character) and bag-of-words precision / recall / F1.

A fixed split: a page (``collection/name``) is in the held-back 30% when the first eight hex
digits of the SHA-1 of its id, read as a number, are at or above 0.7 * 2^32. Designs are
chosen on the 70% ("dev"); ``--split test`` reports on the 30%.

The libraries' outputs are cached under build/html-public/<method>-<version>/ (they do not
change); each run writes build/html-public/runs/<label>.json with every page's P/R/F1 per
method, and ``--diff A B`` lists the pages a change helped and hurt.

    flock /tmp/jqmagic-heavy.lock .venv/bin/python bench/public_html.py --split dev \
        [--sample 400] [--only jqmagic] [--label NAME]
    .venv/bin/python bench/public_html.py --diff before after

trafilatura, readability-lxml and jusText are bench-only (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import hashlib
import html as htmllib
import json
import re
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from html_methods import (  # noqa: E402
    m_jqmagic,
    m_jqmagic_comments,
    m_jqmagic_stdlib,
    m_justext,
    m_readability,
    m_trafilatura,
    m_trafilatura_precision,
    m_trafilatura_recall,
)
from score_html import BASE, CORPUS, prf, reference_text, strip_markdown, tokens  # noqa: E402

PUBLIC = ROOT.parent / "shared" / "corpus" / "html-public"
BUILD = ROOT / "build" / "html-public"
COLLECTIONS = {"cleaneval-dev": "cleaneval-dev", "cleaneval-final": "cleaneval-final",
               "portals": "CleanPortalEval-master", "page-signal": "page-signal-master"}
HELD_BACK = 0.3
_MARKERS = re.compile(r"^\s*<[phl]>", re.M)


# -- pages -------------------------------------------------------------------------------
def held_back(page_id: str) -> bool:
    """In the fixed 30% reported on, never chosen on."""
    h = int(hashlib.sha1(page_id.encode()).hexdigest()[:8], 16)
    return h >= (1 - HELD_BACK) * 2**32


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _decode(body: bytes, html: bool) -> str:
    """As jqmagic's fetch decodes a body; control characters out (lxml refuses a string
    with a NUL, which would cost readability-lxml and jusText a page for nothing)."""
    from jqmagic.core.web.decode import decode

    return _CONTROL.sub(" ", decode(body, "", html=html))


def _gold_text(raw: str) -> str:
    lines = raw.lstrip().split("\n")
    if lines and lines[0].startswith("URL:"):
        lines = lines[1:]
    return htmllib.unescape(_MARKERS.sub(" ", "\n".join(lines)))


def _signal_gold(raw: str) -> str:
    """The text whose nearest annotation is ``x-nc-sel2`` (the article's full text)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(raw, "lxml")
    out = []
    for s in soup.find_all(string=True):
        parent = s.parent
        while parent is not None and not any(
                c.startswith("x-nc-sel") for c in (parent.get("class") or [])):
            parent = parent.parent
        if parent is not None and "x-nc-sel2" in parent.get("class"):
            out.append(str(s))
    return " ".join(out)


def pages(collections: list[str] | None = None) -> list[dict]:
    """Every page with a gold text: {id, collection, name, path, gold}; sorted by id."""
    out = []
    for coll, folder in COLLECTIONS.items():
        if collections and coll not in collections:
            continue
        base = PUBLIC / folder
        for src in sorted((base / "input").glob("*.html")):
            gold = base / "GoldStandard" / (src.stem + ".txt")
            if not gold.exists():
                continue
            out.append({"id": f"{coll}/{src.stem}", "collection": coll, "path": src,
                        "gold": gold})
    if not collections or "readability" in collections:
        for d in sorted(p for p in CORPUS.iterdir() if (p / "source.html").exists()):
            out.append({"id": f"readability/{d.name}", "collection": "readability",
                        "path": d / "source.html", "gold": d / "expected.html"})
    return out


def gold_of(page: dict) -> str:
    raw = page["gold"].read_bytes()
    if page["collection"] == "readability":
        return reference_text(raw.decode("utf-8"))
    if page["collection"] == "page-signal":
        return _signal_gold(_decode(raw, html=True))
    return _gold_text(_decode(raw, html=False))


def base_of(page: dict) -> str:
    return BASE if page["collection"] == "readability" else "http://example.org/page.html"


# name -> (function, the distribution whose version keys its cache; None: never cached)
STDLIB = "jqmagic (html.parser)"  # a plain install (no lxml): asked for by name with --only
WITH_COMMENTS = "jqmagic + comments"  # the body and the comments field: by name too
METHODS = {
    "jqmagic": (m_jqmagic, None),
    STDLIB: (m_jqmagic_stdlib, None),
    WITH_COMMENTS: (m_jqmagic_comments, None),
    "trafilatura": (m_trafilatura, "trafilatura"),
    "trafilatura (precision)": (m_trafilatura_precision, "trafilatura"),
    "trafilatura (recall)": (m_trafilatura_recall, "trafilatura"),
    "readability-lxml": (m_readability, "readability-lxml"),
    "jusText": (m_justext, "jusText"),
}


def _cache_path(method: str, page: dict) -> Path | None:
    from importlib.metadata import version

    lib = METHODS[method][1]
    if lib is None:
        return None
    slug = re.sub(r"\W+", "-", method).strip("-")
    name = page["id"].split("/", 1)[1]
    return BUILD / f"{slug}-{version(lib)}" / page["collection"] / f"{name}.md"


def convert(method: str, page: dict, html: str | None) -> tuple[str, float]:
    """The method's output for the page (cached for libraries) and the seconds it took."""
    path = _cache_path(method, page)
    if path is not None and path.exists():
        return path.read_text("utf-8"), 0.0
    t0 = time.perf_counter()
    try:
        out = METHODS[method][0](html, base_of(page))
    except ImportError:
        raise
    except Exception as exc:  # a library failing on a page scores 0 there, said in a note
        out = ""
        print(f"  {method} failed on {page['id']}: {type(exc).__name__}: {exc}"[:200],
              file=sys.stderr)
    took = time.perf_counter() - t0
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out, "utf-8")
    return out, took


# -- a run -------------------------------------------------------------------------------
def run(selected: list[dict], methods: list[str]) -> dict:
    """{method: {page id: [P, R, F1]}}, plus seconds per method."""
    scores: dict[str, dict[str, list[float]]] = {m: {} for m in methods}
    secs = dict.fromkeys(methods, 0.0)
    for i, page in enumerate(selected):
        html = _decode(page["path"].read_bytes(), html=True)
        ref = tokens(gold_of(page), True)
        for m in methods:
            out, took = convert(m, page, html)
            secs[m] += took
            scores[m][page["id"]] = [round(x, 4) for x in
                                     prf(tokens(strip_markdown(out), True), ref)]
        if (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(selected)} pages", file=sys.stderr)
    return {"scores": scores, "secs": secs}


def table(scores: dict, ids: list[str], gold_sizes: dict | None = None) -> str:
    """Mean F1 per collection and over all pages (P/R/F1 of all), one row per method."""
    colls = sorted({i.split("/")[0] for i in ids})
    head = "| method | " + " | ".join(f"{c} ({sum(1 for i in ids if i.startswith(c + '/'))})"
                                     for c in colls) + f" | all ({len(ids)}): P / R / F1 |"
    lines = [head, "|---|" + "---:|" * (len(colls) + 1)]
    for m, vals in scores.items():
        cells = []
        for c in colls:
            f = [vals[i][2] for i in ids if i.startswith(c + "/") and i in vals]
            cells.append(f"{statistics.fmean(f):.3f}" if f else "-")
        p, r, f = (statistics.fmean(vals[i][k] for i in ids) for k in range(3))
        lines.append(f"| {m} | " + " | ".join(cells) + f" | {p:.3f} / {r:.3f} / **{f:.3f}** |")
    return "\n".join(lines)


def losses(scores: dict, ids: list[str], peer: str = "trafilatura",
           ours: str = "jqmagic") -> list[tuple[str, float, float]]:
    """Pages where ours is under 0.85 and the peer above it (the issue's "no such page")."""
    return sorted(((i, scores[ours][i][2], scores[peer][i][2]) for i in ids
                   if scores[ours][i][2] < 0.85 <= scores[peer][i][2]), key=lambda t: t[1])


def diff(a: dict, b: dict, method: str = "jqmagic", n: int = 25) -> str:
    """Pages whose F1 moved between two runs, most helped and most hurt."""
    sa, sb = a["scores"][method], b["scores"][method]
    moved = sorted((sb[i][2] - sa[i][2], i) for i in sa if i in sb and
                    abs(sb[i][2] - sa[i][2]) > 0.005)
    up = [f"  +{d:.3f} {i} ({sa[i][2]:.3f} -> {sb[i][2]:.3f})" for d, i in reversed(moved[-n:])
          if d > 0]
    down = [f"  {d:.3f} {i} ({sa[i][2]:.3f} -> {sb[i][2]:.3f})" for d, i in moved[:n] if d < 0]
    common = [i for i in sa if i in sb]
    mean_a = statistics.fmean(sa[i][2] for i in common)
    mean_b = statistics.fmean(sb[i][2] for i in common)
    return (f"{len(common)} pages: mean F1 {mean_a:.4f} -> {mean_b:.4f}; "
            f"{sum(1 for d, _ in moved if d > 0)} helped, "
            f"{sum(1 for d, _ in moved if d < 0)} hurt\nhelped:\n" + "\n".join(up) +
            "\nhurt:\n" + "\n".join(down))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--sample", type=int, help="a fixed sample: the first N by SHA-1 of id")
    ap.add_argument("--only", help="comma-separated methods")
    ap.add_argument("--collections", help="comma-separated collections")
    ap.add_argument("--label", help="name of the run's JSON in build/html-public/runs/")
    ap.add_argument("--diff", nargs=2, metavar=("A", "B"), help="compare two runs")
    ap.add_argument("--design", help="what the run's jqmagic is, kept in the run's JSON")
    ap.add_argument("--method", default="jqmagic", help="the method --diff compares")
    args = ap.parse_args(argv)
    from bs4 import XMLParsedAsHTMLWarning

    warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)  # CleanEval's <text>
    runs = BUILD / "runs"
    if args.diff:
        a, b = (json.loads((runs / f"{x}.json").read_text()) for x in args.diff)
        print(diff(a, b, args.method))
        return 0
    if not PUBLIC.is_dir():
        print(f"corpus not found at {PUBLIC}", file=sys.stderr)
        return 2
    everything = pages(args.collections.split(",") if args.collections else None)
    chosen = [p for p in everything if args.split == "all" or
              held_back(p["id"]) == (args.split == "test")]
    if args.sample:
        chosen = sorted(chosen, key=lambda p: hashlib.sha1(p["id"].encode()).hexdigest())
        chosen = sorted(chosen[:args.sample], key=lambda p: p["id"])
    by_name = (STDLIB, WITH_COMMENTS)
    methods = args.only.split(",") if args.only else [m for m in METHODS if m not in by_name]
    print(f"{len(chosen)} pages ({args.split}{', sample' if args.sample else ''}) of "
          f"{len(everything)}", file=sys.stderr)
    res = run(chosen, methods)
    ids = [p["id"] for p in chosen]
    label = args.label or time.strftime("%Y%m%d-%H%M%S")
    runs.mkdir(parents=True, exist_ok=True)
    (runs / f"{label}.json").write_text(json.dumps(
        {"label": label, "split": args.split, "sample": args.sample, "design": args.design,
         "methods": methods, "secs": res["secs"], "scores": res["scores"]}, indent=0))
    print(f"wrote {runs / (label + '.json')}", file=sys.stderr)
    print(table(res["scores"], ids))
    if "jqmagic" in methods and "trafilatura" in methods:
        lost = losses(res["scores"], ids)
        print(f"\npages jqmagic < 0.85 <= trafilatura: {len(lost)}")
        for i, ours, theirs in lost[:60]:
            p, r, _ = res["scores"]["jqmagic"][i]
            print(f"  {i}: {ours:.3f} (P {p:.2f} R {r:.2f}; trafilatura {theirs:.3f})")
    secs = ", ".join(f"{m} {s / len(ids):.3f}" for m, s in res["secs"].items() if s)
    print(f"\nseconds per page (uncached): {secs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
