"""html.parser's tree built as lxml (libxml2) builds it, the reading the extractor is chosen
on: html.parser nests every start tag in the open element and lets an end tag close
whatever it finds open; a plain install (no lxml) read pages otherwise.

Start tags that end the current element (``_CLOSED_BY``): ``<td>a<td>b`` is two cells,
``<p>a<p>b`` two paragraphs, ``<p>a<div>`` a paragraph then a block, to lxml (and to a
browser); html.parser nested each in the one before (a page of unclosed cells read as
one deep cell lost its story). lxml ends the current element only, again while the new
one ends it (``<td><b>x<td>``: the bold text, then the cell); a block opened inside a
``<span>`` in a paragraph leaves the paragraph open (a browser would end it). The table
was measured on lxml, start tag by current element (bench/html_parsers.py's method).

End tags that close nothing (``_END_RANK``, libxml2's priorities): ``</td>`` with a table
open inside the cell, ``</span>`` with a ``<div>`` open inside it, are ignored (a browser
ignores both too); html.parser closed the inner table and the cell.

One root: ``<html>`` inside an element (CleanEval wraps each page in ``<text>``), ``<head>``
outside ``<html>`` and ``<body>`` inside a body open nothing and their end tags close
nothing; a page that is not one ``<html>`` is put in one ``<html><body>``."""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup, Doctype

_ENDED_BY = {
    "a": "a", "address": "p ul", "blockquote": "p", "caption": "p", "center": "b font i p",
    "col": "caption p", "colgroup": "caption colgroup p", "dd": "address dir dt menu p pre",
    "dir": "p", "div": "p", "dl": "address dir dt menu p pre",
    "dt": "address dd dir menu p pre", "fieldset": "a h1 h2 h3 h4 h5 h6 legend p pre",
    "form": "address dir dl form h1 h2 h3 h4 h5 h6 menu ol p pre ul", "frameset": "p",
    "h1": "p", "h2": "p", "h3": "p", "h4": "p", "h5": "p", "h6": "p", "hr": "p",
    "li": "address dl h1 h2 h3 h4 h5 h6 li p pre", "listing": "p", "menu": "p ul", "ol": "p",
    "optgroup": "option", "option": "option",
    "p": "b big h1 h2 h3 h4 h5 h6 i p s small strike tt u", "pre": "p ul",
    "table": "a h1 h2 h3 h4 h5 h6 p pre",
    "tbody": "caption colgroup p tbody td tfoot th thead tr", "td": "a b font i p span td th u",
    "tfoot": "caption colgroup p tbody td th thead tr", "th": "a b font i p span td th u",
    "thead": "caption colgroup", "title": "p", "tr": "caption colgroup p td th tr",
    "ul": "address dir menu p pre", "xmp": "p",
}
# start tag -> the current elements it ends (lxml 5 / libxml2 2.14, probed pair by pair)
_CLOSED_BY = {tag: frozenset(ended.split()) for tag, ended in _ENDED_BY.items()}
# libxml2's htmlEndPriority: an end tag closes nothing of a higher rank (others: 100).
_END_RANK = {"div": 150, "td": 160, "th": 160, "tr": 170, "thead": 180, "tbody": 180,
             "tfoot": 180, "table": 190, "head": 200, "body": 200, "html": 220}
_ROOT_TAGS = ["html", "head", "body"]
_HEAD_TAGS = {"title", "meta", "link", "script", "style", "base"}  # a browser's head holds


class LxmlTree(BeautifulSoup):
    """html.parser's tree builder with lxml's rules: start tags end the current element
    as ``_CLOSED_BY`` says, end tags close nothing of a higher ``_END_RANK``, misplaced
    root tags open and close nothing. Each start tag pops at most what it ends: linear."""

    def reset(self) -> None:
        self._bodies = 0  # <body> elements open
        self._ignored_roots = 0  # root start tags ignored: as many of their end tags are
        super().reset()

    def pushTag(self, tag: Any) -> None:  # noqa: N802 - bs4's name
        super().pushTag(tag)
        self._bodies += tag.name == "body"

    def popTag(self) -> Any:  # noqa: N802 - bs4's name
        tag = super().popTag()
        self._bodies -= tag is not None and tag.name == "body"
        return tag

    def handle_starttag(self, name: str, *args: Any, **kwargs: Any) -> Any:
        depth = len(self.tagStack) - 1  # elements open (the document is the first)
        if (name == "html" and depth or name == "body" and self._bodies
                or name == "head" and (depth != 1 or self.tagStack[1].name != "html")):
            self._ignored_roots += 1
            return None
        ends = _CLOSED_BY.get(name)
        if ends and self.currentTag.name in ends:
            self.endData()
            while len(self.tagStack) > 1 and self.currentTag.name in ends:
                self.popTag()
        return super().handle_starttag(name, *args, **kwargs)

    def handle_endtag(self, name: str, nsprefix: str | None = None) -> None:
        if name in _ROOT_TAGS and self._ignored_roots:
            self._ignored_roots -= 1
            return
        rank = _END_RANK.get(name, 100)
        for tag in reversed(self.tagStack):
            if tag.name == name:
                break
            if _END_RANK.get(tag.name, 100) > rank:
                return  # ignored: it would close a table, cell or div opened after it
        super().handle_endtag(name, nsprefix)


def one_root(soup: Any) -> bool:
    """Unless the page is one ``<html>`` (after head elements, if any), unwrap every
    html/head/body html.parser made and put the page in one ``<html><body>``, as a browser
    does when those tags come inside an element or after content, or never; returns
    whether it did."""
    top = [c for c in soup.contents if getattr(c, "name", None)]
    rest = top[next((i for i, c in enumerate(top) if c.name not in _HEAD_TAGS), len(top)):]
    if not rest or [c.name for c in rest] == ["html"]:
        return False
    for el in soup.find_all(_ROOT_TAGS):
        el.unwrap()
    html, body = soup.new_tag("html"), soup.new_tag("body")
    html.append(body)
    for node in [c for c in soup.contents if not isinstance(c, Doctype)]:
        body.append(node.extract())
    soup.append(html)
    return True
