"""Main content found by structure on old and odd pages (issue 58): a story a parser left in
<head>, one stuck in an unclosed <noscript>, one inside a page-wide <form>; link farms and
headline lists go by their link density, wherever they sit, while prose with links stays."""

from __future__ import annotations

import pytest

from jqmagic.core.web.fallback import drop_link_blocks, structural_text
from jqmagic.core.web.html import parse, to_markdown

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
PARAS = "".join(f"<p>{STORY * 2}</p>" for _ in range(4))
LINKS = "".join(f"<li><a href='/s{i}'>Other story number {i}</a></li>" for i in range(12))


def test_a_story_after_an_early_body_end_is_read():
    # lxml puts what follows </body> beside the body; a browser reads it into the body.
    pytest.importorskip("lxml", reason="the case is lxml's (html.parser keeps the nodes "
                        "after </body> in the body); lxml comes with the bench extra")
    html = f"<html><head><title>T</title></head><body><i>x</i></body><div>{PARAS}</div></html>"
    out = to_markdown(html, parser="lxml").markdown
    assert out.count("river path") == 8


def test_a_story_the_parser_left_in_head_is_read():
    # lxml keeps everything after an unknown tag in <head> there; a browser would not.
    pytest.importorskip("lxml", reason="the case is lxml's (html.parser reads the page as a "
                        "browser does); lxml comes with the bench extra")
    html = f"<html><head><title>T</title><mbox></mbox><div>{PARAS}</div></head></html>"
    out = to_markdown(html, parser="lxml").markdown
    assert out.count("river path") == 8


def test_a_story_in_an_unclosed_noscript_is_read():
    html = (f"<html><head><title>T</title></head><body><noscript><div>{PARAS}</div>"
            "</body></html>")
    assert "river path" in to_markdown(html).markdown


def test_a_small_noscript_is_still_junk():
    html = (f"<html><body><noscript><p>Please enable JavaScript, NOSCRIPT-TEXT.</p>"
            f"</noscript><article>{PARAS}</article></body></html>")
    out = to_markdown(html).markdown
    assert "NOSCRIPT-TEXT" not in out and "river path" in out


def test_a_page_wide_form_is_a_wrapper_not_chrome():
    html = (f"<html><body><form action='/x'><div><h1>T</h1>{PARAS}</div></form>"
            "</body></html>")
    assert to_markdown(html).markdown.count("river path") == 8


def test_a_search_form_whose_options_are_long_still_goes():
    states = "".join(f"<option>State number {i}</option>" for i in range(60))
    html = (f"<html><body><article>{PARAS}<form><p>Search FORM-TEXT</p><select>{states}"
            "</select></form></article></body></html>")
    out = to_markdown(html).markdown
    assert "FORM-TEXT" not in out and "State number" not in out and "river path" in out


def test_a_headline_list_inside_the_article_goes():
    html = f"<html><body><article>{PARAS}<div><ul>{LINKS}</ul></div>{PARAS}</article></body></html>"
    out = to_markdown(html).markdown
    assert "Other story" not in out and out.count("river path") == 16


def test_prose_with_links_and_a_cited_reference_stay():
    prose = (f"<p>{STORY}See <a href='/a'>the first plan</a> and <a href='/b'>the study</a>, "
             f"{STORY}</p>")
    cite = ("<p><span class='reference-text'><a href='/book'>Rivers of the North, 2004</a>"
            "</span></p>")
    root = parse(f"<div>{PARAS}{prose}{cite}</div>").div
    drop_link_blocks(root)
    text = root.get_text()
    assert "the first plan" in text and "Rivers of the North" not in text  # a bare link paragraph
    root = parse(f"<div>{PARAS}<p>Frankel, T. (2004). <a href='/b'>The Geometry of Physics"
                 "</a>. Cambridge University Press. p. 652.</p></div>").div
    drop_link_blocks(root)
    assert "Geometry of Physics" in root.get_text()


def test_a_block_of_links_with_descriptions_is_not_a_farm():
    items = "".join(f"<p><a href='/s{i}'><b>SITE {i}</b></a> Articles, reviews, discography, "
                    f"lyrics, pictures and links about the singer, number {i}.</p>"
                    for i in range(10))
    root = parse(f"<div><div class='links'>{items}</div></div>").div
    drop_link_blocks(root)
    assert "SITE 9" in root.get_text()


