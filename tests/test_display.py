"""What notebooks show: every HTML and markdown output keeps ``$`` from being typeset."""

from __future__ import annotations

from jqmagic import check
from jqmagic.core.web.fetch import FetchResult
from jqmagic.display import fetch_bundle


def test_dollars_in_a_fetched_page_stay_money():
    page = FetchResult(url="http://x/", final_url="http://x/", status=200,
                       content_type="text/html", title="Plans",
                       content="Basic: $5 a month. Pro: $20 a month.", total_lines=1)
    markdown = fetch_bundle(page)[0]["text/markdown"]
    assert "\\$5 a month" in markdown and "\\$20" in markdown
    assert "$5" not in markdown.replace("\\$", "")


def test_dollars_in_a_verdict_are_not_mathematics():
    verdict = check("[.[] | select(. > $min and . < $max)]", [2], value=[1, 2, 3],
                    args={"min": 1, "max": 3})
    html = verdict._repr_mimebundle_()["text/html"]
    assert "&#36;min and . &lt; &#36;max" in html and "$" not in html
