"""Tables and rows that are content however they look: a table of data (not of layout),
an index's rows (a short name beside its description)."""

from __future__ import annotations

from typing import Any

from jqmagic.core.web.text import element_children, link_density, text_of


def is_data_table(table: Any) -> bool:
    """A table of data (a caption, header cells, or ten rows or five columns), not of
    layout; a role or ``datatable="0"`` says otherwise."""
    if table.get("role") == "presentation":
        return False
    if table.get("datatable") == "0":
        return False
    if table.get("summary") or table.find("caption"):
        return True
    if table.find(["col", "colgroup", "tfoot", "thead", "th"]):
        return True
    if table.find("table"):
        return False
    rows = table.find_all("tr")
    cols = max((len(r.find_all(["td", "th"], recursive=False)) for r in rows), default=0)
    return len(rows) >= 10 or cols > 4 or len(rows) * cols > 10


def names_a_row(el: Any) -> bool:
    """A short name beside its description (a row of an API index: rustdoc's item-left and
    item-right), such a row, or a table of them: content, however short or link-dense."""
    kids = element_children(el)
    return _is_label(el) or _is_row(el, kids) or (
        len(kids) >= 2 and all(_is_row(k, element_children(k)) for k in kids))


def _is_label(el: Any) -> bool:
    text = text_of(el)
    after = el.find_next_sibling()
    if not text or len(text) > 80 or after is None or el.find_previous_sibling() is not None:
        return False
    desc = text_of(after)
    return len(desc) > len(text) and link_density(after, len(desc)) < 0.5 and \
        len(element_children(el.parent)) == 2


def _is_row(el: Any, kids: list) -> bool:
    """Two children, a label and its description, among siblings of its own class."""
    return len(kids) == 2 and bool(el.get("class")) and _is_label(kids[0]) and any(
        sib.get("class") == el.get("class")
        for sib in [*el.find_previous_siblings(limit=1), *el.find_next_siblings(limit=1)])
