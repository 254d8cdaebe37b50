"""Widgets found by structure, in any language (issue 58): a sign-in or reply box goes by
its password field or text area, and a run of link lines beside the story goes."""

from __future__ import annotations

from jqmagic.core.web.html import parse, to_markdown
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