def test_structural_text_keeps_prose_and_drops_chrome_and_farms():
    html = (f"<body><nav><a href='/'>NAV-HOME</a></nav><table><tr><td><ul>{LINKS}</ul></td>"
            f"<td>{PARAS}</td></tr></table><footer>FOOTER-TEXT</footer></body>")
    body = parse(html).body
    text = structural_text(body).get_text()
    assert "river path" in text
    for gone in ("NAV-HOME", "Other story", "FOOTER-TEXT"):
        assert gone not in text
    assert "NAV-HOME" in body.get_text()  # a copy: the page itself is untouched


def test_a_sentence_with_short_links_stays_and_a_bar_of_them_goes():
    sentence = "<p>See <a href='/i'>the intro</a> and <a href='/e'>elsewhere</a>, or ask.</p>"
    bar = "<div><a href='/h'>Home</a> | <a href='/n'>News</a> | <a href='/a'>About</a></div>"
    root = parse(f"<div>{PARAS}{sentence}{bar}</div>").div
    drop_link_blocks(root)
    text = root.get_text()
    assert "the intro" in text and "About" not in text


def test_the_scorer_does_not_climb_to_a_parent_that_adds_headlines():
    # The story's parent scores under the story, and its parent (named "main content")
    # over that parent: Readability.js climbs there and keeps the box beside the story.
    box = ("<p><a href='/f'>Feature story with a long headline</a></p><p>Weather for the "
           "week ahead, with maps and the latest warnings.</p><p><a href='/g'>Second feature "
           "story with a long headline</a></p><p>Sport results</p>")
    html = (f"<html><body><div id='main-content'><div class='block-a'><div class='story-body'>"
            f"{PARAS}</div><p>A caption.</p></div><div class='block-b'><ul>{box}</ul></div></div>"
            "</body></html>")
    out = to_markdown(html).markdown
    assert out.count("river path") == 8 and "Weather for" not in out


def test_a_page_that_is_its_links_keeps_them():
    toc = "".join(f"<li><a href='/part/{i}'>Title {i} of the bill, its programs</a></li>"
                  for i in range(40))
    html = (f"<html><body><div id='content'><h2>House Report 107-116</h2><h3>Table of "
            f"Contents</h3><ul>{toc}</ul></div></body></html>")
    out = to_markdown(html).markdown
    assert out.count("of the bill") == 40


def test_a_title_never_closed_gives_the_page_back():
    # An HTML parser reads a <title> as text up to </title>: one never closed holds the page.
    html = (f"<html><head><title>River path<script>var q = '<x>';</script></head><body>"
            f"<div>{PARAS}{PARAS}</div></body></html>")
    page = to_markdown(html)
    assert page.markdown.count("river path") == 16 and page.title == "River path"


# html.parser (a plain install: no lxml) builds what the page's tags say, where a browser
# repairs: each of these pages gave an empty page or an error before.
@pytest.mark.parametrize("html", [
    f"<html><head><title>T</title><body><div>{PARAS}</div></body></html>",  # body in head
    f"<html><head><title>T</title><!-- ads --><div>{PARAS}</div></html>",  # a comment first
    f"<html><head><title>T</title></head><div>{PARAS}</div>"  # a stray body tag deep in it
    "<table><tr><td><body><p>A stray line.</p></td></tr></table></html>",
], ids=["a body left inside an open head", "a comment in an open head",
        "a body tag deep in the page"])
def test_html_parser_reads_the_story_of_an_odd_page(html):
    out = to_markdown(html, parser="html.parser").markdown
    assert out.count("river path") == 8


def test_a_page_nested_in_an_open_title_is_read():
    page = to_markdown(f"<html><head><title>T<div>{PARAS}</div></html>", parser="html.parser")
    assert page.markdown.count("river path") == 8 and page.title == "T"


def test_a_body_left_inside_an_open_noscript_is_read():
    html = (f"<html><noscript><img src='/pixel.gif'><body><div>{PARAS}</div></noscript>"
            f"<div>{PARAS}</div></html>")
    out = to_markdown(html, parser="html.parser").markdown
    assert out.count("river path") == 16


def test_a_stray_conditional_comment_end_is_a_comment():
    # "<![endif]-->" left from a cut conditional comment: html.parser read a marked
    # section up to the next "]>" (here a later conditional comment's), the body in it
    html = ("<html><head><title>T</title>\n<![endif]-->\n<link href='/a.css'></head>"
            f"<body><div>{PARAS}</div><!--[if IE]><p>Old browser</p><![endif]--></body></html>")
    out = to_markdown(html, parser="html.parser").markdown
    assert out.count("river path") == 8
    assert "endif" not in out
