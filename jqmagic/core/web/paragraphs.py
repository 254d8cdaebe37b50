"""Paragraphs from text broken by ``<br><br>`` (Readability's _replaceBrs), before a page
is scored: such text then scores paragraph by paragraph, as it would in ``<p>`` tags."""

from __future__ import annotations

from typing import Any


def has_ancestor(el: Any, names: set[str], depth: int = 8) -> bool:
    """An ancestor of ``el`` within ``depth`` levels is one of ``names``."""
    for i, parent in enumerate(el.parents):
        if i >= depth:
            return False
        if parent.name in names:
            return True
    return False


_PHRASING = {"a", "abbr", "audio", "b", "bdo", "button", "cite", "code", "data", "dfn",
              "em", "embed", "i", "img", "input", "kbd", "label", "mark", "math", "meter",
              "object", "output", "picture", "progress", "q", "ruby", "s", "samp", "select",
              "small", "span", "strong", "sub", "sup", "textarea", "time", "u", "var",
              "video", "wbr", "font", "br", "del", "ins", "map"}


def _next_element(node: Any) -> Any:
    """The next sibling that is not whitespace-only text (Readability's _nextNode)."""
    while node is not None and getattr(node, "name", None) is None and \
            not str(node).strip():
        node = node.next_sibling
    return node


def replace_brs(body: Any, soup: Any) -> None:
    """Paragraphs from text broken by ``<br><br>`` (Readability's _replaceBrs): the chain
    goes, and the inline run after it becomes a ``<p>``, so such text scores paragraph by
    paragraph as it would in ``<p>`` tags (a story in one ``<div>`` of lines)."""
    for br in body.find_all("br"):
        if br.parent is None or has_ancestor(br, {"pre", "code"}):
            continue
        nxt, chain = _next_element(br.next_sibling), False
        while getattr(nxt, "name", None) == "br":
            chain = True
            after = nxt.next_sibling
            nxt.extract()
            nxt = _next_element(after)
        if not chain:
            continue
        p = soup.new_tag("p")
        br.replace_with(p)
        node = p.next_sibling
        while node is not None:
            name = getattr(node, "name", None)
            if name == "br" and getattr(_next_element(node.next_sibling), "name", None) == "br":
                break
            if name is not None and name not in _PHRASING:
                break
            after = node.next_sibling
            p.append(node.extract())
            node = after
        if p.parent is not None and p.parent.name == "p":
            p.parent.name = "div"
