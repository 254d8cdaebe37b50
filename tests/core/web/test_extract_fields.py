"""A dateline the body drops by its numbers (boiler.py: a year and a clock time, a few
words, not a sentence) is the page's date field when nothing else dates the page."""

from __future__ import annotations

from jqmagic.core.web.html import parse, to_markdown
from jqmagic.core.web.meta import page_meta

STORY = ("<p>The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring.</p>") * 4


def _page(top: str, head: str = "") -> str:
    return (f"<html><head><title>River path</title>{head}</head><body><div>{top}{STORY}"
            "</div></body></html>")


def test_a_dateline_in_any_language_is_the_date_field_and_leaves_the_body():
    page = to_markdown(_page("<p>Objavljeno: 08.01.2008. u 14:21h</p>"))
    assert page.published == "Objavljeno: 08.01.2008. u 14:21h"
    assert "14:21" not in page.markdown and "river path" in page.markdown


def test_the_page_metadata_wins_over_a_dateline():
    head = "<meta property='article:published_time' content='2008-01-08T14:21:00Z'>"
    meta = page_meta(parse(_page("<p>5 April 2013 Last updated at 08:09 GMT</p>", head)))
    assert meta.published == "2008-01-08T14:21:00Z"


def test_a_sentence_with_a_year_and_a_time_is_not_a_dateline():
    top = "<p>The meeting of 2008 ran until 21:30 and everyone went home.</p>"
    assert page_meta(parse(_page(top))).published == ""
