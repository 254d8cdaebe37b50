"""HTML -> markdown in one pass of the standard library's tokenizer, for pages too big for
a tree: linear in the page, no main-content extraction, cut at a deadline."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser
from urllib.parse import urljoin

from jqmagic.core.web.extract import CHROME_ROLES, MAYBE, NOTES, UNLIKELY
from jqmagic.core.web.formula import math_image_tex

# Never content: their text is skipped (``head`` holds the title, read on its own).
_JUNK = {"script", "style", "noscript", "template", "svg", "canvas", "dialog", "head",
         "select", "textarea", "button", "object", "iframe"}
_BLOCKS = {"p", "div", "section", "article", "main", "header", "footer", "nav", "aside",
           "blockquote", "figure", "figcaption", "dl", "dt", "dd", "address", "details",
           "summary", "form", "fieldset", "center", "caption"}
# Page chrome dropped whole when it ends (found by tag, role, or Readability's unlikely
# class and id names), unless it held much text, mostly not links (a wrapper misnamed
# "sidebar" around the article); looked for only on tags a page closes itself.
_CHROME_TAGS = {"nav", "footer", "aside"}
_CLOSED = {"nav", "footer", "aside", "header", "div", "section", "ul", "ol", "table", "form"}
_CONTENT_CHARS, _CONTENT_LINKS = 1_000, 0.5  # chrome this long, links under this share: kept
_CHROME_NESTING = 8  # chrome inside chrome judged on its own, this deep at most
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_WS = re.compile(r"\s+")
CHUNK = 1 << 16  # characters fed between two looks at the clock
_MAX_INDENT = 8  # list levels shown as indentation (deeper ones stay at this one)


class _Writer(HTMLParser):
    """Tokenizer events -> markdown pieces, each event handled in constant time (a link's
    text is joined once, when it closes)."""

    def __init__(self, base: str, raw: bool = False):
        super().__init__(convert_charrefs=True)
        self.base, self.raw = base, raw
        self.out: list[str] = []
        self.title: list[str] | None = None  # inside <title>, its text so far
        self.titles: list[str] = []
        self.junk: dict[str, int] = {}
        self.pre = 0
        self.lists: list[list[int]] = []  # [ordered?, next number] per open list
        self.link: tuple[int, str] | None = None  # (index in out, href) of the open <a>
        self.row: int | None = None  # cells in the open table row (None: not in a row)
        self.in_cell = False
        self.rows = 0  # rows of the open table so far
        self.based = False  # a <base href> was read
        self.urls: dict[str, str] = {}
        self.chrome: list[list] = []  # [tag, depth, start in out, link chars then] each
        self.link_chars = 0  # characters of link text so far
        self.tail = 2  # newlines ending the output so far (at most 2)
        self.bare = False  # the line so far holds only a prefix ("- ", "## ")

    # -- output ----------------------------------------------------------------------
    def emit(self, text: str) -> None:
        if text:
            self.out.append(text)
            if text[-1] == "\n":
                body = text.rstrip("\n")
                self.tail = min(2, len(text) - len(body) + (0 if body else self.tail))
            else:
                self.tail = 0
            self.bare = False

    def block(self) -> None:
        """A paragraph break (inside a table row, a space: the row stays one line)."""
        if self.row is not None:
            self.emit(" ")
        elif not self.bare and self.tail < 2:
            self.emit("\n" * (2 - self.tail))

    # -- events ------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "title" and not self.titles and self.title is None:
            self.title = []
        if tag == "base" and not self.based:
            href = dict(attrs).get("href")
            if href:
                self.base, self.based = urljoin(self.base, href), True  # the first wins
                self.urls.clear()
        if tag == "body":
            self.junk.pop("head", None)  # a <head> left open ends where <body> starts
        if tag in _JUNK:
            self.junk[tag] = self.junk.get(tag, 0) + 1
            return
        if self.junk:
            return
        for open_ in self.chrome:
            open_[1] += tag == open_[0]
        if tag in _CLOSED and not self.raw and len(self.chrome) < _CHROME_NESTING and \
                _is_chrome(tag, attrs):
            self.chrome.append([tag, 1, len(self.out), self.link_chars])
        if tag in _HEADINGS:
            self.block()
            self.emit("#" * _HEADINGS[tag] + " ")
            self.bare = True
        elif tag in _BLOCKS:
            self.block()
        elif tag in ("ul", "ol", "menu"):
            if not self.lists:
                self.block()
            self.lists.append([tag == "ol", 1])
        elif tag == "li":
            self.li()
        elif tag == "pre":
            self.block()
            self.emit("```\n")
            self.pre += 1
        elif tag == "br":
            self.emit("\n")
        elif tag == "hr":
            self.block()
            self.emit("---\n\n")
        elif tag == "a":
            self.close_link()
            href = dict(attrs).get("href") or ""
            if not self.pre and href and not href.startswith(("#", "javascript:")):
                self.link = (len(self.out), self.url(href))
        elif tag == "img":
            self.img(dict(attrs))
        elif tag == "code" and not self.pre:
            self.emit("`")
        elif tag == "table":
            self.block()
            self.rows = 0
        elif tag == "tr":
            self.end_row()
            self.row = 0
        elif tag in ("td", "th"):
            self.cell()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title is not None:
            self.titles.append(" ".join("".join(self.title).split()))
            self.title = None
        if tag in _JUNK:
            if self.junk.get(tag):
                self.junk[tag] -= 1
                if not self.junk[tag]:
                    del self.junk[tag]
            return
        if self.junk:
            return
        for open_ in self.chrome:
            open_[1] -= tag == open_[0]
        while self.chrome and not self.chrome[-1][1]:
            self.end_chrome()
        if tag in _HEADINGS or tag in _BLOCKS:
            self.block()
        elif tag in ("ul", "ol", "menu"):
            if self.lists:
                self.lists.pop()
            if not self.lists:
                self.block()
        elif tag == "pre" and self.pre:
            self.pre -= 1
            self.emit(("" if self.tail else "\n") + "```\n\n")
        elif tag == "a":
            self.close_link()
        elif tag == "code" and not self.pre:
            self.emit("`")
        elif tag == "tr":
            self.end_row()
        elif tag in ("td", "th"):
            self.end_cell()
        elif tag == "table":
            self.end_row()
            self.block()

    def handle_data(self, data: str) -> None:
        if self.title is not None:
            self.title.append(data)
            return
        if self.junk:
            return
        if self.pre:
            self.emit(data)
            return
        if self.row is not None and not self.in_cell and not data.strip():
            return  # the space between cells
        if "  " in data or "\n" in data or "\t" in data or "\r" in data or "\f" in data:
            data = _WS.sub(" ", data)  # most text has single spaces only: no regex
        if self.tail or self.bare:
            data = data.lstrip()
        if data:
            self.out.append(data)
            self.tail, self.bare = 0, False

    # -- pieces --------------------------------------------------------------------------
    def url(self, href: str) -> str:
        """``href`` made absolute (once per distinct href: a join costs 25 us)."""
        known = self.urls.get(href)
        if known is None:
            try:
                known = urljoin(self.base, href.strip()) if self.base else href.strip()
            except ValueError:
                known = href
            self.urls[href] = known
        return known

    def li(self) -> None:
        if not self.lists:
            self.block()
            self.lists.append([False, 1])  # an <li> outside any list: a list of its own
        ordered, n = self.lists[-1]
        self.lists[-1][1] += 1
        indent = "  " * (min(len(self.lists), _MAX_INDENT) - 1) if len(self.lists) > 1 else ""
        self.emit(("" if self.tail else "\n") + indent + (f"{n}. " if ordered else "- "))
        self.bare = True  # the item's text starts its line (leading space dropped)

    def img(self, attrs: dict) -> None:
        cls = (attrs.get("class") or "").split()
        tex = math_image_tex({"alt": attrs.get("alt"), "class": cls})
        alt = " ".join((attrs.get("alt") or "").split())
        src = attrs.get("src") or ""
        if tex:
            self.emit(tex)
        elif src and not src.startswith("data:") and not self.pre:
            self.emit(f"![{alt}]({self.url(src)})")
        else:
            self.emit(alt)

    def close_link(self) -> None:
        if self.link is None:
            return
        start, href = self.link
        self.link = None
        text = " ".join("".join(self.out[start:]).split())
        if text:
            self.out[start:] = [f"[{text}]({href})"]
            self.link_chars += len(text)
            self.tail, self.bare = 0, False

    def end_chrome(self) -> None:
        """Drop the chrome that just closed (what chrome it held is gone already), unless it
        held the page's text."""
        _, _, start, links = self.chrome.pop()
        self.close_link()
        chars = sum(map(len, self.out[start:]))
        if chars >= _CONTENT_CHARS and (self.link_chars - links) < chars * _CONTENT_LINKS:
            return
        del self.out[start:]
        last = self.out[-1] if self.out else "\n\n"
        self.tail = 2 if last.endswith("\n\n") else 1 if last.endswith("\n") else 0
        self.bare = False

    def cell(self) -> None:
        if self.row is None:
            self.row = 0  # a cell without a <tr>: a row of its own
        self.end_cell()
        if self.row == 0:
            self.emit("| " if self.tail or self.bare else "\n| ")
        else:
            self.emit(" ")
        self.row += 1
        self.in_cell = True

    def end_cell(self) -> None:
        if self.in_cell:
            if self.out[-1].endswith(" "):
                self.out[-1] = self.out[-1].rstrip(" ")
            self.emit(" |")
            self.in_cell = False

    def end_row(self) -> None:
        self.end_cell()
        if self.row:
            self.emit("\n")
            if self.rows == 0:
                self.emit("|" + "---|" * self.row + "\n")
            self.rows += 1
        self.row = None


def _is_chrome(tag: str, attrs: list) -> bool:
    """Navigation, a footer, a sidebar: not the page's text (footnotes are)."""
    found = dict(attrs)
    names = f"{found.get('class') or ''} {found.get('id') or ''}"
    if NOTES.search(names):
        return False
    return tag in _CHROME_TAGS or found.get("role") in CHROME_ROLES or (
        bool(UNLIKELY.search(names)) and not MAYBE.search(names))


def convert(html: str, base: str = "", deadline: float | None = None, raw: bool = False
            ) -> tuple[str, str, bool]:
    """(title, markdown, cut) of ``html``, its chrome dropped unless ``raw``; ``cut`` when
    the clock passed ``deadline`` (``time.monotonic()`` seconds) before the end: the
    markdown is then what came before."""
    writer = _Writer(base, raw)
    cut = False
    for start in range(0, len(html), CHUNK):
        if deadline is not None and time.monotonic() > deadline:
            cut = True
            break
        writer.feed(html[start:start + CHUNK])
    if not cut:
        writer.close()
    writer.close_link()
    writer.end_row()
    if writer.pre:
        writer.emit("\n```\n")
    title = writer.titles[0] if writer.titles else ""
    return title, "".join(writer.out), cut
