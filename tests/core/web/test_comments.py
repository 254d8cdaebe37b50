"""Reader comments are a field of the page (comments.py), not its body; unless they are
the page (a forum's posts), and never a block named so that is mostly links."""

from __future__ import annotations

from jqmagic.core.web.fetch import COMMENTS_CHARS, FetchResult
from jqmagic.core.web.html import to_markdown

STORY = ("<p>The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring.</p>") * 4
COMMENT = ("<div class='comment-body'><p>I walk there every morning and the mud in winter "
           "is a real problem, so this is welcome news.</p><p>Posted by: Ann at 9:12 PM</p>"
           "</div>")


def _page(body: str) -> str:
    return f"<html><head><title>River path</title></head><body>{body}</body></html>"


def test_a_comment_thread_is_the_comments_field_not_the_body():
    page = to_markdown(_page(f"<div class='post'>{STORY}</div><div id='comments'>"
                             f"<h4>2 Comments:</h4>{COMMENT * 2}</div>"))
    assert "mud in winter" not in page.markdown and "river path" in page.markdown
    assert page.comments.count("mud in winter") == 2 and "Posted by: Ann" in page.comments
    assert page.comments.startswith("#### 2 Comments:")


def test_comment_blocks_without_a_named_container_go_in_document_order():
    second = COMMENT.replace("mud in winter", "path at night")
    page = to_markdown(_page(f"<div>{STORY}{COMMENT}{second}</div>"))
    assert "mud in winter" not in page.markdown and "path at night" not in page.markdown
    assert page.comments.index("mud in winter") < page.comments.index("path at night")


def test_comments_that_are_the_page_stay_in_its_body():
    page = to_markdown(_page(f"<div id='comments'>{COMMENT * 3}</div>"))
    assert "mud in winter" in page.markdown and page.comments == ""


def test_a_list_of_links_named_comments_and_a_commentary_are_not_a_thread():
    links = "".join(f"<li><a href='/p{i}'>Ann on the river path plan, part {i}</a></li>"
                    for i in range(5))
    page = to_markdown(_page(f"<div class='commentary'>{STORY}</div>"
                             f"<ul class='recent-comments'>{links}</ul>"))
    assert page.comments == "" and "river path" in page.markdown


def test_the_structured_answer_bounds_its_comments():
    base = dict(url="u", final_url="u", status=200, content_type="text/html", title="t",
                content="c", total_lines=1)
    assert "comments" not in FetchResult(**base).to_dict()
    short = FetchResult(**base, comments="Nice post.").to_dict()
    assert short["comments"] == "Nice post."
    long = "A reader's line of comment text, repeated.\n" * 1000
    out = FetchResult(**base, comments=long).to_dict()["comments"]
    body, note = out.rsplit("\n\n", 1)
    assert len(body) <= COMMENTS_CHARS and long.startswith(body)
    assert note == (f"[{len(long) - len(body):,} more characters of comments: web_fetch with "
                    "comments=true reads them whole]")


def test_an_issue_tracker_first_post_named_as_its_replies_stays_the_body():
    nav = "".join(f"<a href='/n{i}'>Navigation item number {i}</a> " for i in range(30))
    opener = ("<div class='timeline-comment'><div class='comment-body'><p>" +
              "The parser drops the second row of a table when a cell is left open. " * 8 +
              "</p></div></div>")
    page = to_markdown(_page(f"<header>{nav}</header><h1>Issue 12</h1>{opener}"
                             f"{COMMENT * 2}<footer>{nav}</footer>"))
    assert "second row of a table" in page.markdown and page.comments == ""
    assert "Navigation item" not in page.markdown
