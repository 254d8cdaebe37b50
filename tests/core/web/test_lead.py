"""What a reader sees above the story is kept with it (issue 58): an ``<object>``'s fallback
text (a Flash player's, which no browser runs today) and a lead block of one paragraph just
before the article; a teaser of links there, or an empty player, is not."""

from __future__ import annotations

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
