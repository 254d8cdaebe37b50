"""What joins the block the scorer found (Readability's sibling step): a paragraph of prose
beside it, the standfirst right before it, and, when it is a table row or a list item (or
fills one), the rows or items between the first and the last: a story laid out in a table
or a list goes on in them; in a run of like tables, the run."""

from __future__ import annotations

from typing import Any

from jqmagic.core.web.text import element_children, is_sentence, link_density, text_length, text_of

_ITEMS = ("tr", "li")  # rows and items: the units a story is laid out in, one after another


def prose(el: Any) -> bool:
    """Readability's test of a sibling paragraph: over 80 characters and few links, or a
    short unlinked sentence."""
    text = text_of(el)
    ld = link_density(el, len(text))
    return (text_length(text) > 80 and ld < 0.25) or (
        0 < len(text) <= 80 and ld == 0 and is_sentence(text))


def item_of(top: Any) -> Any | None:
    """The table row or list item ``top`` is, or fills (nine tenths of its text, through
    cells): the story may go on in the rows or items after it, which are judged as
    Readability judges a sibling paragraph. Columns (cells) are not: beside a story sit
    sidebars."""
    el, size = top, len(text_of(top))
    while el.name not in _ITEMS:
        parent = el.parent
        if parent is None or parent.name not in (*_ITEMS, "td", "th") or \
                size < 0.9 * len(text_of(parent)):
            return None
        el = parent
    return el


def inner_items(item: Any | None) -> set[int]:
    """The ids of the rows (items) beside ``item`` but for the first and the last with text:
    those are where a layout table puts its page's header and footer."""
    if item is None:
        return set()
    rows = [r for r in element_children(item.parent) if r.name == item.name and text_of(r)]
    return {id(r) for r in rows[1:-1]}


def lead_of(top: Any) -> Any | None:
    """The block right before the article (before the outermost element it opens) when
    that block is mostly one paragraph of prose: a standfirst, a video's caption."""
    el = top
    while el.parent is not None and el.parent.name not in ("body", "[document]") and \
            element_children(el.parent)[0] is el:
        el = el.parent
    before = el.find_previous_sibling()
    return before if before is not None and before.name in ("div", "p") and \
        _one_paragraph(before) else None


def _one_paragraph(el: Any) -> bool:
    """Text that is mostly (over half) one paragraph of prose, not linked."""
    text = text_of(el)
    paras = [el] if el.name == "p" else el.find_all("p")
    para = max((text_of(p) for p in paras), key=len, default="")
    return text_length(para) > 80 and len(para) > len(text) / 2 and \
        link_density(el, len(text)) < 0.25 and is_sentence(para)


def table_run(top: Any, links: float) -> list | None:
    """A story laid out in a run of like tables: the table that is or holds ``top``, with
    the tables of its tag and attributes right before and after it (elements without text
    between), each with text and its links under ``links``; the run when it has three or
    more, else None."""
    table = top if top.name == "table" else top.find_parent("table")
    if table is None or table.parent is None:
        return None
    sign = (table.name, sorted((k, str(v)) for k, v in table.attrs.items()))
    children = element_children(table.parent)
    at = children.index(table)

    def like(el: Any) -> bool | None:  # True: joins; None: passed over; False: ends the run
        if not text_of(el):
            return None
        if (el.name, sorted((k, str(v)) for k, v in el.attrs.items())) != sign:
            return False
        return link_density(el) <= links

    run = [table]
    for side in (reversed(children[:at]), children[at + 1:]):
        for el in side:
            verdict = like(el)
            if verdict is False:
                break
            if verdict:
                run.append(el)
    return sorted(run, key=children.index) if len(run) >= 3 else None
