"""End tags a browser's parser implies and html.parser does not: ``<td>a<td>b`` is two cells
to a browser (and to lxml), one cell inside another to html.parser; so are unclosed rows
and list items. A page of such tables read as one deep cell lost its story.

Each such element nested in an open one of its kind (no table, or list, between them)
moves to just after it, as the implied end tag would have put it. Paragraphs are left as
they are: closing them so too moved more pages away from lxml's reading than toward it
(bench/RESULTS-public-html.md, design k3)."""

from __future__ import annotations

from typing import Any

# element -> (the open elements it closes, the elements that bound the search)
_RULES = {
    "td": ({"td", "th"}, {"tr", "table", "tbody", "thead", "tfoot"}),
    "th": ({"td", "th"}, {"tr", "table", "tbody", "thead", "tfoot"}),
    "tr": ({"tr"}, {"table", "tbody", "thead", "tfoot"}),
    "li": ({"li"}, {"ul", "ol", "menu", "table"}),
}
_STEPS = 40  # ancestors looked at, at most: linear in the page whatever its depth


def close_implied(soup: Any) -> int:
    """Move the elements html.parser left inside an open one of their kind to after it
    (in place); returns how many moved. Linear: each goes once, deepest first, to after
    the outermost open one of a nested run (``<td>a<td>b<td>c``: three cells of one row)."""
    tops: dict[int, Any] = {}
    moves = []
    for el in soup.find_all(list(_RULES)):
        open_one = _open(el, *_RULES[el.name], tops)
        if open_one is not None:
            tops[id(el)] = top = tops.get(id(open_one), open_one)
            moves.append((el, top))
    for el, _ in reversed(moves):  # detached first, deepest first: each walk is short
        el.extract()
    for el, top in reversed(moves):
        top.insert_after(el)
    return len(moves)


def _open(el: Any, closes: set, bounds: set, tops: dict) -> Any:
    """The open element ``el`` closes: its nearest ancestor in ``closes``, none past one
    in ``bounds``; walked as the tree will be (an element that moves is after its top)."""
    anc = el.parent
    for _ in range(_STEPS):
        if anc is None or anc.name in bounds:
            return None
        if anc.name in closes:
            return anc
        anc = tops[id(anc)].parent if id(anc) in tops else anc.parent
    return None
