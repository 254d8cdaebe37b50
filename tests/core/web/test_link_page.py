"""A page that is its links (a directory of web sites with a paragraph on top) keeps them
(issue 58): link blocks over twice the text left are the page, whatever that text's size."""

from __future__ import annotations

from jqmagic.core.web.html import to_markdown

INTRO = ("These are the sites I send my students to, sorted by topic, with a line on each when "
         "it needs one; most of them are free, a few ask for a library card, and I check "
         "every link at the start of each term, so tell me when one breaks. ")


def test_a_directory_of_links_under_a_paragraph_keeps_its_links():
    lists = "".join(
        f"<h3>Topic {t}</h3><ul>" + "".join(
            f"<li><a href='/s{t}-{i}'>Useful site number {i} on topic {t}</a></li>"
            for i in range(8)) + "</ul>" for t in range(6))
    html = (f"<html><head><title>Sites</title></head><body><div><p>{INTRO * 2}</p>{lists}"
            f"</div></body></html>")
    out = to_markdown(html, "https://example.org/sites").markdown
    assert "I send my students" in out
    assert out.count("Useful site number") == 48
