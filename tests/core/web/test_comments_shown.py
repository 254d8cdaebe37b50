"""A fetched page's reader comments are a field, not the body: the notebook says the page
has them, how much, and where to read them (notebook/display.py)."""

from __future__ import annotations

from jqmagic.core.web.fetch import FetchResult
from jqmagic.notebook.display import fetch_bundle


def _page(comments: str = "", **kw) -> FetchResult:
    fields = {"url": "http://x/", "final_url": "http://x/", "status": 200,
              "content_type": "text/html", "title": "Story", "content": "The story.",
              "total_lines": 1, **kw}
    return FetchResult(comments=comments, **fields)


def test_a_page_with_comments_says_so_and_where_they_are():
    thread = "**ann**: First!\n\n**bob**: I disagree with the second point."
    bundle = fetch_bundle(_page(thread))[0]
    for text in (bundle["text/plain"], bundle["text/markdown"]):
        assert f"reader comments ({len(thread)} characters, 3 lines)" in text
        assert "`.comments`" in text and "`_.comments`" in text
        assert "I disagree" not in text  # the note, not the thread
    assert bundle["text/plain"].index("The story.") < bundle["text/plain"].index("comments")


def test_a_page_without_comments_says_nothing_of_them():
    bundle = fetch_bundle(_page())[0]
    assert "comments" not in bundle["text/plain"] + bundle["text/markdown"]


def test_the_comments_line_joins_the_window_line():
    bundle = fetch_bundle(_page("a comment", offset=1, next_offset=2, total_lines=5))[0]
    assert "Read on with --offset 2. The page has reader comments (9 characters" in \
        bundle["text/markdown"]
