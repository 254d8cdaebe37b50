"""A block of photos is judged by the prose beside them (issue 58): Readability's rule drops
a block with more images than twice its ``<p>``s (a gallery), which on a page written with
``<br>``s also dropped a listing's or a product's text; past 80 unlinked characters per image
the block is prose with photos and is kept. A gallery of short captions, and a list of
pictured teasers, still go."""

from __future__ import annotations

from jqmagic.core.web.html import to_markdown

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
LOTS = ("Waterfront lot of five acres on the north shore with a dock and a well and hydro at "
        "the road and a cleared building site facing the sunset over the lake. ")


def _page(block: str) -> str:
    return ("<html><head><title>Lots for sale</title></head><body>"
            "<div id='menu'><a href='/'>Home</a> <a href='/sales'>Sales</a></div>"
            f"<div id='content'><p>{STORY * 2}</p><p>{STORY * 2}</p>{block}"
            f"<p>{STORY * 2}</p></div></body></html>")


def _markdown(block: str) -> str:
    return to_markdown(_page(block), "https://example.org/sales").markdown


def test_prose_written_with_brs_beside_its_photos_is_kept():
    block = ("<table><tr><td><img src='/a.jpg'><img src='/b.jpg'><img src='/c.jpg'></td>"
             f"<td><b>Sand Pit Lane</b><br>{LOTS * 2}<br>{LOTS}<br>asking 659900 dollars</td>"
             "</tr></table>")
    md = _markdown(block)
    assert "Sand Pit Lane" in md and "asking 659900 dollars" in md
    assert md.count("Waterfront lot") == 3


def test_a_gallery_of_short_captions_still_goes():
    block = ("<table><tr>" + "".join(
        f"<td><img src='/{i}.jpg'><br>Photo {i} of the shore</td>" for i in range(4)) +
        "</tr></table>")
    md = _markdown(block)
    assert "Photo 1 of the shore" not in md and md.count("The council voted") == 6


def test_a_list_of_pictured_teasers_still_goes():
    block = ("<ul>" + "".join(
        f"<li><img src='/{i}.jpg'><img src='/{i}b.jpg'>{LOTS * 2}</li>" for i in range(3)) +
        "</ul>")
    md = _markdown(block)
    assert "Waterfront lot" not in md and md.count("The council voted") == 6
