"""Boilerplate inside the chosen article: related-article lists, newsletter and sign-up
blocks, share and comment widgets, photo credits, "read more" teasers, bylines and the
heading that repeats the page's title (the byline and the title are the page's metadata,
not its body). Judged by class/id words, by a short block's own words, and by the heading
that announces such a section."""

from __future__ import annotations

import re
from typing import Any

from jqmagic.core.web.extract import link_density, text_of

# Whole words of a class or id ("share-bar", "related_posts", "newsletter"), never a part
# of one ("shared", "relatedness").
_NAMES = re.compile(
    r"(?:^|[-_\s])(share|sharing|sharebar|social|newsletter|signup|sign-up|subscribe|"
    r"subscription|related|recommended|recommendations|readmore|read-more|more-stories|"
    r"outbrain|taboola|comments?|disqus|promo|credit|credits|author-bio|"
    r"tags|tag-list|paywall|donate|inline-ad|ad-slot|advert|advertisement)"
    r"(?:[-_\s]|$)", re.I)
# A short block that is only a label, a credit or a call to action, in its first words...
_PHRASES = re.compile(
    r"^\W*(advertisement|advertising|anzeige|publicidad|publicité|sponsored( content)?|"
    r"related( articles?| stories| posts| content| coverage)?\s*:|read( also| next)?\s*:|"
    r"sign up|subscribe|follow us|share (this|on|via)|continue reading|"
    r"(photo|photograph|image|picture|foto|credit)s?\s*:|getty images$|lesen sie auch|"
    r"mehr zum thema|leia também|lire aussi|à lire aussi|ver también|te puede interesar|"
    r"相关(阅读|文章|新闻)|関連(記事|ニュース))", re.I)
# ...or a photo credit without a label ("Ann Lee/AFP via Getty Images").
_CREDIT = re.compile(r"^[\w .,'’-]{2,60}\s*/\s*([\w .-]{0,30}(getty images|afp|reuters|"
                     r"ap photo|associated press|epa|shutterstock|alamy|bloomberg))\W*$",
                     re.I)
# ...or a link that sends the reader elsewhere ("Read more about it here", "Learn more").
_LINK_PHRASES = re.compile(
    r"^\W*(read more|read next|more from|learn more|see more|click here|recommended|"
    r"you (may|might) (also )?like)", re.I)
# A heading that announces such a section: it goes with the links listed under it.
_SECTION = re.compile(
    r"^\W*(related( articles| stories| posts| content| coverage| links)?|more (from|on|"
    r"stories|news|articles|like this)|read (more|next|also)|recommended( for you)?|"
    r"you (may|might) (also )?like|most (popular|read|viewed)|trending( now)?|popular|"
    r"latest (news|stories)|top stories|newsletters?|sign up|subscribe|share( this)?|"
    r"comments?|leave a (comment|reply)|join the (conversation|discussion)|"
    r"what to read next|lesen sie auch|mehr zum thema|leia também|lire aussi|ver también|"
    r"相关(阅读|文章|新闻)|関連(記事|ニュース))\W*$", re.I)
# Who wrote it and when: metadata, when short (Readability's byline test, and microdata).
_META_NAMES = re.compile(r"(?:^|[-_\s])(byline|author|authors|dateline|writtenby|p-author|"
                         r"pubdate|published|timestamp|article-date|post-date|posted-on)"
                         r"(?:[-_\s]|$)", re.I)
# Links to the previous and next story (by name, and mostly links).
_PAGER = re.compile(r"(?:^|[-_\s])(prev|previous|next|post-nav|post-navigation|nav-links)"
                    r"(?:[-_\s]|$)", re.I)
_META_PROPS = {"author", "datePublished", "dateModified", "dateline"}
# A dateline by its numbers, in any language: a year and a clock time ("5 April 2013 Last
# updated at 08:09 GMT", "Published: 08.01.2008 14:21h"), in a few words, not a sentence.
_YEAR = re.compile(r"(?<!\d)(19|20)\d\d(?!\d)")
_CLOCK = re.compile(r"(?<!\d)\d{1,2}[:h]\d\d(?!\d)")
DATELINES = True
_KEEP = ("pre", "code", "table", "math")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_WORDS = re.compile(r"\W+")
_SHORT = 150


def drop_boilerplate(article: Any) -> int:
    """Remove boilerplate from ``article`` (in place); returns how many elements went.

    One pass in document order; an element's text is read only when its size (counted once
    for all, bottom up) is small enough for a rule to apply, and the drops are made at the
    end: linear in the article."""
    elements = list(article.find_all(True))
    ink = _ink(article, elements)
    total = ink[id(article)]
    if not total:
        return 0
    kept = _structure(article)
    cards = {id(el) for el in elements if id(el) not in kept and _card(el, ink[id(el)])}
    gone: dict[int, Any] = {}
    for el in elements:
        if id(el) in kept or id(el) in gone:
            continue
        if id(el.parent) in gone:
            gone[id(el)] = None  # inside a dropped element: not judged, not dropped twice
            continue
        n = ink[id(el)]
        heads = (id(el) in cards or _named(el, n, total) or _pager(el, n) or _teaser(el, n)
                 or _announces(el, n))
        if heads or _metadata(el, n):
            gone[id(el)] = el
            if heads and el.name in _HEADINGS:  # a byline in a heading heads no section
                gone.update((id(sib), sib) for sib in _section(el, kept))
    drops = [el for el in gone.values() if el is not None]
    for el in drops:
        el.decompose()
    return len(drops)


