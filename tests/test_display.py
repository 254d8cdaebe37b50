"""What notebooks show: every HTML and markdown output keeps ``$`` from being typeset."""

from __future__ import annotations

from jqmagic import check
from jqmagic.core.web.fetch import FetchResult
from jqmagic.notebook.display import fetch_bundle


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


# -- query results: jq's text per result, the bound line always in view -----------------
def _html(result) -> str:
    from jqmagic.notebook.display import query_bundle

    return query_bundle(result)[0]["text/html"]


def test_a_stream_shows_one_block_per_result_never_an_array():
    from jqmagic import query

    html = _html(query(".[]", value=[1, [2, 3], "x"]))
    assert html.count("class='jqmagic-result'") == 3
    assert "3 results (a stream" in html
    assert "<pre" in html and "[\n  2,\n  3\n]" in html  # jq's own text of the array
    one = _html(query(".", value=[1, 2]))
    assert one.count("class='jqmagic-result'") == 1 and "a stream" not in one


def test_compact_and_raw_text_are_kept():
    from jqmagic import query

    assert "{&quot;a&quot;:1}" in _html(query(".", value={"a": 1}, compact=True))
    assert ">ann<" in _html(query(".name", value={"name": "ann"}, raw=True))


def test_truncation_line_payload_and_hint_are_shown_first():
    from jqmagic import query

    result = query(".[] | .nam", value=[{"name": i} for i in range(150)], limit=100)
    html = _html(result)
    note = html.index("jqmagic-note")
    assert note < html.index("jqmagic-result")
    assert "Showing 100 of 150 results" in html and result.payload_id in html
    assert "did you mean .[].name?" in html


def test_the_answer_is_shown_not_folded():
    from jqmagic import query
    from jqmagic.notebook.display import BOX_LINES

    record = {f"key{i}": i for i in range(BOX_LINES + 5)}
    one = _html(query(".[0]", value=[record]))
    assert "<details" not in one and "&quot;key16&quot;: 16" in one  # a single result: open
    assert "max-height:32em;overflow:auto" in one  # in a box of a sensible height
    few = _html(query(".[]", value=[record] * 5))  # 95 lines in all: every one open
    assert "<details" not in few and few.count("class='jqmagic-result'") == 5


def test_folding_goes_by_size_never_by_place():
    """Records of 11 to 14 lines, as issue 41 found them (items 9, 11 and 12 folded, 10
    and 13 open): a stream too long to show open folds every result of several lines,
    the first as the last; one-line results stay open beside them."""
    from jqmagic import query

    records = [{f"key{k}": k for k in range(9 + i % 4)} for i in range(20)]
    html = _html(query(".[]", value=records))
    assert html.count("<details") == 20 and "folded behind a preview" in html
    summary = html[html.index("<summary>"):html.index("</summary>")]
    assert "<code>{ &quot;key0&quot;: 0, &quot;key1&quot;: 1," in summary  # a preview
    assert "11 lines" in summary  # what is folded says its size
    mixed = _html(query(".[]", value=[*records, "short", 7]))
    assert mixed.count("<details") == 20 and ">&quot;short&quot;</pre>" in mixed
    assert mixed.count("class='jqmagic-result'") == 22


def test_the_truncation_line_reads_as_sentences():
    """Each sentence ends, the program stands in code that never breaks inside a line's
    width, --all comes before the hint, and nulls are not paged through."""
    from jqmagic import query
    from jqmagic.core.query.bounds import and_then
    from jqmagic.notebook.display import hint_first, note_html

    result = query(".[] | .name", value=[{"name": i} for i in range(300)], limit=100)
    assert result.message.endswith("Refine the query, or run `[.[] | .name][100:200][]` "
                                   "for the next 100.")
    note = note_html(result.message)
    assert "<code style='display:inline-block;max-width:100%;white-space:pre-wrap" in note
    assert ">[.[] | .name][100:200][]</code> for the next 100.</div>" in note
    nulls = query(".[] | .nam", value=[{"name": i} for i in range(300)], limit=100)
    assert "[100:200]" not in nulls.message and "The 100 shown are all null" in nulls.message
    shown = hint_first(and_then(nulls.message, "Use --all to show everything."))
    assert shown.startswith("Hint: no key .nam at .[]; did you mean .[].name? Truncated. ")
    assert shown.endswith("refine the query. Use --all to show everything.")
    last = query(".[]", value=list(range(150)), limit=100).message
    assert last.endswith("run `.[100:200][]` for the next 50."), last


def test_did_you_mean_comes_first():
    from jqmagic import query
    from jqmagic.notebook.display import query_bundle

    bundle = query_bundle(query(".[] | .nam", value=[{"name": i} for i in range(150)],
                                limit=100))[0]
    for text in (bundle["text/plain"].splitlines()[-1], bundle["text/html"]):
        assert text.index("did you mean .[].name?") < text.index("Showing 100 of 150")


def test_every_mime_type_is_bounded():
    from jqmagic import query
    from jqmagic.core.settings import settings
    from jqmagic.notebook.display import query_bundle

    result = query(".", value=["x" * 100] * 5000, passthrough=True)
    bundle, _ = query_bundle(result)
    limit = settings.max_tokens * 4
    assert len(result.text) > limit
    assert all(len(v) < limit * 1.5 for v in bundle.values())
    assert "cut here: the output" in bundle["text/html"]


def test_html_keeps_dollars_from_mathjax():
    from jqmagic import query

    html = _html(query(".", value="$5 and $20"))
    assert "$" not in html and "tex2jax_ignore" in html


def test_inspect_shows_its_readable_tree():
    from jqmagic import shape
    from jqmagic.notebook.display import shape_bundle

    bundle, _ = shape_bundle(shape(value={"users": [{"id": 1}, {"id": 2, "name": "a"}]}))
    assert "application/json" not in bundle
    assert "name  string  (1/2)" in bundle["text/plain"]
    assert "name  string  (1/2)" in bundle["text/html"]


def test_the_notebook_line_says_use_all_before_a_hint_and_not_for_nulls(ip):
    """%jq's line: '--all' joins the truncation's sentences (it came after the hint, between
    it and 'Truncated.' once the hint moved first); a stream of nulls is not paged."""
    from jqmagic.notebook.display import query_bundle

    ip.user_ns["recs"] = [{"name": f"n{i}"} for i in range(300)]
    names = ip.run_line_magic("jq", "'.[] | .name' recs")
    assert names.message.endswith("for the next 100. Use --all to show everything.")
    nulls = ip.run_line_magic("jq", "'.[] | .nam' recs")
    note = query_bundle(nulls)[0]["text/plain"].splitlines()[-1]
    assert note.startswith("Hint: no key .nam at .[]; did you mean .[].name? Truncated. ")
    assert note.endswith("The 100 shown are all null: refine the query.")
    assert "--all" not in note and "[100:200]" not in note
