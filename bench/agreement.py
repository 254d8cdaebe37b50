"""Two combinations of jqmagic with trafilatura, measured by bench/crossval_html.py (not
used by jqmagic: neither measured ahead of jqmagic alone, see bench/RESULTS-crossval.md):

- agreement: trafilatura's text confirms the blocks of the container jqmagic's extractor
  chose; boilerplate-shaped blocks (short or link-heavy) it does not confirm go;
- boundary: the element of the page that holds most of trafilatura's text and least of
  the rest, rendered by jqmagic's renderer (so tables, code and formulas stay markdown)."""

from __future__ import annotations

import re
from typing import Any

from jqmagic.core.web.extract import link_density, text_of

_SPACE = re.compile(r"\s+")
# Blocks judged one by one: leaves of the text, never a container of other blocks.
_LEAVES = ("p", "li", "dt", "dd", "blockquote", "figcaption", "h2", "h3", "h4", "h5", "h6",
           "div", "section", "aside")
_INNER_BLOCKS = ("p", "li", "ul", "ol", "dl", "div", "table", "pre", "blockquote",
                 "figure", "section", "h1", "h2", "h3", "h4", "h5", "h6", "article")
# Never judged by the second finder: structure it drops or reshapes (tables, code,
# formulas, images) is kept.
_KEEP = ("pre", "code", "table", "math", "img", "picture", "video", "figure")


def second_text(html: str, base: str | None) -> str | None:
    """trafilatura's text of the page's main content (its recall setting); None without
    trafilatura or when it finds nothing."""
    try:
        import trafilatura
    except ImportError:
        return None
    try:
        text = trafilatura.extract(html, url=base or None, output_format="txt",
                                   favor_recall=True, include_tables=True,
                                   include_comments=False, include_links=False,
                                   include_formatting=False, include_images=False)
    except Exception:  # noqa: BLE001 - a second opinion never fails the page
        return None
    return text or None


def squash(text: str) -> str:
    """Text without whitespace, lowercased: blocks compare whatever their spacing."""
    return _SPACE.sub("", text).lower()


def confirmed_share(article: Any, other: str) -> float:
    """Share of the container's leaf-block text that the other finder kept too."""
    total = kept = 0
    for el in _leaves(article):
        s = squash(el.get_text())
        total += len(s)
        kept += len(s) if s in other else 0
    return kept / total if total else 0.0


def prune(article: Any, other: str, *, short: int = 200, min_share: float = 0.6) -> int:
    """Drop the container's leaf blocks the other finder did not keep when they look like
    boilerplate (short, or mostly links), once both finders agree on most of the text.
    Returns how many blocks went."""
    if confirmed_share(article, other) < min_share:
        return 0
    dropped = 0
    for el in list(_leaves(article)):
        if el.decomposed:
            continue
        text = text_of(el)
        s = squash(text)
        if not s or s in other or el.find(_KEEP) or el.find_parent(_KEEP):
            continue
        if len(text) < short or link_density(el, len(text)) > 0.3:
            el.decompose()
            dropped += 1
    return dropped


def _leaves(article: Any) -> list:
    return [el for el in article.find_all(_LEAVES)
            if not el.find(_INNER_BLOCKS) and el.get_text().strip()]


def boundary(body: Any, other: str) -> Any:
    """The element under ``body`` whose leaf blocks hold the most text trafilatura kept
    less the text it did not keep."""
    gain: dict[int, int] = {}
    nodes: dict[int, Any] = {}
    for el in _leaves(body):
        s = squash(el.get_text())
        g = len(s) if s in other else -len(s)
        for anc in [el, *el.parents]:
            if anc is body.parent:
                break
            gain[id(anc)] = gain.get(id(anc), 0) + g
            nodes[id(anc)] = anc
    if not gain:
        return body
    return nodes[max(gain, key=gain.__getitem__)]
