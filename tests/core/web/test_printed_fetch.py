"""``print(jqmagic.fetch(url))`` in a terminal shows the page (its heading and lines, as a
notebook's text shows them), ``print(jqmagic.search(...))`` the results as a list; repr()
is one line, not the content (a Python prompt echoed a whole page, and a dataclass's repr
of every field, on one line)."""

from __future__ import annotations

import jqmagic

PAGE = (b"<html><head><title>Odd bytes</title></head><body><article><h1>Odd bytes</h1>"
        + b"".join(b"<p>Paragraph %d of the article, long enough to be content.</p>" % i
                   for i in range(40)) + b"</article></body></html>")


def test_print_shows_the_page_and_repr_one_line(web):
    result = jqmagic.fetch(web.add("/p.html", PAGE), private_addresses=True)
    assert str(result) == f"# Odd bytes\n\n{result.content}"
    assert "Paragraph 39 of the article" in str(result)
    said = repr(result)
    assert "\n" not in said and "Paragraph" not in said and len(said) < 300, said
    assert said.startswith("<FetchResult ") and "Odd bytes" in said and "lines" in said




def test_print_shows_the_search_results_as_a_list(web, monkeypatch):
    from tests.web_servers import BRAVE_KEY, fake_brave

    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    found = jqmagic.search("python", count=3)
    assert str(found) == found.to_markdown() and str(found).count("\n- [") == 2
    assert repr(found) == "<SearchResults brave 'python': 3 results>"
