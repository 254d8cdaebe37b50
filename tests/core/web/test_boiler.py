"""Boilerplate inside the article goes (related lists, sign-up blocks, share and comment
widgets, photo credits, read-more teasers, bylines); the article's own text, tables and code
stay. And pages in CJK scripts are judged like English ones."""

from __future__ import annotations

import pytest

from jqmagic.core.web.extract import text_length
from jqmagic.core.web.html import parse, to_markdown
from jqmagic.core.web.paragraphs import replace_brs

PROSE = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")


def md(inner: str) -> str:
    body = f"<article><p>{PROSE * 3}</p>{inner}<p>{PROSE * 3}</p></article>"
    return to_markdown(f"<html><head><title>T</title></head><body><nav><a href='/'>Home</a>"
                       f"</nav>{body}</body></html>", "https://news.example/a").markdown


@pytest.mark.parametrize(("inner", "gone"), [
    ("<h3>Related articles</h3><ul><li><a href='/x'>Bridge reopens after repairs</a></li>"
     "<li><a href='/y'>Mayor names new transport chief</a></li></ul>", "Bridge reopens"),
    ("<div class='newsletter-signup'><p>Get the morning briefing in your inbox.</p>"
     "<button>Go</button></div>", "morning briefing"),
    ("<div class='article-share-tools'><a href='/fb'>Facebook</a> <a href='/tw'>Twitter</a>"
     "</div>", "Facebook"),
    ("<section id='comments'><p>Jo wrote: great news for cyclists!</p></section>",
     "great news for cyclists"),
    ("<figure><img src='/p.jpg' alt='The path'><figcaption>The path in May. "
     "<span class='credit'>Photo by Ann Lee</span></figcaption></figure>", "Ann Lee"),
    ("<p><a href='/more'>Read more: how the path was planned</a></p>", "how the path"),
    ("<figure><img src='/p.jpg' alt='The path'><figcaption>The path in May. "
     "<small>Ann Lee/AFP via Getty Images</small></figcaption></figure>", "Ann Lee"),
    ("<p>Related: <a href='/old'>The first plan, in 2019</a></p>", "first plan"),
    ("<p>SIGN UP FOR OUR NEWSLETTER</p>", "SIGN UP"),
    ("<p class='byline'>By Sam Ortiz</p>", "Sam Ortiz"),
    ("<div class='paddle next'><a href='/n'><p>Next: ferry fares rise</p></a></div>",
     "ferry fares"),
    ("<div class='card'><a href='/c1'><img src='/1.jpg' alt=''><h4>Ferry fares rise</h4>"
     "</a></div><div class='card'><a href='/c2'><h4>New tram stop opens</h4></a></div>",
     "tram stop"),
    ("<p><time datetime='2024-03-01' itemprop='datePublished'>1 March 2024</time></p>",
     "1 March 2024"),
    # a dateline by its numbers (a year and a clock time), whatever its words or names
    ("<div class='sd'><span>5 April 2013</span> Zuletzt 08:09 GMT</div>", "Zuletzt"),
    ("<p><b>10:02 AM CST on Friday, December 28, 2007</b></p>", "10:02 AM"),
])
def test_boilerplate_in_the_article_goes(inner, gone):
    out = md(inner)
    assert gone not in out
    assert out.count("The council voted") == 6


@pytest.mark.parametrize(("inner", "kept"), [
    ("<p>Related work by the county shows the same pattern, and the study is public.</p>",
     "Related work by the county"),
    ("<h2>See also</h2><ul><li><a href='/w'>River Wey</a></li><li><a href='/t'>Towpath</a>"
     "</li></ul>", "River Wey"),
    ("<div class='subscription-prices'><table><tr><th>Year</th><th>Share</th></tr>"
     "<tr><td>2023</td><td>41%</td></tr></table></div>", "| 2023 | 41% |"),
    ("<div class='follow-code'><pre><code>path.widen(2)</code></pre></div>",
     "path.widen(2)"),
    ("<figure><img src='/p.jpg' alt='The path'><figcaption>The path in May, before the "
     "work.</figcaption></figure>", "before the work"),
    ("<p>The path opens on 5 May 2025 at 10:00.</p>", "opens on 5 May"),  # a sentence
    ("<p>In 2013 a ticket cost 12.50 pounds</p>", "12.50 pounds"),  # a price, not a time
])
def test_content_that_looks_like_boilerplate_stays(inner, kept):
    assert kept in md(inner)


def test_a_byline_in_a_heading_goes_alone():
    """A heading dropped as a byline heads no section: the short paragraphs after it stay
    (a heading that announces related links takes them with it)."""
    out = md("<h2 class='art-byline'>By Sam Ortiz 14/01/2008</h2><p>The path is 3 km long.</p>"
             "<p>It opens on Monday, the council said.</p>")
    assert "Sam Ortiz" not in out
    assert "3 km long" in out and "opens on Monday" in out


def test_a_container_named_related_that_holds_the_article_stays():
    html = ("<html><body><div class='related-content-wrapper'>"
            f"<p>{PROSE * 4}</p><p>{PROSE * 4}</p></div></body></html>")
    assert to_markdown(html).markdown.count("The council voted") == 8


def test_cjk_text_counts_like_words():
    assert text_length("川の道を広げる計画") == 27
    assert text_length("river") == 5


def test_a_japanese_story_of_short_paragraphs_is_the_content():
    """Twenty characters of Japanese hold a sentence: each paragraph is scored (by length
    alone, under the 25-character floor, none was, and the sidebar won)."""
    line = "むかし、ある村に{}ばんめのおじいさんがいました。"
    story = "".join(f"<p>{line.format(i)}</p>" for i in range(25))
    side = "<p>Ads, offers, and more, from our partners, today.</p>"
    html = (f"<html><body><div class='honbun'>{story}</div><div class='side'>{side}</div>"
            "</body></html>")
    out = to_markdown(html).markdown
    assert all(f"{i}ばんめ" in out for i in range(25))
    assert "partners" not in out


def test_the_heading_that_repeats_the_title_goes_once():
    body = (f"<article><h1>River path to be widened</h1><p>{PROSE * 3}</p>"
            f"<h2>River path to be widened</h2><p>{PROSE * 3}</p></article>")
    page = to_markdown(f"<html><head><title>River path to be widened | The Daily</title>"
                       f"</head><body>{body}</body></html>")
    assert page.title == "River path to be widened | The Daily"
    headings = [line for line in page.markdown.splitlines() if line.startswith("#")]
    assert headings == ["## River path to be widened"]


def test_a_heading_unlike_the_title_stays():
    body = f"<article><h1>Spring works</h1><p>{PROSE * 3}</p></article>"
    out = to_markdown(f"<html><head><title>River path to be widened</title></head>"
                      f"<body>{body}</body></html>").markdown
    assert out.startswith("# Spring works")


def test_text_broken_by_double_br_becomes_paragraphs():
    """Readability's _replaceBrs: each run after a <br><br> chain is a <p> (so it scores as
    a paragraph); a single <br> stays a line break, and <pre> keeps its own."""
    soup = parse("<div>one<br><br>two <b>bold</b><br>same<br> <br><br>three<div>x</div>"
                 "<pre>a<br><br>b</pre></div>")
    body = soup.body or soup  # html.parser (no lxml installed) makes no <body>
    replace_brs(body, soup)
    div = body.div
    assert [" ".join(p.stripped_strings) for p in div.find_all("p", recursive=False)] == [
        "two bold same", "three"]
    assert len(div.pre.find_all("br")) == 2
