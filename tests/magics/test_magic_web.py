"""%webfetch and %websearch in a real IPython shell, against servers on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from IPython.core.error import UsageError

from tests.web_servers import BRAVE_KEY, WebServer, fake_brave

PAGE = ("<html><head><title>Guide</title></head><body><nav>MENU-LINK</nav><article>"
        "<h2>Install</h2><p>" + "Read this to install the tool, step by step. " * 20
        + "</p><pre class='language-bash'>pip install x</pre></article></body></html>")


@pytest.fixture
def web(monkeypatch, tmp_path):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY",
                 "BRAVE_API_KEY", "GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID",
                 "JQMAGIC_SANDBOX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    server = WebServer().start()
    try:
        yield server
    finally:
        server.stop()


def test_webfetch_renders_markdown(web, ip, run_cell):
    url = web.add("/guide", PAGE)
    result = run_cell(f"%webfetch {url}")
    assert result.title == "Guide" and "MENU-LINK" not in result.content
    bundle, _ = ip.display_formatter.format(result)
    assert "```bash\npip install x\n```" in bundle["text/plain"]
    assert bundle["text/markdown"].split("\n\n", 1)[1].startswith(f"**Guide** <{url}>")


def test_webfetch_paging_note(web, ip, run_cell):
    url = web.add("/t", "\n".join(f"row {i}" for i in range(1, 21)), "text/plain")
    result = run_cell(f"%webfetch {url} --offset 5 --limit 3")
    text = ip.display_formatter.format(result)[0]["text/plain"]
    assert text.splitlines() == ["row 5", "row 6", "row 7",
                                 "Lines 5-7 of 20. Read on with --offset 8."]


def test_webfetch_window_of_a_page_says_where_it_is_and_keeps_alt_text(web, ip, run_cell):
    """--offset/--limit on a page: the notebook's markdown starts with "Lines 40-79 of N"
    in a paragraph of its own (it ran into the last line before); the last window says it
    is the end; an image's alt text stays (issue 41)."""
    rows = "".join(f"<p>Paragraph {i} of the notes, kept as content by its length.</p>"
                   for i in range(1, 60))
    url = web.add("/notes", "<html><head><title>Notes</title></head><body><article>"
                  "<h1>Notes</h1>" + rows + "<p><img src='/chart.png' alt='Sales by month, "
                  "2025'></p><p>After the chart, the last words of the notes.</p>"
                  "</article></body></html>")
    whole = run_cell(f"%webfetch {url}")
    window = run_cell(f"%webfetch {url} --offset 40 --limit 40")
    markdown = ip.display_formatter.format(window)[0]["text/markdown"]
    note = f"Lines 40-79 of {whole.total_lines:,}. Read on with --offset 80."
    assert f"<{url}>\n\n*{note}*\n\n" in markdown
    last = run_cell(f"%webfetch {url} --offset 80 --limit 200")
    markdown = ip.display_formatter.format(last)[0]["text/markdown"]
    assert f"*Lines 80-{whole.total_lines:,} of {whole.total_lines:,}. The end of the page.*"\
        in markdown
    assert "![Sales by month, 2025](" in markdown
    plain = ip.display_formatter.format(run_cell(f"%webfetch {url}"))[0]["text/markdown"]
    assert "Lines " not in plain  # the whole page: no window to say


def test_webfetch_json_jq_and_out(web, ip, run_cell):
    url = web.add("/api", json.dumps({"a": {"b": [1, 2, 3]}}), "application/json")
    result = run_cell(f"%webfetch {url} --jq '.a.b | map(. * 10)' -H 'X-A: 1'")
    assert result.value == [10, 20, 30]
    bundle, _ = ip.display_formatter.format(result)
    assert "[\n  10,\n  20,\n  30\n]" in bundle["text/html"]
    ip.run_line_magic("webfetch", f"{url} -o doc")
    assert ip.user_ns["doc"] == {"a": {"b": [1, 2, 3]}}
    assert web.seen[0].headers["x-a"] == "1"


def test_webfetch_keeps_dollar_signs(web, run_cell):
    url = web.add("/api", json.dumps({"x": 5}), "application/json")
    assert run_cell(f"%webfetch {url} --jq '. as $v | $v.x'").value == 5


def test_webfetch_errors_are_one_line(web, ip):
    url = web.add("/gone", b"", "text/plain", status=404)
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("webfetch", url)
    assert exc.value.code == "HTTP_ERROR" and str(exc.value).startswith("HTTP_ERROR: HTTP 404")
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("webfetch", "file:///etc/passwd")
    assert exc.value.code == "INVALID_URL"


def test_webfetch_help(ip, capsys):
    ip.run_line_magic("webfetch", "-h")
    assert "--offset" in capsys.readouterr().out


def test_websearch_lists_links(web, ip, run_cell, monkeypatch):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    result = run_cell("%websearch jq tricks --count 5 --allow example.com --allow python.org")
    assert [r["url"] for r in result.results] == ["https://docs.python.org/page0",
                                                  "https://www.example.com/page1"]
    bundle, _ = ip.display_formatter.format(result)
    assert bundle["text/markdown"].split("\n\n", 1)[1].startswith("- [jq tricks result 0 & more]"
                                              "(https://docs.python.org/page0)")
    ip.run_line_magic("websearch", "jq --count 2 -o hits")
    assert len(ip.user_ns["hits"]) == 2


def test_websearch_without_key(web, ip):
    with pytest.raises(UsageError) as exc:
        ip.run_line_magic("websearch", "anything at all")
    assert exc.value.code == "AUTH_MISSING" and "brave.com/search/api" in str(exc.value)
