"""html.parser's unclosed cells, rows and items are closed as a browser's parser (and lxml)
closes them (nesting.py), nested tables and lists left as they are."""

from __future__ import annotations

import time

import pytest

from jqmagic.core.web.html import parse, to_markdown


def _shape(soup) -> list:
    return [[td.get_text() for td in tr.find_all(["td", "th"], recursive=False)]
            for tr in soup.find_all("tr")]


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_unclosed_cells_and_rows_are_closed_as_a_browser_closes_them(parser):
    if parser == "lxml":
        pytest.importorskip("lxml", reason="lxml comes with the bench extra")
    soup = parse("<table><tr><th>h<td>a<td>b<tr><td>c<td>d</table><p>after</p>", parser)
    assert _shape(soup) == [["h", "a", "b"], ["c", "d"]]
    assert soup.find("p").find_parent("td") is None


def test_nested_tables_and_lists_stay_nested():
    soup = parse("<table><tr><td>out<table><tr><td>in<td>in2</table>tail<td>next</table>"
                 "<ul><li>one<ul><li>sub<li>sub2</ul><li>two</ul>", "html.parser")
    inner = soup.find("table").find("table")
    assert inner.find_parent("td").get_text().startswith("out")
    assert [td.get_text() for td in inner.find_all("td")] == ["in", "in2"]
    outer = soup.find("ul")
    assert [li.get_text() for li in outer.find_all("li", recursive=False)] == \
        ["onesubsub2", "two"]


def test_a_story_in_unclosed_cells_reads_as_lxml_reads_it():
    story = ("<p>The council voted on Tuesday to widen the river path, a plan that took six "
             "years, two studies and many public meetings to agree on.</p>") * 4
    links = "".join(f"<a href='/s{i}'>Section {i}</a><br>" for i in range(12))
    page = (f"<html><body><table><tr><td>{links}<td>{story}<td>{links}"
            "<tr><td colspan=3>Copyright the river paper</table></body></html>")
    ours = to_markdown(page, parser="html.parser").markdown
    assert ours.count("council voted") == 4 and "Section 3" not in ours
    pytest.importorskip("lxml", reason="the reading compared is lxml's; lxml comes with the "
                        "bench extra")
    assert ours == to_markdown(page, parser="lxml").markdown


def test_thousands_of_unclosed_cells_are_closed_in_linear_time():
    html = "<table><tr>" + "<td>x" * 5000 + "<tr>" + "<td>y" * 5000 + "</table>"
    t0 = time.perf_counter()
    soup = parse(html, "html.parser")
    assert time.perf_counter() - t0 < 5
    rows = soup.find_all("tr")
    assert [len(tr.find_all("td", recursive=False)) for tr in rows] == [5000, 5000]
    assert rows[1].find_parent("td") is None


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_html_inside_an_element_makes_one_body_as_a_browser_does(parser):
    """CleanEval wraps each page in <text>: a browser (and lxml) reads <html>, <head> and
    <body> there as no elements, the page one body inside <text>; html.parser nested a
    whole document in it, and the page's tables read as separate blocks lost most of it."""
    if parser == "lxml":
        pytest.importorskip("lxml", reason="lxml comes with the bench extra")
    soup = parse("<text id=u><html><head><title>T</title></head><body><p>a</p>"
                 "</body></html></text>", parser)
    assert [el.name for el in soup.find_all(True)] == ["html", "body", "text", "title", "p"]
    assert parse("<p>x</p><html><body><p>b</p></body></html>", parser).body.get_text() == "xb"


def test_a_document_that_opens_with_html_or_head_tags_keeps_its_head():
    for page in ("<!DOCTYPE html><html><head><title>T</title></head><body><p>a</body></html>",
                 "<meta charset=utf-8><html><head><title>T</title></head><body><p>a</html>"):
        soup = parse(page, "html.parser")
        assert soup.head.title.get_text() == "T" and soup.body.get_text() == "a"


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_a_block_opened_in_a_paragraph_ends_it_as_lxml_reads_it(parser):
    """<p>a<p>b is two paragraphs, <p>a<div>b</div>c a paragraph, a block and text after
    it; a block inside a <span> in the paragraph stays there (lxml's reading)."""
    if parser == "lxml":
        pytest.importorskip("lxml", reason="lxml comes with the bench extra")
    soup = parse("<p>a<p>b<p>c<div>d</div>e<p>f<span><p>g</span>h", parser)
    body = soup.body or soup
    assert [(c.name, c.get_text()) for c in body.children] == [
        ("p", "a"), ("p", "b"), ("p", "c"), ("div", "d"), (None, "e"), ("p", "fgh")]
    cells = parse("<p>intro<table><tr><td>x</td></tr></table><ul><li>y</ul>", parser)
    assert cells.find("table").find_parent("p") is None
    assert cells.find("ul").find_parent("p") is None


def test_a_story_in_unclosed_paragraphs_is_read_as_paragraphs_not_one_nest():
    story = "".join(f"<p>Paragraph {i} of the story, long enough to be read as prose by "
                    "any reader of the page and its main content." for i in range(8))
    page = f"<html><body><div>{story}<div class=links><a href=/a>A</a></div></div></body></html>"
    soup = parse(page, "html.parser")
    assert max(len(list(p.find_parents("p"))) for p in soup.find_all("p")) == 0
    assert to_markdown(page, parser="html.parser").markdown.count("\n\nParagraph ") == 7


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_an_end_tag_closes_nothing_of_a_higher_rank_as_lxml_reads_it(parser):
    """A nested table never closed: </td></tr> is ignored while it is open, so the rows
    after it stay in it (html.parser closed the inner table and the outer cell); a
    </span> with a <div> open inside it is ignored too."""
    if parser == "lxml":
        pytest.importorskip("lxml", reason="lxml comes with the bench extra")
    soup = parse("<table><tr><td><table><tr><td>a</td></tr></td></tr><tr><td>b</table>c"
                 "</table>d", parser)
    outer = soup.find("table")
    assert [td.get_text() for td in outer.find("table").find_all("td")] == ["a", "b"]
    assert len(outer.find_all("tr", recursive=False) or outer.tbody.find_all("tr")) == 1
    spans = parse("<span><div>x</span>y</div>z", parser)
    assert spans.find("div").get_text() == "xy"


@pytest.mark.parametrize("parser", ["html.parser", "lxml"])
def test_a_second_body_opens_nothing_and_closes_nothing(parser):
    """A <body> inside the page (a page pasted into another's cell) is no element to a
    browser or lxml: the cell's end tag still closes the cell (html.parser's nested body
    was a barrier no end tag crossed, and the page after it stayed in the cell)."""
    if parser == "lxml":
        pytest.importorskip("lxml", reason="lxml comes with the bench extra")
    soup = parse("<html><body><table><tr><td>a<body>b</body></td><td>c</td></tr></table>d"
                 "</body></html>", parser)
    assert len(soup.find_all("body")) == 1
    assert [td.get_text() for td in soup.find_all("td")] == ["ab", "c"]
    assert soup.find("table").find_parent("td") is None and soup.body.get_text() == "abcd"