def _ink(article: Any, elements: list) -> dict[int, int]:
    """Each element's count of non-space characters, children before parents (a lower
    bound of its text's length, so a rule for short text reads no long one)."""
    ink: dict[int, int] = {}
    for el in reversed([article, *elements]):
        ink[id(el)] = sum(ink[id(c)] if getattr(c, "name", None) else
                          sum(map(len, c.split())) for c in el.children)
    return ink


def _structure(article: Any) -> set[int]:
    """Elements that hold or sit in code, a table or a formula: never boilerplate."""
    kept: set[int] = set()
    for k in article.find_all(_KEEP):
        if id(k) in kept:
            continue
        kept.add(id(k))
        kept.update(id(d) for d in k.find_all(True))
        for anc in k.parents:
            if id(anc) in kept or anc is article:
                break
            kept.add(id(anc))
    return kept


def _names(el: Any) -> str:
    cls = el.get("class") or []
    return (" ".join(cls) if isinstance(cls, list) else cls) + " " + (el.get("id") or "")


def _named(el: Any, ink: int, total: int) -> bool:
    """Named as boilerplate and small beside the article (a wrapper named "related" that
    holds most of the text is the article's own)."""
    return ink <= min(1500, 0.3 * total) and bool(_NAMES.search(_names(el)))


def _pager(el: Any, ink: int) -> bool:
    if ink >= 300 or not _PAGER.search(_names(el)):
        return False
    text = text_of(el)
    return len(text) < 300 and link_density(el, len(text)) > 0.5


def _card(el: Any, ink: int) -> bool:
    """A teaser card: a short block that is all link, holding a heading or an image, among
    siblings of its own kind (a list of other stories)."""
    if el.name not in ("li", "div", "article", "section") or not ink or ink > 200:
        return False
    text = text_of(el)
    media, linked = False, 0
    for d in el.descendants:  # one walk of a small element, not a search per question
        name = getattr(d, "name", None)
        if name in _HEADINGS or name == "img":
            media = True
        elif name == "a":
            linked += len(text_of(d))
    if not media or len(text) > 200 or linked < 0.9 * len(text):
        return False
    return any(sib is not None and sib.name == el.name and sib.get("class") == el.get("class")
               for sib in (_element(el, "previous_sibling"), _element(el, "next_sibling")))


def _element(el: Any, way: str) -> Any:
    """The nearest element sibling of ``el`` that way ("previous_sibling"/"next_sibling")."""
    node = getattr(el, way)
    while node is not None and getattr(node, "name", None) is None:
        node = getattr(node, way)
    return node


def _metadata(el: Any, ink: int) -> bool:
    """A short byline or date line (named so, rel=author, or microdata's author/date), or
    a dateline by its numbers."""
    if not 0 < ink < 100:
        return False
    if DATELINES and ink < 60 and is_dateline(text_of(el)):
        return True
    if not (_META_NAMES.search(_names(el)) or "author" in (el.get("rel") or [])
            or el.get("itemprop") in _META_PROPS):
        return False
    return 0 < len(text_of(el)) < 100 and el.find("p") is None


def is_dateline(text: str) -> bool:
    """A year and a clock time in a few words, not a sentence: a dateline, in any
    language."""
    year, clock = _YEAR.search(text), _CLOCK.search(text)
    return bool(year and clock and clock.start() != year.start()) and \
        len(text.split()) <= 12 and not re.search(r"\w\.$", text)


def _teaser(el: Any, ink: int) -> bool:
    """A short block (no block inside) that is only a label, a credit or a call to action."""
    if el.name not in ("p", "div", "span", "li", "figcaption", "small", "em", "strong",
                       "aside", "section", "h4", "h5", "h6", "a") or not 0 < ink <= _SHORT:
        return False
    text = text_of(el)
    if not text or len(text) > _SHORT:
        return False
    if not _PHRASES.search(text) and not _CREDIT.search(text) and not (
            _LINK_PHRASES.search(text) and link_density(el, len(text)) > 0.3):
        return False
    return el.name not in ("div", "section", "aside") or el.find(["p", "ul", "ol"]) is None


def _announces(el: Any, ink: int) -> bool:
    return el.name in _HEADINGS and ink < 200 and bool(_SECTION.search(text_of(el)))


def _section(heading: Any, kept: set[int]) -> list:
    """What follows a heading that announces related links or a widget: link lists and
    short link-heavy blocks, up to the next heading or the first real paragraph."""
    out = []
    for sib in heading.find_next_siblings():
        if sib.name in _HEADINGS or id(sib) in kept:
            break
        text = text_of(sib)
        linky = link_density(sib, len(text)) > 0.5 if text else True
        if not (linky or sib.name in ("form", "iframe") or
                (len(text) < _SHORT and sib.find("p") is None)):
            break
        out.append(sib)
    return out


def drop_title_heading(article: Any, title: str) -> bool:
    """Remove the first ``<h1>``/``<h2>`` that repeats the page's title (most of its words
    are the title's, Readability's test); True when one went."""
    for h in article.find_all(["h1", "h2"], limit=3):
        if _similar(title, text_of(h)) > 0.75:
            h.decompose()
            return True
    return False


def _similar(title: str, heading: str) -> float:
    """1 - the share of the heading's text (by words) that is not in the title."""
    a = set(_WORDS.split(title.lower()))
    b = [w for w in _WORDS.split(heading.lower()) if w]
    if not a - {""} or not b:
        return 0.0
    extra = " ".join(w for w in b if w not in a)
    return 1 - len(extra) / len(" ".join(b))
