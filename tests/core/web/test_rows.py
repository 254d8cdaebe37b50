"""A story laid out in a table's rows or a list's items goes on after the row (item) the
scorer found (issue 58): the rows and items beside it are judged as Readability judges a
sibling paragraph, but for the first and the last, where a layout table keeps its page's
header and footer."""

from __future__ import annotations

from jqmagic.core.web.html import to_markdown

STORY = ("The council voted on Tuesday to widen the river path, a plan that took six years, "
         "two studies and many public meetings to agree on, and work starts in spring. ")
MORE = "Residents near the path may reach the planning office by letter or in person %s."
NAV = "<td><a href='/a'>Home</a><br><a href='/b'>News</a></td>"


def _markdown(body: str) -> str:
    html = f"<html><head><title>River path</title></head><body>{body}</body></html>"
    return to_markdown(html, "https://example.org/river").markdown


def _row(cells: str) -> str:
    return f"<tr>{cells}</tr>"


def test_a_story_goes_on_in_later_rows_of_its_layout_table():
    rows = [
        _row("<td colspan='2'><a href='/'>Example Gazette</a> <a href='/x'>Subscribe</a></td>"),
        _row("<td></td><td><b>Part one</b></td>"),
        _row(NAV + "<td>" + "".join(f"<p>{STORY * 2}</p>" for _ in range(5)) + "</td>"),
        _row("<td></td><td><b>Part two</b></td>"),
        _row(NAV + f"<td><p>{MORE % 'on Monday'}</p></td>"),
        _row("<td></td><td><b>Part three</b></td>"),
        _row(NAV + f"<td><p>{MORE % 'on Friday'}</p></td>"),
        _row("<td colspan='2'>Reproduction of this page in whole or in part without the "
             "written permission of the publisher is not allowed here.</td>"),
    ]
    md = _markdown("<table>" + "".join(rows) + "</table>")
    assert md.count("The council voted") == 10
    assert "on Monday" in md and "on Friday" in md  # rows after the one found
    assert "Reproduction of this page" not in md  # the table's last row: its footer


def test_a_story_goes_on_in_later_items_of_a_list():
    items = [f"<li><h4>Part one</h4><blockquote>{''.join(f'<p>{STORY * 2}</p>' for _ in range(5))}"
             "</blockquote></li>",
             f"<li><h4>Part two</h4><p>{MORE % 'on Monday'}</p></li>",
             f"<li><h4>Part three</h4><p>{MORE % 'on Friday'}</p></li>",
             "<li><h4>Part four</h4><p>The office keeps a copy of the plan for anyone who "
             "asks for one, free of charge.</p></li>"]
    md = _markdown("<ul>" + "".join(items) + "</ul>")
    assert md.count("The council voted") == 10
    assert "on Monday" in md and "on Friday" in md


def test_a_linked_row_after_the_story_stays_out():
    rows = [
        _row("<td><a href='/'>Example Gazette</a></td>"),
        _row("<td>" + "".join(f"<p>{STORY * 2}</p>" for _ in range(5)) + "</td>"),
        _row("<td>" + " ".join(f"<a href='/s{i}'>Another story about the town number {i}</a>"
                               for i in range(6)) + "</td>"),
        _row("<td>Example Gazette, printed in the town since the year of its founding.</td>"),
    ]
    md = _markdown("<table>" + "".join(rows) + "</table>")
    assert md.count("The council voted") == 10 and "Another story" not in md
