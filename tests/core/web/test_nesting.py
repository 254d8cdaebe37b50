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
