"""Who wrote a page and when: its byline and publication date, read from the page's own
metadata (JSON-LD, ``<meta>`` tags, microdata) and, failing those, from a short byline or
``<time>`` element. The body leaves them out (boiler.py drops short bylines and date lines),
so the fetched page returns them as fields."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bs4 import NavigableString

from jqmagic.core.web.boiler import is_dateline

# <meta name|property=...> that name the author, then those that date the page (first wins).
_AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator", "parsely-author",
                "sailthru.author", "byl")
_DATE_META = ("article:published_time", "datepublished", "dc.date.issued", "dcterms.created",
              "dc.date", "dcterms.date", "parsely-pub-date", "sailthru.date", "pubdate",
              "publish-date", "date", "og:published_time", "article:modified_time")
_BYLINE_NAMES = re.compile(r"(?:^|[-_\s])(byline|author|authors|writtenby|p-author|"
                           r"author-name|by-author)(?:[-_\s]|$)", re.I)
_BY = re.compile(r"^\s*(by|von|par|por|di|door)\s+", re.I)
_MAX_BYLINE = 100
_YEAR = re.compile(r"(?<!\d)(19|20)\d\d(?!\d)")
_DATELINE = 60  # non-space characters, at most, as boiler.py's
_JSON_LD_TYPES = re.compile(r"Article|BlogPosting|Report|WebPage|NewsArticle|Posting", re.I)


@dataclass(frozen=True)
class PageMeta:
    """A page's byline and publication date ("" when the page does not say)."""

    byline: str = ""
    published: str = ""


def page_meta(soup: Any) -> PageMeta:
    """Byline and date of a parsed page; read before scripts and ``<meta>`` are dropped."""
    ld_author, ld_date = _json_ld(soup)
    byline = ld_author or _meta(soup, _AUTHOR_META, person=True) or _byline_element(soup)
    date = ld_date or _meta(soup, _DATE_META) or _time_element(soup) or _dateline(soup)
    return PageMeta(byline=_squash(byline)[:_MAX_BYLINE * 2], published=_squash(date))


def _squash(text: str) -> str:
    return " ".join((text or "").split())


def _meta(soup: Any, names: tuple[str, ...], person: bool = False) -> str:
    found: dict[str, str] = {}
    for tag in soup.find_all("meta"):
        key = (tag.get("name") or tag.get("property") or tag.get("itemprop") or "").lower()
        value = _squash(tag.get("content") or "")
        if key in names and value and key not in found:
            if person and (value.startswith(("http://", "https://", "@")) or len(value) > 100):
                continue  # a profile's URL (Facebook's article:author), a handle: not a name
            found[key] = value
    return next((found[n] for n in names if n in found), "")


def _json_ld(soup: Any) -> tuple[str, str]:
    """(author names, datePublished) of the page's JSON-LD article, if any."""
    for script in soup.find_all("script", type="application/ld+json"):
        try:
            data = json.loads(script.string or "")
        except (ValueError, TypeError):
            continue
        for item in _items(data):
            kind = item.get("@type")
            kind = " ".join(kind) if isinstance(kind, list) else str(kind or "")
            if not _JSON_LD_TYPES.search(kind):
                continue
            authors = _names(item.get("author") or item.get("creator"))
            date = item.get("datePublished") or item.get("dateCreated") or ""
            if authors or date:
                return ", ".join(authors), str(date) if isinstance(date, str) else ""
    return "", ""


def _items(data: Any) -> list[dict]:
    """The objects of a JSON-LD document: itself, a list's members, a @graph's members."""
    if isinstance(data, list):
        return [i for d in data for i in _items(d)]
    if not isinstance(data, dict):
        return []
    return [data, *_items(data.get("@graph"))] if "@graph" in data else [data]


def _names(author: Any) -> list[str]:
    if isinstance(author, str):
        return [author.strip()] if author.strip() and not author.startswith("http") else []
    if isinstance(author, dict):
        name = author.get("name")
        return [_squash(name)] if isinstance(name, str) and name.strip() else []
    if isinstance(author, list):
        return [n for a in author for n in _names(a)]
    return []


def _byline_element(soup: Any) -> str:
    """The first short element marked as the author (rel=author, itemprop=author, or named
    byline/author), "By " and the like taken off."""
    body = soup.body or soup
    for el in body.find_all(True):
        if not (el.get("itemprop") == "author" or "author" in (el.get("rel") or []) or
                _BYLINE_NAMES.search(_class_id(el))):
            continue
        text = _squash(el.get_text(" "))
        if 0 < len(text) <= _MAX_BYLINE:
            return _BY.sub("", text)
    return ""


def _time_element(soup: Any) -> str:
    """The ``datetime`` of the first ``<time>`` marked as the publication date, else of
    the first ``<time>`` with one."""
    times = [t for t in (soup.body or soup).find_all("time") if t.get("datetime")]
    marked = [t for t in times if t.get("itemprop") == "datePublished" or
              "pubdate" in t.attrs or "published" in _class_id(t).lower()]
    return (marked or times or [{}])[0].get("datetime", "") if times else ""


def _dateline(soup: Any) -> str:
    """The first short element that is a dateline by its numbers (boiler.py drops it from
    the body): "5 April 2013 Last updated at 08:09 GMT", as the page writes it."""
    for s in (soup.body or soup).descendants:
        if type(s) is not NavigableString or len(s) > _DATELINE * 3 or not _YEAR.search(s):
            continue
        el = s.parent
        if el.name in ("script", "style", "title", "textarea"):
            continue
        text = _squash(el.get_text(" "))
        if len(text.replace(" ", "")) < _DATELINE and is_dateline(text):
            return text
    return ""


def _class_id(el: Any) -> str:
    cls = el.get("class") or []
    return (" ".join(cls) if isinstance(cls, list) else cls) + " " + (el.get("id") or "")
