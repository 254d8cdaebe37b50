"""What a reader sees above the story is kept with it (issue 58): an ``<object>``'s fallback
text (a Flash player's, which no browser runs today) and a lead block of one paragraph just
before the article; a teaser of links there, or an empty player, is not. A short story the
strict try found is kept over teasers a relaxed try found elsewhere."""

from __future__ import annotations

from jqmagic.core.web.extract import agreed
from jqmagic.core.web.html import open_objects, parse, to_markdown

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
POST = "".join(f"<p>{STORY * 2}</p>" for _ in range(4))
CAPTION = ("The mayor and two councillors join our host to talk about the path, the money it "
           "needs and the houses along the river that stand in its way.")


def _page(lead: str) -> str:
    return ("<html><head><title>River path</title></head><body><div id='menu'>"
            "<a href='/'>Home</a> <a href='/news'>News</a></div><div id='content'>"
            "<h1>River path widened</h1>"
            f"{lead}<div class='post'><div class='entry'>{POST}</div>"
            "<div class='meta'>Filed under: city</div></div></div></body></html>")


def _player(text: str) -> str:
    return ("<div class='video-wrap'><object data='/player.swf'>"
            "<param name='movie' value='/player.swf'><embed src='/player.swf'>"
            f"<div class='player'><a href='/video.mp4'><img src='/still.jpg'></a>{text}</div>"
            "</object></div>")


def test_an_objects_fallback_text_is_unwrapped_and_its_params_go():
    soup = parse(f"<body>{_player(f'<p>{CAPTION}</p>')}<object data='/x.swf'>"
                 "<param name='movie' value='/x.swf'></object></body>")
    open_objects(soup)
    assert [o.get("data") for o in soup.find_all("object")] == ["/x.swf"]  # no text: kept
    assert not soup.find("embed") and len(soup.find_all("param")) == 1
    assert CAPTION in soup.get_text()


def test_a_videos_caption_above_the_story_is_kept_first():
    out = to_markdown(_page(_player(f"<div class='caption'><p>{CAPTION}</p></div>"))).markdown
    assert out.index("The mayor and two councillors") < out.index("The council voted")
    assert out.count("river path") == 8 and "Home" not in out


def test_a_standfirst_paragraph_before_the_story_is_kept():
    out = to_markdown(_page(f"<div class='standfirst'><p>{CAPTION}</p></div>")).markdown
    assert out.startswith("The mayor and two councillors")


def test_links_or_a_label_before_the_story_are_not_a_lead():
    teaser = ("<div class='more'><p><a href='/a'>The mayor and two councillors talk about "
              "the path</a> and <a href='/b'>the money it needs, and the houses along "
              "the river</a>.</p></div>")
    out = to_markdown(_page(teaser)).markdown
    assert "The mayor" not in out
    out = to_markdown(_page("<div class='tag'><p>Video: the river path</p></div>")).markdown
    assert "Video: the river path" not in out and "The council voted" in out



SHORT = ("<p>The council voted on Tuesday to widen the river path, after six years of talks.</p>"
         "<p>Work starts in spring, the mayor said, and ends before the autumn rains.</p>"
         "<p>Residents along the river, who opposed the plan, said they would appeal.</p>")
TEASERS = "".join(f"<p><a href='/s{i}'>Other story number {i} in the city</a> A line, of "
                  f"summary, for story {i}.</p>" for i in range(20))


def _tries(first: str, found: str) -> tuple:
    soup = parse(f"<body><div id='first'>{first}</div><div id='found'>{found}</div></body>")
    return soup.find(id="first"), soup.find(id="found")


def test_a_short_story_is_kept_over_teasers_a_relaxed_try_found_elsewhere():
    first, found = _tries(SHORT, TEASERS)
    assert agreed(first, found) is first
    assert agreed(None, found) is found  # no story found by the strict try


def test_a_relaxed_try_wins_when_it_holds_the_story_or_is_unlinked_prose():
    first, found = _tries(SHORT, SHORT + TEASERS)  # the story and more: the same place
    assert agreed(first, found) is found
    notice = "<p>Printed from <a href='/a'>our site</a>; visit it for more of the news.</p>"
    first, found = _tries(notice, "".join(f"<p>{STORY}</p>" for _ in range(6)))
    assert agreed(first, found) is found
