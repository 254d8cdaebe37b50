"""Where html.parser (a plain install) and lxml (a browser's reading) disagree: jqmagic's
markdown of each dev page with both parsers, scored against each other (bag-of-words F1,
bench/public_html.py's tokenisation), worst first; no gold is read. With ``--tree PAGE``,
the first text whose ancestors differ between the two parsers' trees (the cause to fix). With
``--probe``, which start tags end which current elements in lxml, every pair tried
(jqmagic/core/web/nesting.py's ``_ENDED_BY`` is its output).

    flock /tmp/notes/bench.lock .venv/bin/python bench/html_parsers.py [--top 40] [--label L]
    .venv/bin/python bench/html_parsers.py --tree cleaneval-final/225
    .venv/bin/python bench/html_parsers.py --probe
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from html_methods import m_jqmagic, m_jqmagic_stdlib  # noqa: E402
from public_html import BUILD, _decode, base_of, held_back, pages  # noqa: E402
from score_html import prf, strip_markdown, tokens  # noqa: E402


def agreement(page: dict) -> float:
    """F1 of html.parser's markdown against lxml's for one page."""
    html = _decode(page["path"].read_bytes(), html=True)
    a, b = (tokens(strip_markdown(m(html, base_of(page))), True)
            for m in (m_jqmagic, m_jqmagic_stdlib))
    return 1.0 if not a and not b else prf(b, a)[2]


def text_paths(soup) -> list[tuple[str, str]]:
    """(the text, its ancestors' names) of each non-blank text in the body, in order."""
    from bs4 import NavigableString

    body = soup.body or soup
    out = []
    for s in body.find_all(string=True):
        if s.strip() and type(s) is NavigableString and s.parent.name not in (
                "script", "style"):
            names = [p.name for p in s.parents if p is not body and p.name != "[document]"]
            out.append((" ".join(s.split())[:60], "/".join(reversed(names[:12]))))
    return out


def tree_diff(page_id: str, n: int = 5) -> str:
    """The first ``n`` texts whose ancestors differ between the parsers' trees."""
    from jqmagic.core.web.html import parse

    page = next(p for p in pages() if p["id"] == page_id)
    html = _decode(page["path"].read_bytes(), html=True)
    a, b = text_paths(parse(html, "lxml")), text_paths(parse(html, "html.parser"))
    out = [f"{len(a)} texts (lxml), {len(b)} (html.parser)"]
    for (ta, pa), (tb, pb) in zip(a, b, strict=False):
        if ta != tb:
            out.append(f"text differs: {ta!r} / {tb!r}")
            break
        if pa != pb:
            out += [f"{ta!r}", f"  lxml:        {pa}", f"  html.parser: {pb}"]
            n -= 1
            if not n:
                break
    return "\n".join(out)


_TAGS = ("a abbr address area b big blockquote br button caption center cite code col colgroup "
         "dd del dfn dir div dl dt em embed fieldset font form frame frameset h1 h2 h3 h4 h5 h6 "
         "hr i iframe img input ins kbd label legend li link listing map menu meta noframes "
         "noscript object ol optgroup option p param pre q s samp script select small span "
         "strike strong style sub sup table tbody td textarea tfoot th thead title tr tt u ul "
         "var xmp article section aside header footer nav main figure figcaption details "
         "summary")
# where an element can be the current one (others: in a <div>)
_CONTEXT = {"td": "<table><tr>", "th": "<table><tr>", "tr": "<table><tbody>",
            "tbody": "<table>", "thead": "<table>", "tfoot": "<table>", "caption": "<table>",
            "colgroup": "<table>", "li": "<ul>", "dt": "<dl>", "dd": "<dl>",
            "option": "<select>", "optgroup": "<select>"}
_NO_CHILDREN = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                "frame", "script", "style", "textarea", "title", "xmp", "listing", "noscript",
                "iframe", "noframes"}


def probe() -> dict[str, list[str]]:
    """{start tag: the current elements lxml ends when it opens}: ``<old>x<new>`` for every
    pair, ended when the new element is not inside the old one."""
    from bs4 import BeautifulSoup

    ended: dict[str, list[str]] = {}
    for old in (t for t in _TAGS.split() if t not in _NO_CHILDREN):
        for new in _TAGS.split():
            html = f"<html><body>{_CONTEXT.get(old, '<div>')}<{old} id=o>x<{new} id=n>y"
            soup = BeautifulSoup(html, "lxml")
            o, n = soup.find(id="o"), soup.find(id="n")
            if o is not None and n is not None and o not in n.parents:
                ended.setdefault(new, []).append(old)
    return dict(sorted(ended.items()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--label", help="write build/html-public/runs/parsers-<label>.json")
    ap.add_argument("--tree", help="a page id: where its two trees differ")
    ap.add_argument("--probe", action="store_true", help="start tags that end elements")
    args = ap.parse_args(argv)
    if args.probe:
        for new, olds in probe().items():
            print(f'"{new}": "{" ".join(olds)}",')
        return 0
    if args.tree:
        print(tree_diff(args.tree))
        return 0
    dev = [p for p in pages() if not held_back(p["id"])]
    agree = {p["id"]: round(agreement(p), 4) for p in dev}
    if args.label:
        (BUILD / "runs" / f"parsers-{args.label}.json").write_text(json.dumps(agree, indent=0))
    worst = sorted(agree.items(), key=lambda kv: kv[1])
    print(f"{len(agree)} dev pages: mean agreement {statistics.fmean(agree.values()):.4f}; "
          f"{sum(1 for v in agree.values() if v < 0.99)} under 0.99")
    for pid, f in worst[:args.top]:
        print(f"  {f:.3f} {pid}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
