"""Page widgets found by their structure, in any language, before the main content is
looked for: a sign-in or reply box (the small block around a password field or a text
area: "Only members can comment. Log in: [login] [password]"), and a run of link lines (a
list of other stories written as links between line breaks, in the same cell as the
article, where no block holds them apart)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from jqmagic.core.web.extract import decomposed, text_of

_BOX = 400  # characters: a box past this holds more than its form (a comment thread)
_TYPED = 200  # a text area with this much text in it shows content (a code sample)
_LINES = 3  # link lines in a run, at least
_OTHER = 200  # characters of other text in the same block, at least: the run is beside content
_HOLDERS = {"td", "div", "font", "center", "span", "p"}
_INLINE_STOP = {"br", "p", "div", "table", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5",
                "h6", "hr", "blockquote", "pre", "section", "article", "dl", "form", "tr",
                "td"}


def drop_widgets(body: Any) -> int:
    """Remove the page's sign-in and reply boxes and its runs of link lines (in place);
    returns how many went."""
    return _drop_boxes(body) + _drop_link_lines(body)


def _drop_boxes(body: Any) -> int:
    """The largest block around each password field or empty text area that is still small
    (under ``_BOX`` characters, and under an eighth of the page's text: a page that is
    its sign-in box keeps it)."""
    fields = [f for f in body.find_all(["input", "textarea"])
              if (f.name == "input" and (f.get("type") or "").lower() == "password")
              or (f.name == "textarea" and len(text_of(f)) < _TYPED)]
    total = len(text_of(body)) if fields else 0
    gone = 0
    for field in fields:
        if decomposed(field) or field.parent is None:
            continue
        box = None
        for anc in field.parents:
            if anc is body or anc.name in ("body", "html", "[document]"):
                break
            size = len(text_of(anc))
            if size >= _BOX or size >= total / 8:
                break
            box = anc
        if box is not None:
            box.decompose()
            gone += 1
    return gone


def _drop_link_lines(body: Any) -> int:
    """Runs of ``_LINES`` or more lines (between ``<br>`` or blocks) that are each one link
    and nothing else, written straight in a block whose other text is at least half as
    long (beside a story; a table of contents alone stays)."""
    gone = 0
    brs = body.find_all("br")
    breaks = Counter(id(br.parent) for br in brs)
    holders = {id(br.parent): br.parent for br in brs
               if br.parent is not None and br.parent.name in _HOLDERS}
    for key, holder in holders.items():
        if decomposed(holder) or breaks[key] < _LINES - 1:
            continue
        runs: list[list[list]] = [[]]
        for line in _lines(holder):
            if line is not None and _one_link(line):
                runs[-1].append(line)
            elif runs[-1]:
                runs.append([])
        runs = [r for r in runs if len(r) >= _LINES]
        if not runs:
            continue
        linked = sum(len(_text(n)) for r in runs for line in r for n in line)
        if len(text_of(holder)) - linked >= max(_OTHER, linked / 2):
            for r in runs:
                _drop_run(r)
            gone += len(runs)
    return gone


def _lines(holder: Any) -> list:
    """The holder's inline children cut into lines at ``<br>`` and at blocks (a block is
    None: no line; a line without text is left out)."""
    lines: list = []
    line: list = []
    for child in holder.children:
        name = getattr(child, "name", None)
        if name in _INLINE_STOP:
            lines.append(line)
            line = []
            if name != "br":
                lines.append(None)
            continue
        line.append(child)
    lines.append(line)
    return [ln for ln in lines if ln is None or "".join(_text(n) for n in ln).strip()]


def _text(node: Any) -> str:
    return node.get_text() if getattr(node, "name", None) else str(node)


def _one_link(line: list) -> bool:
    """An inline line whose text is all in one link to elsewhere."""
    if len(line) > 4:
        return False
    links = [a for n in line if getattr(n, "name", None)
             for a in ([n] if n.name == "a" else n.find_all("a"))]
    if len(links) != 1 or (links[0].get("href") or "#").startswith(("#", "javascript:")):
        return False
    text = " ".join("".join(_text(n) for n in line).split())
    return bool(text) and len(text_of(links[0])) >= 0.8 * len(text)


def _drop_run(run: list[list]) -> None:
    for line in run:
        for node in line:
            if getattr(node, "name", None):
                node.decompose()
            else:
                node.extract()
