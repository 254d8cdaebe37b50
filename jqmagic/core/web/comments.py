"""Reader comments: a field of the page (as its byline and date are), not its body.

Found as trafilatura finds them, by the names of the blocks that hold them (a class or id
word ``comment``/``comments``/``commentlist``, Disqus's thread), outermost first; a block
mostly of links is no thread (a sidebar's "recent comments" list, a "3 comments" link).
They are taken out of the page before its main content is looked for, unless they are
all of it (a forum's posts, a guestbook: then they are the page, and stay)."""

from __future__ import annotations

import re
from typing import Any

from jqmagic.core.web.text import link_density, text_length, text_of

# A whole word of a class or id ("comment-body", "post-comments", "commentlist"), never a
# part of one ("commentary": an opinion column).
_NAMES = re.compile(r"(?:^|[-_\s])(comments?|commentlist|disqus)"
                    r"(?:[-_\s]|$)", re.I)
_BLOCKS = ("div", "section", "ol", "ul", "dl", "aside", "article", "footer")
_MIN = 40  # characters: a thread holds at least a sentence
_REST = 500  # unlinked characters the page keeps beside its comments for them to go


def take_comments(body: Any) -> list:
    """Detach ``body``'s reader-comment blocks (document order) and return them; none when
    they are the page (under ``_REST`` characters left beside them outside links: an
    issue tracker's first post is named as its replies are, amid menus)."""
    found = [el for el in _outermost(body) if _thread(el)]
    if not found or _unlinked(body) - sum(map(_unlinked, found)) < _REST:
        return []
    return [el.extract() for el in found]


def _unlinked(el: Any) -> float:
    """The length of ``el``'s text outside its links (a page's menus are not its story)."""
    text = text_of(el)
    return text_length(text) * (1 - link_density(el, len(text)))


def _outermost(body: Any) -> list:
    """Comment-named blocks not inside another."""
    out: list = []
    seen: set[int] = set()
    for el in body.find_all(_BLOCKS):
        names = " ".join(el.get("class") or []) + " " + (el.get("id") or "")
        if _NAMES.search(names) and not any(id(p) in seen for p in el.parents):
            out.append(el)
            seen.add(id(el))
    return out


def _thread(el: Any) -> bool:
    text = text_of(el)
    return len(text) >= _MIN and link_density(el, len(text)) <= 0.5
