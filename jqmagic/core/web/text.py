"""An element's text as the extractor reads it: whitespace collapsed, a reading length
(a CJK character counted as a word), the share of it inside links."""

from __future__ import annotations

import re
from typing import Any

_WS = re.compile(r"\s+")
# A CJK character carries about a word: it counts as three characters of length.
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def decomposed(el: Any) -> bool:
    """bs4's ``el.decomposed`` without its cost: on an intact tag bs4 looks the flag up as
    a child tag (``find("_decomposed")``), a search of the whole subtree."""
    return vars(el).get("_decomposed", False)


def text_of(el: Any) -> str:
    """The element's text with whitespace collapsed."""
    return _WS.sub(" ", el.get_text()).strip()


def is_link(el: Any) -> bool:
    """An ``<a>`` that goes somewhere: by its ``href`` or a script's ``onclick``."""
    return el.name == "a" and (el.has_attr("href") or el.has_attr("onclick"))


def link_density(el: Any, text_len: int | None = None) -> float:
    """Share of the element's text that sits inside links (``#`` links count 0.3; a named
    anchor, an ``<a>`` with neither ``href`` nor ``onclick``, links nowhere: an unclosed
    one may hold the rest of the page)."""
    total = len(text_of(el)) if text_len is None else text_len
    if not total:
        return 0.0
    links = 0.0
    for a in el.find_all(is_link):
        links += len(text_of(a)) * (0.3 if a.get("href", "").startswith("#") else 1.0)
    return links / total


def is_sentence(text: str) -> bool:
    """Short text that ends a sentence ("New in version 3.5."), not a label ("Advertising")."""
    return bool(re.search(r"\w\.( |$)|[\u3002\uff01\uff1f]", text))


def text_length(text: str) -> int:
    """Length as reading text: a CJK character counts as three (it holds about a word)."""
    return len(text) + 2 * len(_CJK.findall(text))


def element_children(el: Any) -> list:
    """The element's child tags, its strings left out."""
    return [c for c in el.children if getattr(c, "name", None)]
