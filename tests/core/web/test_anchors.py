"""A named anchor is not a link (issue 58): an ``<a name>`` left unclosed holds the rest of
an old page, whose text then read as all link and scored nothing. An ``<a>`` a script
follows (``onclick``, no ``href``) is still one: a playlist of them stays out."""

from __future__ import annotations

from bs4 import BeautifulSoup

from jqmagic.core.web.html import to_markdown
from jqmagic.core.web.text import link_density

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
OTHER = ("Our town's weekly paper has been printed on the same press since it was founded, "
         "and its readers can still buy it at the corner shop on Saturday mornings. ")
MENU = "<div>" + " | ".join(f"<a href='/s{i}'>Section {i}</a>" for i in range(8)) + "</div>"


def _markdown(body: str) -> str:
    html = f"<html><head><title>River path</title></head><body>{body}</body></html>"
    return to_markdown(html, "https://example.org/river").markdown


def test_a_named_anchor_is_not_a_link():
    soup = BeautifulSoup(f"<div><a name='top'>{STORY}</a></div>", "html.parser")
    assert link_density(soup.div) == 0
    soup = BeautifulSoup(f"<div><a onclick='go()'>{STORY}</a></div>", "html.parser")
    assert link_density(soup.div) == 1


def test_a_story_inside_a_named_anchor_is_found():
    sections = "".join(f"<h3>Part {i}</h3>" + f"<p>{STORY * 2}</p>" * 2 for i in range(4))
    other = f"<p>{OTHER}</p>" * 3
    md = _markdown(f"{MENU}<div><a name='story'><h2>The river path</h2>{sections}</a></div>"
                   f"<div><div>{other}</div></div>{MENU}")
    assert md.count("The council voted") == 16 and "Section 3" not in md
    assert "weekly paper" not in md  # the block beside it, found when the story scored 0


def test_a_playlist_of_scripted_anchors_stays_out():
    playlist = "<div>" + "".join(
        f"<a name='video' onclick='play({i})'>Video number {i} of the river works</a><br>"
        for i in range(12)) + "</div>"
    md = _markdown(f"<div>{playlist}<div>" + f"<p>{STORY * 2}</p>" * 4 + "</div></div>")
    assert md.count("The council voted") == 8 and "Video number" not in md
