"""A fetched page's byline and date are fields of its own (the body leaves them out), read
from the page's JSON-LD, its <meta> tags, or a byline / <time> element; served on 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.web.fetch import fetch
from jqmagic.core.web.html import parse
from jqmagic.core.web.meta import page_meta

STORY = ("<p>The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring.</p>") * 4


def page(head: str = "", top: str = "") -> str:
    return (f"<html><head><title>River path</title>{head}</head><body><nav><a href='/'>Home"
            f"</a></nav><article><h1>River path</h1>{top}{STORY}</article></body></html>")


def test_byline_and_date_from_a_byline_and_time_element(web):
    html = page(top="<p class='byline'>By Sam Ortiz</p>"
                    "<time datetime='2024-03-05T09:30:00Z' class='published'>5 March</time>")
    r = fetch(web.add("/story", html))
    assert (r.byline, r.published) == ("Sam Ortiz", "2024-03-05T09:30:00Z")
    assert "Sam Ortiz" not in r.content  # still out of the body
    d = r.to_dict()
    assert d["byline"] == "Sam Ortiz" and d["published"] == "2024-03-05T09:30:00Z"
    json.dumps(d)


def test_json_ld_wins_over_meta_tags(web):
    ld = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Paper"},
        {"@type": "NewsArticle", "datePublished": "2023-11-02",
         "author": [{"@type": "Person", "name": "Ana Lima"}, {"name": "Bo Chen"}]}]}
    head = (f"<script type='application/ld+json'>{json.dumps(ld)}</script>"
            "<meta name='author' content='Desk'>"
            "<meta property='article:published_time' content='2020-01-01'>")
    r = fetch(web.add("/ld", page(head)))
    assert (r.byline, r.published) == ("Ana Lima, Bo Chen", "2023-11-02")


def test_meta_tags_skip_profile_urls_and_handles(web):
    head = ("<meta property='article:author' content='https://facebook.com/someone'>"
            "<meta name='author' content='@paper'>"
            "<meta name='parsely-author' content='Kim Park'>"
            "<meta property='article:published_time' content='2022-07-09T08:00:00+02:00'>")
    r = fetch(web.add("/meta", page(head)))
    assert (r.byline, r.published) == ("Kim Park", "2022-07-09T08:00:00+02:00")


def test_a_page_that_says_nothing_has_no_fields(web):
    r = fetch(web.add("/plain", page()))
    assert (r.byline, r.published) == ("", "")
    d = r.to_dict()
    assert "byline" not in d and "published" not in d


@pytest.mark.parametrize("ld", ["{not json", "[1, 2]", '{"@type": "Person", "name": "X"}'])
def test_broken_or_foreign_json_ld_is_ignored(ld):
    html = page(f"<script type='application/ld+json'>{ld}</script>"
                "<meta name='author' content='Lee Roy'>")
    assert page_meta(parse(html)).byline == "Lee Roy"


def test_a_long_author_block_is_not_a_byline():
    bio = "<div class='author-bio'>" + "Sam writes about rivers and towns. " * 10 + "</div>"
    assert page_meta(parse(page(top=bio))).byline == ""
