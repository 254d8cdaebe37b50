"""A block beside the story that scores as a sibling joins only when it is not much more
linked than the story (issue 58): a shopping box of linked products, each with a line of
its own, scores like prose but is other pages' links."""

from __future__ import annotations

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
