"""Pathological pages: what a page too big for a tree, an overlong tag or a passed deadline
turns into (structure and the clock's error; the seconds are bench/pathological_html.py's)."""

from __future__ import annotations

import time

import pytest
from bs4 import BeautifulSoup

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web import html as html_mod
from jqmagic.core.web.extract import decomposed
from jqmagic.core.web.fetch import fetch
from jqmagic.core.web.html import TREE_TAGS, to_markdown
from jqmagic.core.web.slim import slim_tags

MANY = TREE_TAGS + 10


def test_unclosed_list_items_past_the_tree_budget_are_each_a_bullet():
    page = to_markdown("<html><head><title>Big</title></head><body><ul>" +
                       "".join(f"<li>item {i} " for i in range(MANY)))
    lines = page.markdown.splitlines()
    assert page.title == "Big" and not page.cut
    assert lines == [f"- item {i}" for i in range(MANY)]  # flat, in order, none lost


def test_a_streamed_page_keeps_headings_links_code_and_tables_and_drops_scripts():
    filler = "<span>x</span>" * MANY
    page = to_markdown(
        "<head><base href='http://site.example/docs/'><script>var secret = 1</script></head>"
        "<body><h2>Usage</h2><p>See <a href='api.html'>the API</a>.<pre>a  = 1\n b</pre>"
        "<table><tr><th>k<th>v<tr><td>a<td>1</table><style>p{}</style>" + filler,
        "http://other.example/")
    md = page.markdown
    assert md.startswith("## Usage\n\nSee [the API](http://site.example/docs/api.html).")
    assert "```\na  = 1\n b\n```" in md
    assert "| k | v |\n|---|---|\n| a | 1 |" in md
    assert "secret" not in md and "p{}" not in md


@pytest.mark.parametrize("shape", ["<div>", "<p>para ", "<td>cell "])
def test_deep_or_unclosed_blocks_past_the_budget_keep_all_their_text(shape):
    page = to_markdown("<body>" + shape * MANY + "end")
    assert "end" in page.markdown.splitlines()[-1 if shape != "<td>cell " else 0]
    assert not page.cut
    word = shape.split(">")[1].strip()
    if word:
        assert page.markdown.count(word) == MANY
    if shape == "<td>cell ":  # one row of every cell, then the header's rule
        assert page.markdown.startswith("| cell | cell |")
        assert page.markdown.splitlines()[1] == "|" + "---|" * MANY


def test_an_overlong_tag_keeps_only_the_attributes_the_converter_reads():
    junk = " ".join(f"x{i}" for i in range(100_000))
    page = f"<p>before</p><a href='/doc' class='ref' {junk}>the doc</a>"
    slim = slim_tags(page)
    assert slim == "<p>before</p><a href='/doc' class='ref'>the doc</a>"
    assert "[the doc](http://h.example/doc)" in to_markdown(page, "http://h.example/").markdown


def test_a_long_tag_whose_quotes_hold_a_bracket_is_left_alone():
    tag = "<img alt='a > b' src='/i.png' " + "data-x='1' " * 40 + ">"
    assert slim_tags(tag) == tag
    long_src = "<img src='data:image/png;base64," + "A" * 500 + "' alt='dot'>"
    assert slim_tags(long_src) == long_src  # only read attributes: the same tag


def test_a_long_tag_keeps_its_onclick_whatever_its_script():
    """An ``<a onclick>`` is a link (text.is_link) even when its script is no attribute
    value a tag's reader takes (unquoted, with quotes inside)."""
    tag = "<a onclick=window.open('/buy?" + "x=1&" * 60 + "'); class='shop'>"
    assert slim_tags(tag) == "<a class='shop' onclick>"


def test_a_tree_past_its_deadline_is_a_timeout():
    with pytest.raises(JqMagicError) as caught:
        to_markdown("<p>" + "words, " * 100 + "</p>", deadline=time.monotonic() - 1)
    assert caught.value.code == "TIMEOUT" and "deadline" in caught.value.message
    assert caught.value.hint


def test_a_streamed_page_past_its_deadline_is_cut_and_says_so():
    page = to_markdown("<ul>" + "<li>item " * MANY, deadline=time.monotonic() - 1)
    assert page.cut
    assert page.markdown.rstrip().endswith("or the site's JSON or text form of it]")
    assert page.markdown.startswith("[cut: the page took too long to convert")


def test_a_fetch_stops_converting_at_its_own_deadline(web, monkeypatch):
    url = web.add("/slow.html", "<html><body><p>" + "words, " * 200 + "</p></body></html>",
                  "text/html")
    parse = html_mod.parse

    def slow_parse(*args, **kwargs):
        time.sleep(1.2)  # past the fetch's 1-second deadline, the page already read
        return parse(*args, **kwargs)

    monkeypatch.setattr(html_mod, "parse", slow_parse)
    with pytest.raises(JqMagicError) as caught:
        fetch(url, private_addresses=True, total_timeout=1.0)
    assert caught.value.code == "TIMEOUT", caught.value  # not PARSE_ERROR


def test_decomposed_agrees_with_bs4():
    soup = BeautifulSoup("<div><p>a<b>b</b></p><p>c</p></div>", "html.parser")
    first, second = soup.find_all("p")
    first.decompose()
    for el in (soup.div, first, second):
        assert decomposed(el) == el.decomposed


def test_a_streamed_page_drops_its_chrome_but_never_a_long_text_misnamed_chrome():
    story = "A sentence of the story, long enough to count. " * 40
    page = to_markdown(
        "<body><nav><a href='/a'>Home</a> <a href='/b'>News</a></nav>"
        "<div class='sidebar'><ul><li><a href='/c'>Most read</a></ul></div>"
        f"<div class='panel-two-col-sidebar-right'><p>{story}"
        "<div class='social-share'>Share this</div></div>"
        "<footer>Copyright</footer>" + "<span>x</span>" * MANY)
    md = page.markdown
    assert story.strip() in md.replace("\n", " ")  # the misnamed wrapper held the text
    for chrome in ("Home", "News", "Most read", "Share this", "Copyright"):
        assert chrome not in md
    raw = to_markdown("<body><nav><a href='/a'>Home</a></nav>" + "<span>x</span>" * MANY,
                      "http://h.example/", raw=True).markdown
    assert raw.startswith("[Home](http://h.example/a)")  # raw: the chrome too
