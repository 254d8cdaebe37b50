"""The page's text by structure alone: a second reading of the main content, to check the
scorer's choice against (extract.py picks one container; a page whose content is spread over
a layout table's cells, or a list of posts, loses most of it there).

The body without its chrome (navigation, header, footer, aside, forms, hidden elements,
ARIA chrome roles) and without link-dense blocks, judged bottom up as trafilatura's
``link_density_test`` judges them: a short block mostly of links, or a block of many links
whose text is mostly link text. No word lists: structure and link text only."""

from __future__ import annotations

import copy
from typing import Any

from jqmagic.core.web.boiler import drop_boilerplate
from jqmagic.core.web.extract import (
    CHROME_ROLES,
    decomposed,
    is_hidden,
    names_a_row,
    text_length,
    text_of,
)

_CHROME = ("nav", "aside", "footer", "header", "form", "button", "select", "textarea",
           "input", "iframe", "object", "embed", "menu")
# Judged as blocks, bottom up (an inline span never: a reference's citation is one link).
_BLOCKS = ("div", "td", "ul", "ol", "li", "table", "section", "p", "dl", "tr", "font",
           "center")
_UNLINKED = 300  # a block with this much text outside its links is never a link farm
_KEEP = ("pre", "code", "math")
_OWN = ("ul", "ol", "li", "dl")  # lists between runs of prose: the article's own
_PROSE = 100  # characters of unlinked text in one run: prose, not a label
# Found content this short (characters, a CJK one counting three: about 60 words), and
# this small beside the structure's.
_SHORT, _RATIO = 400, 0.3
_LINK_PAGE = 2  # link blocks this many times the text left: the page is its links


def structural_text(body: Any) -> Any:
    """A copy of ``body`` with hidden elements, chrome and link-dense blocks removed."""
    work = copy.copy(body)
    total = len(text_of(work)) or 1
    for el in work.find_all(True):
        if decomposed(el) or el.parent is None:
            continue
        if is_hidden(el):
            el.decompose()
            continue
        if (el.name in _CHROME or el.get("role") in CHROME_ROLES) and \
                not el.find(_KEEP) and len(text_of(el)) < total / 2:
            el.decompose()
    drop_link_blocks(work)
    return work


def settle(found: Any, body: Any) -> Any:
    """The scorer's content ``found`` without its link-dense blocks and boilerplate; then:

    - when that leaves it short (under ``_SHORT``, about 60 words), the page's structural
      text, its boilerplate dropped, when that is over 1/``_RATIO`` times as long (a page
      of link tables, a story the scorer missed);
    - else, when link blocks were most of ``found`` (over ``_LINK_PAGE`` times what is
      left), ``found`` with them put back: the page is its links (a table of contents, a
      directory of links), nothing else is there.

    The structural reading is made only for a short ``found``."""
    before = text_length(text_of(found))
    removed: list = []
    drop_link_blocks(found, removed)
    drop_boilerplate(found)
    size = text_length(text_of(found))
    if size < _SHORT:
        wider = structural_text(body)
        drop_boilerplate(wider)
        if size < _RATIO * text_length(text_of(wider)):
            return wider
    if before - size > _LINK_PAGE * max(size, 1):
        _put_back(removed)
    return found


def _put_back(removed: list) -> None:
    """Undo ``drop_link_blocks``' removals, last first, each before the sibling it had."""
    for el, parent, after in reversed(removed):
        if decomposed(parent):
            continue
        if after is not None and after.parent is parent:
            after.insert_before(el)
        else:
            parent.append(el)


def drop_link_blocks(article: Any, removed: list | None = None) -> int:
    """Remove the link-dense blocks of the chosen content (bottom up, code and formulas
    kept); returns how many went, and lists in ``removed`` what went where (element,
    parent, next sibling), to put them back. A list of links is judged only past the
    content's last run of prose: one between paragraphs is the article's own (a
    changelog's linked items), one after them the related links a page appends."""
    order: dict[int, int] = {}
    last_prose = -1
    for i, node in enumerate(article.descendants):
        if getattr(node, "name", None):
            order[id(node)] = i
        elif len(node.strip()) >= _PROSE and node.find_parent("a") is None:
            last_prose = i
    gone = 0
    for el in reversed(article.find_all(_BLOCKS)):
        if el.name in _OWN and order.get(id(el), 0) < last_prose:
            continue
        if not decomposed(el) and el.parent is not None and _link_dense(el):
            if removed is None:
                el.decompose()
            else:
                removed.append((el, el.parent, el.next_sibling))
                el.extract()
            gone += 1
    return gone


def _link_dense(el: Any) -> bool:
    if names_a_row(el):
        return False  # an index's rows (a name beside its description): content
    links = [a for a in el.find_all("a")  # to elsewhere: not a heading's own anchor
             if (a.get("href") or "#").lstrip()[:1] not in ("#", "") and
             not a.get("href", "").startswith("javascript:")]
    if not links or el.find(_KEEP):
        return False
    text = text_of(el)
    if not text:
        return True
    link_texts = [t for t in (text_of(a) for a in links) if t]
    linked = sum(map(len, link_texts))
    if len(text) < (60 if el.name == "p" else 200):
        short = sum(1 for t in link_texts if len(t) < 10)
        # short links (a "Home | News | About" bar), when they are most of the text: a
        # sentence with two short links in it stays
        return linked > 0.8 * len(text) or (len(link_texts) > 1 and linked > 0.5 * len(text)
                                            and short / len(link_texts) > 0.8)
    return len(link_texts) > 4 and linked > 0.5 * len(text) and \
        len(text) - linked < _UNLINKED and linked < 100 * len(link_texts)
