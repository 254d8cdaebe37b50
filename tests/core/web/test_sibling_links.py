"""A block beside the story that scores as a sibling joins only when it is not much more
linked than the story (issue 58): a shopping box of linked products, each with a line of
its own, scores like prose but is other pages' links."""

from __future__ import annotations

from pathlib import Path

import pytest

from jqmagic.core.web.html import to_markdown

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
ITEM = ("<p><a href='/p{0}'>Cable {0}, gold, braided, 2 m, shielded</a> rated, in stock, "
        "from $25</p>")


def test_a_linked_box_beside_the_story_does_not_join():
    story = "".join(f"<p>{STORY * 2}</p>" for _ in range(6))
    shop = "".join(ITEM.format(i) for i in range(12))
    html = (f"<html><head><title>River path</title></head><body><div id='page'>"
            f"<div id='story'>{story}</div><div id='shop'>{shop}</div></div></body></html>")
    out = to_markdown(html, "https://example.org/river").markdown
    assert out.count("The council voted") == 12
    assert "Cable 3" not in out



_PUBLIC = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "html-public"


def test_a_listing_laid_out_in_a_run_of_like_tables_is_read_whole():
    """cleaneval-final/74, a links page: its listing goes on in seven tables of one shape
    (tag and attributes); the found block was the first, and cleaning dropped the others
    as linked. The run of like tables is the article; the site's menu tables (another
    shape) are not in it."""
    page = _PUBLIC / "cleaneval-final" / "input" / "74.html"
    if not page.exists():
        pytest.skip(f"the public corpus is not at {_PUBLIC}")
    md = to_markdown(page.read_bytes().decode("latin-1")).markdown
    firsts = ["CAT STEVENS.COM", "TEASER AND THE FIRECAT", "CAT STEVENS AND MORE",
              "CYBER PRESSE", "MORNING HAS BROKEN", "LADY D'ARBANVILLE",
              "EX CAT STEVENS RECORDS CHARITY SONG"]
    assert all(name in md for name in firsts), [n for n in firsts if n not in md]
    assert "Shop For Cat Stevens Music" not in md
