"""Main content, two readings per page for choosing a rule between them offline:
jqmagic's output (extract.py's scorer, then fallback.py's ``settle``) and the page's text by
structure (fallback.py's ``structural_text``, boilerplate dropped: every block that survives
the pruning, trafilatura's recall reading). Each reading's P/R/F1, its length and text, and a
few facts of the page's structure (before and after cleaning), for the dev split (70%) of
bench/public_html.py's pages. Written to build/html-public/readings-<label>.json; rules
are then tried on those numbers in seconds (bench/html_choice.py searches them,
cross-validated inside dev), each rule or search tried counted as a design.

    flock /tmp/jqmagic-heavy.lock nice .venv/bin/python bench/html_designs.py \
        [--sample N] [--label L]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import public_html as ph  # noqa: E402
from score_html import prf, strip_markdown, tokens  # noqa: E402

_SEMANTIC = ["article", "main", "section", "header", "nav", "footer", "aside", "figure", "time"]


def readings(html: str) -> dict:
    """{name: markdown} for each reading, and the page's structure facts."""
    from bs4 import Doctype

    from jqmagic.core.web import html as H
    from jqmagic.core.web.boiler import drop_boilerplate, drop_title_heading
    from jqmagic.core.web.extract import link_density, main_content, text_of
    from jqmagic.core.web.fallback import settle, structural_text
    from jqmagic.core.web.widgets import drop_widgets

    soup = H.parse(H.slim_tags(html))
    H.flatten_deep(soup)
    H.reopen_title(soup, None)
    title = H.extract_title(soup)
    doctype = next((str(d) for d in soup.contents if isinstance(d, Doctype)), "")
    facts = {"html5": doctype.strip().lower() == "html",
             "semantic": len(soup.find_all(_SEMANTIC)),
             "scripts": len(soup.find_all("script")),
             "tables": len(soup.find_all("table")),
             "nested_tables": sum(1 for t in soup.find_all("table") if t.find("table")),
             "divs": len(soup.find_all("div")), "tds": len(soup.find_all("td"))}
    H.reopen_body(soup)
    H._drop_junk(soup)
    drop_widgets(soup.body or soup)
    body = soup.body or soup
    found = main_content(soup) or body
    facts |= {"found_tag": found.name, "body_len": len(text_of(body)),
              "found_len": len(text_of(found)),
              "articles": len(body.find_all(["article", "main"])),
              "prose_cells": sum(1 for td in body.find_all("td")
                                 if td.find("td") is None and len(text_of(td)) >= 200)}
    a = settle(found, body)
    drop_title_heading(a, title)
    b = structural_text(body)
    drop_boilerplate(b)
    drop_title_heading(b, title)
    facts["b_ld"] = round(link_density(b), 3)
    out = {"a": H.render(a), "b": H.render(b)}
    return out | {"facts": facts}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int)
    ap.add_argument("--label", default="dev")
    args = ap.parse_args()
    import warnings

    from bs4 import XMLParsedAsHTMLWarning

    warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)
    chosen = [p for p in ph.pages() if not ph.held_back(p["id"])]
    if args.sample:
        chosen = sorted(chosen, key=lambda p: hashlib.sha1(p["id"].encode()).hexdigest())
        chosen = chosen[:args.sample]
    rows = {}
    for n, page in enumerate(chosen):
        html = ph._decode(page["path"].read_bytes(), html=True)
        ref = tokens(ph.gold_of(page), True)
        r = readings(html)
        row = dict(r.pop("facts"))
        for k, md in r.items():
            toks = tokens(strip_markdown(md), True)
            row[k] = [round(x, 4) for x in prf(toks, ref)]
            row[k + "_len"] = sum(toks.values())
            row[k + "_text"] = md
        rows[page["id"]] = row
        if (n + 1) % 100 == 0:
            print(f"  {n + 1}/{len(chosen)}", file=sys.stderr)
    path = ph.BUILD / f"readings-{args.label}.json"
    path.write_text(json.dumps(rows))
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
