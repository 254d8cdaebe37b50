"""Content of the same kind as the found content, elsewhere on the page: the other posts of
a blog's page, the other sections of a handbook's list, the other cells of a layout table
that hold the same kind of prose. extract.py keeps one container (and its siblings); a page
whose content is spread over several is found only in part (CleanEval's old pages).

A prose block (a paragraph-like element: long, few links) has a kind: its tag and class
with its parent's. When the structural reading of the page (fallback.py) holds prose of the
found content's kinds that the found content does not, and more of it than the found
content has, the content is the structural reading's smallest element around all the prose
of those kinds, if that prose is a good part of it (else the element is the page, not its
kind). A block straight under the scorer's wrapper has no parent of its own and gives no
kind. By structure only: no words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jqmagic.core.web.extract import link_density, text_of

_PROSE_TAGS = ("p", "blockquote", "li", "td", "dd", "pre", "div", "font", "span")
_PROSE = 100  # characters: a block this long and little linked is prose
_LINKED = 0.25
_SAME = 0.6  # share of a block's word pairs in the content: the block is there already
_WORD = re.compile(r"\w+")
KIN_RATIO = 1.0  # kin prose elsewhere, against the found content's prose, to widen
_KIN_SHARE = 0.4  # of the widened element's text, kin prose at least


def _name(el: Any) -> str:
    cls = el.get("class") or []
    return el.name + "." + ".".join(sorted(cls if isinstance(cls, list) else [cls]))


def _kind(el: Any) -> tuple[str, str]:
    """(the block's tag and class, its parent's)."""
    parent = el.parent
    return _name(el), _name(parent) if parent is not None and parent.name else ""


def _prose_blocks(root: Any, kinds: set | None = None) -> list:
    """Prose blocks, innermost (a ``<td>`` around a ``<font>`` of prose is not one); only
    those of ``kinds`` when given (their text is read only then)."""
    found = {}
    for el in root.find_all(_PROSE_TAGS):
        if kinds is not None and _kind(el) not in kinds:
            continue
        if el.name in ("div", "td", "font", "span", "li") and el.find(
                ["p", "div", "td", "blockquote", "table", "ul", "ol"]) is not None:
            continue
        text = text_of(el)
        if len(text) >= _PROSE and link_density(el, len(text)) < _LINKED:
            found[id(el)] = (el, text)
    outer = {id(anc) for el, _ in found.values() for anc in el.parents if id(anc) in found}
    return [pair for key, pair in found.items() if key not in outer]


def widen(found: Any, body: Any, structure: Callable[[], Any]) -> Any | None:
    """The element of the page's structural reading (``structure()``, made only when the
    page's ``body`` shows kin prose enough) around all the prose of the found content's
    kinds, when ``found`` holds less than 1/``KIN_RATIO`` of it; else None."""
    own = _prose_blocks(found)
    if not own:
        return None
    kinds = {_kind(el) for el, _ in own if el.parent is not found}  # not the scorer's wrapper
    limit = KIN_RATIO * sum(len(t) for _, t in own)
    pairs = _pairs(text_of(found))
    if _extra(_prose_blocks(body, kinds), pairs) <= limit:
        return None  # the page's body, chrome and all, holds too little: no reading made
    wider = structure()
    kin = _prose_blocks(wider, kinds)
    if _extra(kin, pairs) <= limit:
        return None
    around = _common_ancestor([el for el, _ in kin])
    if sum(len(t) for _, t in kin) < _KIN_SHARE * len(text_of(around)):
        return None  # kin prose is a small part of what holds it: the page, not its kind
    return around


def _extra(blocks: list, pairs: set) -> int:
    """Characters of the ``blocks`` that are not the found content's."""
    return sum(len(t) for _, t in blocks if not _within(t, pairs))


def _pairs(text: str) -> set[tuple[str, str]]:
    words = _WORD.findall(text.lower())
    return set(zip(words, words[1:], strict=False))


def _within(text: str, pairs: set[tuple[str, str]]) -> bool:
    """Most of the block's word pairs are the found content's: the same block (its hidden
    parts, a formula's source, left out there)."""
    mine = _pairs(text)
    return sum(1 for p in mine if p in pairs) >= _SAME * len(mine)


def _common_ancestor(elements: list) -> Any:
    first = [elements[0], *elements[0].parents]
    depth = {id(e): i for i, e in enumerate(first)}
    best = 0
    for el in elements[1:]:
        for anc in (el, *el.parents):
            if id(anc) in depth:
                best = max(best, depth[id(anc)])
                break
    return first[best]
