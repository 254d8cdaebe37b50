"""Widgets and spread content found by structure, in any language (issue 58): a sign-in or
reply box goes by its password field or text area, a run of link lines beside the story
goes, and content of the found content's kind elsewhere on the page (the other sections of
a handbook page, the other posts of a blog) comes back."""

from __future__ import annotations

from jqmagic.core.web.html import parse, to_markdown
from jqmagic.core.web.kin import widen
from jqmagic.core.web.widgets import drop_widgets

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
PARAS = "".join(f"<p>{STORY * 2}</p>" for _ in range(4))


def _page(body: str) -> str:
    return f"<html><head><title>River path</title></head><body>{body}</body></html>"


def test_a_members_only_box_with_a_password_field_goes():
    box = ("<div id='komentar'><div>Nema komentara.</div><div><b>Samo clanovi BOX-TEXT.</b>"
           "<br>Prijava:<table><tr><td><input type='text' name='l'></td><td>login</td></tr>"
           "<tr><td><input type='password' name='p'></td><td>lozinka</td></tr></table>"
           "</div></div>")
    out = to_markdown(_page(f"<div class='story'>{PARAS}{box}</div>")).markdown
    assert "BOX-TEXT" not in out and "Nema komentara" not in out
    assert out.count("river path") == 8


def test_a_reply_box_with_an_empty_text_area_goes():
    box = "<div><h3>Ihre Meinung REPLY-TEXT</h3><form><textarea name='c'></textarea></form></div>"
    out = to_markdown(_page(f"<div>{PARAS}{box}</div>")).markdown
    assert "REPLY-TEXT" not in out and out.count("river path") == 8


def test_a_text_area_holding_a_code_sample_is_content():
    code = "for (var i = 0; i < items.length; i++) { total += items[i].price; } " * 4
    html = _page(f"<div>{PARAS}<div><p>The loop CODE-TEXT:</p><textarea>{code}</textarea>"
                 "</div></div>")
    soup = parse(html)
    assert drop_widgets(soup.body) == 0
    assert "CODE-TEXT" in soup.get_text()


def test_a_box_holding_most_of_the_page_is_not_a_widget():
    # A page that is one big form (a story inside an ASP.NET <form> with a search box).
    html = _page(f"<form><div>{PARAS}<input type='password' name='p'></div></form>")
    soup = parse(html)
    assert drop_widgets(soup.body) == 0


def test_link_lines_beside_the_story_go_and_a_linked_sentence_stays():
    lines = "".join(f"<span class='n'><a href='/s{i}'>Other headline {i}</a></span><br>"
                    for i in range(6))
    cell = (f"<table><tr><td><p>{STORY * 3}</p><p>See <a href='/plan'>the plan</a> for the "
            f"dates, published by the council this week.</p><hr>{lines}</td></tr></table>")
    out = to_markdown(_page(cell)).markdown
    assert "Other headline" not in out and "the plan" in out and "river path" in out


def test_two_link_lines_are_not_a_run_and_a_cell_of_links_alone_stays():
    two = "".join(f"<a href='/s{i}'>Other headline {i}</a><br>" for i in range(2))
    soup = parse(_page(f"<td>{STORY * 3}<br>{two}</td>"))
    assert drop_widgets(soup.body) == 0
    many = "".join(f"<a href='/s{i}'>Other headline {i}</a><br>" for i in range(8))
    soup = parse(_page(f"<table><tr><td>{many}</td></tr></table>"))
    assert drop_widgets(soup.body) == 0  # the page may be its links (fallback.settle)


def test_the_other_sections_of_the_same_kind_come_back():
    # A handbook page: each section a list item with a heading and a quoted body. The
    # first section's comma-rich paragraphs outscore the list, so the scorer keeps that
    # section alone; the plainer sections hold most of the prose, of the same kind.
    plain = ("The path opens in May and the council will pay for it from the road fund "
             "that the town set up last year for work on its paths and bridges ")
    first = "".join(f"<p>SECTION-0 {STORY * 3}</p>" for _ in range(3))
    rest = "".join(f"<li><h4><a href='#s{i}'>Section {i}</a></h4><blockquote>" +
                   "".join(f"<p>SECTION-{i} {plain * 2}</p>" for _ in range(4)) +
                   "</blockquote></li>" for i in range(1, 4))
    html = _page(f"<div><h2>Animal caretakers</h2><ul><li><h4><a href='#s0'>Section 0</a>"
                 f"</h4><blockquote>{first}</blockquote></li>{rest}</ul></div>")
    out = to_markdown(html).markdown
    assert all(f"SECTION-{i}" in out for i in range(4))


def test_prose_of_another_kind_does_not_widen():
    found = parse(f"<div><div class='story'>{PARAS}</div></div>").div
    page = parse(f"<body><div class='story'>{PARAS}</div>"
                 f"<div class='comment'><span class='c'>{STORY * 9}</span></div></body>").body
    assert widen(found, page, lambda: page) is None


def test_kin_prose_that_is_a_small_part_of_its_holder_does_not_widen():
    # The same kind of paragraph in a teaser far down the page: the element around both
    # is the page (short lines of other text, most of it), not more of the story.
    lines = "".join(f"<div class='row'>Score line {i}: 3 to 2</div>" for i in range(400))
    other = ("The bridge fund pays for a new footbridge at the mill, which the town has "
             "wanted since the old one was closed for repairs in the winter floods. ")
    story = f"<div class='story'>{PARAS}</div>"
    teaser = "<div class='story'>" + f"<p>{other * 4}</p>" * 4 + "</div>"
    found = parse(f"<div>{story}</div>").div
    page = parse(f"<body>{story}<div>{lines}</div>{teaser}</body>").body
    assert widen(found, page, lambda: page) is None
    near = parse(f"<body>{story}{teaser}</body>").body
    assert widen(found, near, lambda: near) is near
