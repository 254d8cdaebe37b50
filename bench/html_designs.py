"""Main content, two readings per page for choosing a rule between them offline: jqmagic's
scorer (extract.py) and the page's text by structure (fallback.py), each page's P/R/F1 and
lengths, for the dev split (70%) of bench/public_html.py's pages. Written to
build/html-public/readings-<label>.json; rules are then tried on those numbers in seconds,
each rule tried counted as a design.

    nice .venv/bin/python bench/html_designs.py [--sample N] [--label L]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import public_html as ph  # noqa: E402
from score_html import prf, strip_markdown, tokens  # noqa: E402


def readings(html: str, base: str) -> dict:
    from jqmagic.core.web import html as H
    from jqmagic.core.web.extract import link_density, text_of
    from jqmagic.core.web.fallback import structural_text

    out: dict = {}
    a = H.to_markdown(html, base).markdown
    seen = {}

    def main_spy(soup, check=None):
        from jqmagic.core.web.extract import main_content
        body = soup.body or soup
        b = structural_text(body)
        seen["b"] = b
        seen["body_len"] = len(text_of(body))
        return b

    with mock.patch("jqmagic.core.web.html.main_content", main_spy):
        b_md = H.to_markdown(html, base).markdown
    b = seen.get("b")
    out["a"] = a
    out["b"] = b_md
    out["body_len"] = seen.get("body_len", 0)
    out["b_ld"] = link_density(b) if b is not None else 0.0
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int)
    ap.add_argument("--label", default="dev")
    args = ap.parse_args()
    chosen = [p for p in ph.pages() if not ph.held_back(p["id"])]
    if args.sample:
        chosen = sorted(chosen, key=lambda p: hashlib.sha1(p["id"].encode()).hexdigest())
        chosen = chosen[:args.sample]
    rows = {}
    for n, page in enumerate(chosen):
        html = ph._decode(page["path"].read_bytes(), html=True)
        ref = tokens(ph.gold_of(page), True)
        r = readings(html, ph.base_of(page))
        row = {"body_len": r["body_len"], "b_ld": round(r["b_ld"], 3)}
        for k in ("a", "b"):
            toks = tokens(strip_markdown(r[k]), True)
            row[k] = [round(x, 4) for x in prf(toks, ref)]
            row[k + "_len"] = sum(toks.values())
        rows[page["id"]] = row
        if (n + 1) % 100 == 0:
            print(f"  {n + 1}/{len(chosen)}", file=sys.stderr)
    path = ph.BUILD / f"readings-{args.label}.json"
    path.write_text(json.dumps(rows))
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
