"""Find the main readable content of an HTML page (a Readability-style scorer on bs4).

The idea follows Mozilla Readability / arc90: score text blocks by their length and
commas, give the score to their ancestors, penalise link-heavy and chrome-named
elements, keep the best-scoring container plus related siblings, then prune chrome
inside it. Pure bs4, so it needs no extra dependency.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from bs4 import Comment

from jqmagic.core.web.paragraphs import has_ancestor, replace_brs
from jqmagic.core.web.siblings import inner_items, item_of, lead_of, prose, table_run
from jqmagic.core.web.tables import is_data_table, names_a_row
from jqmagic.core.web.text import (
    decomposed,
    element_children,
    is_link,
    is_sentence,
    link_density,
    text_length,
    text_of,
)

# Names (class + id) of elements that are page chrome rather than content.
UNLIKELY = re.compile(
    r"-ad-|ai2html|banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|"
    r"foot(?!note)|gdpr|cookie|consent|header|legends|menu|related|remark|replies|rss|"
    r"shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|"
    r"pagination|pager|popup|yom-remote|newsletter|subscribe",
    re.I,
)
MAYBE = re.compile(r"and|article|body|column|content|main|mathjax|shadow", re.I)
_POSITIVE = re.compile(
    r"article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story",
    re.I,
)
_NEGATIVE = re.compile(
    r"-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot(?!note)|gdpr|"
    r"masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|"
    r"skyscraper|sponsor|shopping|tags|widget|cookie|consent",
    re.I,
)
_SHARE = re.compile(r"(\b|_)(share|sharedaddy)(\b|_)", re.I)
_UNLIKELY_ROLES = {
    "menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog",
}
_CHROME_TAGS = ("nav", "aside", "footer")
# Footnotes are content, in an <aside> or not (Sphinx, docutils, DPub ARIA roles).
NOTES = re.compile(r"footnote|endnote", re.I)
_NOTE_ROLES = {"note", "doc-footnote", "doc-endnotes", "doc-endnote"}
CHROME_ROLES = {"navigation", "banner", "contentinfo", "complementary", "menu", "menubar"}
_BLOCKS = {"blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul", "section",
           "article", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "header", "footer",
           "aside", "nav", "form", "hr", "main", "details", "video", "iframe", "li"}
_DIV_TO_P = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
_SCORE_TAGS = {"section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"}
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_TAG_BONUS = {"div": 5, "pre": 3, "td": 3, "blockquote": 3, "th": -5, **dict.fromkeys(
    ("address", "ol", "ul", "dl", "dd", "dt", "li", "form"), -3), **dict.fromkeys(_HEADINGS, -5)}
_MIN_CHARS = 500
# Unlinked characters per image past which a block of images (not a list: a list of them is
# teasers) is prose with photos, a listing or a product written with <br>s, not a gallery.
_PER_IMAGE = 80
CLIMB_LINKS = 0.25  # share of link text in what a parent adds past which it is not climbed to
# Commas of every script (Readability's set: Latin, Arabic, CJK full-width and ideographic).
_COMMAS = re.compile("[,\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c\u3001]")


def _names(el: Any) -> str:
    cls = el.get("class") or []
    if isinstance(cls, str):
        cls = [cls]
    return " ".join(cls) + " " + (el.get("id") or "")


def _weight(el: Any) -> int:
    w = 0
    cls = el.get("class") or []
    cls = " ".join(cls) if isinstance(cls, list) else cls
    for name in (cls, el.get("id") or ""):
        if name:
            if _NEGATIVE.search(name):
                w -= 25
            if _POSITIVE.search(name):
                w += 25
    return w


def _blank(el: Any) -> bool:
    """No text at all (``not text_of(el)``, read up to the first string that has some)."""
    return not any(s.strip() for s in el.strings)


def _section_heading(el: Any, names: str) -> bool:
    """A heading that heads a section (an anchor itself, or a <section>'s first child),
    whose class says "header" (rustdoc's small-section-header): a heading, not a page
    header."""
    if el.name not in _HEADINGS or UNLIKELY.search(names.replace("header", "")):
        return False
    parent = el.parent
    return el.has_attr("id") or (parent is not None and parent.name == "section" and
                                 element_children(parent)[0] is el)


def _is_notes(el: Any) -> bool:
    """Footnotes or endnotes (by role or class): content, even in an ``<aside>``."""
    return el.get("role") in _NOTE_ROLES or bool(NOTES.search(_names(el)))


def is_hidden(el: Any) -> bool:
    if el.attrs is None:
        return False
    style = (el.get("style") or "").replace(" ", "").lower()
    if "display:none" in style or "visibility:hidden" in style:
        return True
    if el.has_attr("hidden"):
        return True
    # aria-hidden marks icons and decorations; fallback images are kept by their class.
    return el.get("aria-hidden") == "true" and "fallback-image" not in _names(el)


def _has_block_child(el: Any) -> bool:
    return el.find(_DIV_TO_P) is not None


def _wrap_inline_runs(div: Any, soup: Any) -> None:
    """Put runs of text/inline children of a block ``div`` into ``<p>`` (so they score)."""
    run: list = []

    def flush() -> None:
        if run and "".join(
            n.get_text() if hasattr(n, "get_text") else str(n) for n in run
        ).strip():
            p = soup.new_tag("p")
            run[0].insert_before(p)
            for n in run:
                p.append(n.extract())
        run.clear()

    for child in list(div.children):
        if isinstance(child, Comment):
            continue
        if getattr(child, "name", None) in _BLOCKS:
            flush()
        else:
            run.append(child)
    flush()


class _Scorer:
    def __init__(self, soup: Any, strip_unlikely: bool, weigh: bool, clean: bool):
        self.soup = soup
        self.strip_unlikely = strip_unlikely
        self.weigh = weigh
        self.clean = clean
        self.scores: dict[int, float] = {}
        self.nodes: dict[int, Any] = {}
        self.stripped = 0  # elements dropped as unlikely content
        self.run: set[int] = set()  # a run of like tables the story is laid out in

    # -- scoring -----------------------------------------------------------------
    def _init(self, el: Any) -> None:
        self.scores[id(el)] = _TAG_BONUS.get(el.name, 0) + (_weight(el) if self.weigh else 0)
        self.nodes[id(el)] = el

    def _collect(self, body: Any) -> list:
        to_score = []
        for el in list(body.find_all(True)):
            if decomposed(el) or el.parent is None:
                continue
            if is_hidden(el):
                el.decompose()
                continue
            if self.strip_unlikely:
                names = _names(el)
                if (
                    UNLIKELY.search(names)
                    and not MAYBE.search(names)
                    and el.name not in ("body", "a", "html", "main", "article")
                    and not _section_heading(el, names)
                    and not has_ancestor(el, {"table", "code", "pre"}, 3)
                ) or (el.get("role") in _UNLIKELY_ROLES):
                    el.decompose()
                    self.stripped += 1
                    continue
            if el.name in _SCORE_TAGS:
                to_score.append(el)
            elif el.name == "div":
                if not _has_block_child(el):
                    to_score.append(el)
                else:
                    _wrap_inline_runs(el, self.soup)
                    to_score.extend(el.find_all("p", recursive=False))
        return to_score

    def grab(self, body: Any) -> Any | None:
        seen: set[int] = set()
        chars: dict[int, int] = {}  # each scored element's text length, read once
        for el in self._collect(body):
            if id(el) in seen or decomposed(el) or el.parent is None:
                continue
            seen.add(id(el))
            text = text_of(el)
            chars[id(el)] = len(text)
            length = text_length(text)
            if length < 25:
                continue
            score = 2 + len(_COMMAS.findall(text)) + min(length // 100, 3)
            for level, anc in enumerate(list(el.parents)[:5]):
                if anc.name in (None, "[document]", "html"):
                    break
                if id(anc) not in self.scores:
                    self._init(anc)
                divider = 1 if level == 0 else 2 if level == 1 else level * 3
                self.scores[id(anc)] += score / divider
        if not self.scores:
            return None
        ranked = []
        for key, el in self.nodes.items():
            self.scores[key] *= 1 - link_density(el, chars.get(key))
            ranked.append((self.scores[key], el))
        ranked.sort(key=lambda p: -p[0])
        top_score, top = ranked[0]
        if top.name == "body":
            return top
        top = self._climb(top, top_score, ranked[1:5])
        return self._siblings(top)

    def _score(self, el: Any) -> float | None:
        return self.scores.get(id(el))

    def _climb(self, top: Any, top_score: float, others: list) -> Any:
        alts = [el for s, el in others if top_score and s / top_score >= 0.75]
        if len(alts) >= 3:
            parent = top.parent
            while parent is not None and parent.name not in ("body", "[document]"):
                if sum(1 for a in alts if parent in a.parents) >= 3:
                    top = parent
                    break
                parent = parent.parent
        if id(top) not in self.scores:
            self._init(top)
        parent, last = top.parent, self.scores[id(top)]
        threshold = last / 3
        while parent is not None and parent.name not in ("body", "[document]"):
            ps = self._score(parent)
            if ps is None:
                parent = parent.parent
                continue
            if ps < threshold:
                break
            if ps > last:
                top = top if _adds_links(parent, top) else parent
                break
            last, parent = ps, parent.parent
        parent = top.parent
        while (
            parent is not None
            and parent.name not in ("body", "[document]")
            and len(element_children(parent)) == 1
        ):
            top, parent = parent, parent.parent
        return top

    def _siblings(self, top: Any) -> Any:
        parent = top.parent
        if parent is None or parent.name in ("[document]", "html"):
            return top
        top_score = self.scores.get(id(top), 0.0)
        threshold = max(10.0, top_score * 0.2)
        top_cls = top.get("class")
        article = self.soup.new_tag("div")
        lead = lead_of(top)
        item = item_of(top)
        inner = inner_items(item)
        links = max(CLIMB_LINKS, 3 * link_density(top))
        run = table_run(top, links)
        if run is not None:
            self.run = {id(el) for el in run}
            for el in run:
                article.append(el.extract())
            return article

        def joins(sib: Any) -> bool:
            bonus = top_score * 0.2 if top_cls and sib.get("class") == top_cls else 0
            s = self._score(sib)
            if s is not None and s + bonus >= threshold:
                return link_density(sib) <= links
            if sib.name == "p" or (sib.name == "div" and not _has_block_child(sib)) or \
                    id(sib) in inner:
                return prose(sib)
            return False

        for sib in element_children(parent):
            if sib is top or sib is lead or joins(sib):
                article.append(sib.extract())
        if lead is not None and lead.parent is not article:
            article.insert(0, lead.extract())
        if item is not None and item is not top:
            rows = element_children(item.parent)
            at = rows.index(item)
            for sib in reversed(rows[:at]):
                if sib.name == item.name and joins(sib):
                    article.insert(0, sib.extract())
            for sib in rows[at + 1:]:
                if sib.name == item.name and joins(sib):
                    article.append(sib.extract())
        return article

    # -- cleaning ------------------------------------------------------------------
    def prepare(self, article: Any) -> None:
        """Prune chrome inside the chosen content."""
        total = len(text_of(article))
        for el in article.find_all([*_CHROME_TAGS, "form", "button", "input", "select",
                                    "textarea", "object", "embed", "iframe", "link",
                                    "fieldset"]):
            if not decomposed(el) and not el.find(["pre", "code"]) and not _is_notes(el) \
                    and not _wraps(el, total):
                el.decompose()
        for el in article.find_all(True):
            if decomposed(el):
                continue
            if el.get("role") in CHROME_ROLES or (
                _SHARE.search(_names(el)) and len(text_of(el)) < 500
                and not el.find(["pre", "code", "table"])
            ):
                el.decompose()
        for el in article.find_all(["h1", "h2"]):
            if not decomposed(el) and self.weigh and _weight(el) < 0:
                el.decompose()
        if self.clean:
            for tag in ("table", "ul", "div", "section"):
                for el in reversed(article.find_all(tag)):
                    if not decomposed(el) and self._drop_conditionally(el):
                        el.decompose()
        for p in article.find_all("p"):
            if not decomposed(p) and _blank(p) and not p.find(
                ["img", "embed", "object", "iframe", "video", "picture"]
            ):
                p.decompose()

    def _drop_conditionally(self, el: Any) -> bool:
        if el.name == "table" and is_data_table(el) or id(el) in self.run:
            return False
        if el.find(["pre", "code"]) or has_ancestor(el, {"pre", "code"}) or any(
                is_data_table(t) for t in el.find_all("table")):
            return False
        if has_ancestor(el, {"table"}) and any(
            is_data_table(t) for t in el.find_parents("table")
        ) or names_a_row(el):
            return False
        weight = _weight(el) if self.weigh else 0
        score = self.scores.get(id(el), 0.0)
        text = text_of(el)
        if weight + score < 0 and not self._prose_list(el, weight, text):
            return True
        if len(_COMMAS.findall(text)) >= 10:
            return False
        ld = link_density(el, len(text))
        is_list = el.name in ("ul", "ol") or _mostly_lists(el, len(text), ld)
        p = len(el.find_all("p"))
        img = len(el.find_all("img"))
        li = len(el.find_all("li")) - 100
        inputs = len(el.find_all("input"))
        heads = el.find_all(_HEADINGS)
        embeds = len(el.find_all(["embed", "object", "iframe", "video"]))
        in_figure = has_ancestor(el, {"figure"})
        if heads and len(text) and sum(len(text_of(h)) for h in heads) / len(text) > 0.9:
            return False
        return bool(
            (img > 1 and p / img < 0.5 and not in_figure and
             (is_list or len(text) * (1 - ld) < _PER_IMAGE * img))
            or (not is_list and li > p)
            or (inputs > p // 3 and inputs > 0)
            or (not is_list and len(text) < 25 and (img == 0 or img > 2) and not in_figure
                and not (ld == 0 and is_sentence(text)))
            or (not is_list and weight < 25 and ld > 0.2)
            or (weight >= 25 and ld > 0.5)
            or (embeds == 1 and len(text) < 75)
            or embeds > 1
        )

    @staticmethod
    def _prose_list(el: Any, weight: int, text: str) -> bool:
        """A list of sentences (long, few links, no negative class): content, whatever
        score its list items' scoring left it (a post's "Highlights" bullets); menus and
        link lists are link-dense, and stay judged by their score."""
        return el.name in ("ul", "ol") and weight >= 0 and len(text) > 80 and \
            link_density(el, len(text)) < 0.25


def _adds_links(parent: Any, top: Any) -> bool:
    """What ``parent`` adds to ``top`` (a tenth of it or more) is mostly links, three times
    as linked as ``top``: other stories, not more of the article. Not climbed to."""
    size = len(text_of(top))
    extra = len(text_of(parent)) - size
    own, linked = (sum(len(text_of(a)) for a in el.find_all(is_link)) for el in (top, parent))
    return extra > size / 10 and (linked - own) / extra > max(CLIMB_LINKS, 3 * own / (size or 1))


def _wraps(el: Any, total: int) -> bool:
    """Holds most of the article's text: a wrapper (a page-wide ASP.NET ``<form>``, a
    ``<footer>`` around the story), not the chrome its tag names."""
    controls = sum(len(text_of(c)) for c in el.find_all(["select", "textarea", "button"]))
    return len(text_of(el)) - controls > total / 2


def _mostly_lists(el: Any, text_len: int, density: float) -> bool:
    """More than 90% of the element's text sits in lists (a wrapper of a reference list):
    judged as a list, as Readability does; unless its text is mostly links (a "Related"
    box of headlines is navigation)."""
    if not text_len or density > 0.5:
        return False
    lists = sum(len(text_of(lst)) for lst in el.find_all(["ul", "ol"]))
    return lists / text_len > 0.9


def main_content(soup: Any, check: Callable[[], None] | None = None) -> Any | None:
    """The element holding the page's main content, detached from ``soup``'s copy.

    Tries strict settings first and relaxes them (keep unlikely-named elements, ignore
    class weights, skip conditional cleaning) while less than ~500 characters are found,
    like Readability; ``check()`` (a deadline's) runs before each try. Returns None for a
    page without a body.
    """
    body = soup.body or soup
    if body is None:
        return None
    replace_brs(body, soup)
    best, best_len = None, -1
    for flags in ((True, True, True), (False, True, True), (False, False, True),
                  (False, False, False)):
        if check is not None:
            check()
        work = copy.copy(body)
        scorer = _Scorer(soup, *flags)
        article = scorer.grab(work)
        if article is None:
            if not scorer.stripped:
                break  # nothing scored, nothing held back: no later try scores more
            continue
        scorer.prepare(article)
        length = len(text_of(article))
        if length >= _MIN_CHARS:
            return article
        if length > best_len:
            best, best_len = article, length
    return best
