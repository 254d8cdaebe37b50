"""The web tools through the dispatcher, against real servers on 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from jqmagic.core import payloads
from jqmagic.core.settings import settings
from jqmagic.tools import call
from jqmagic.tools.web import config_required
from tests.web_servers import BRAVE_KEY, GOOGLE_CX, GOOGLE_KEY, WebServer, fake_brave, fake_google

PAGE = ("<html><head><title>Guide</title><script>var x;</script></head><body><nav>MENU</nav>"
        "<article><h1>Guide</h1><p>Read <a href='/more'>more</a> and <strong>this</strong>. "
        + "Words that make the body of this page long enough to be its main content. " * 10
        + "</p><ul><li>one</li><li>two</li></ul></article></body></html>")


@pytest.fixture(scope="module")
def server():
    """One server for the module (stopping one takes half a second); routes are per test."""
    running = WebServer().start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def web(server, monkeypatch, tmp_path):
    """The server, with no proxies, credentials or sandbox, and payloads in a temp folder."""
    for name in ("BRAVE_API_KEY", "GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID",
                 "JQMAGIC_BRAVE_ENDPOINT", "JQMAGIC_GOOGLE_ENDPOINT", "JQMAGIC_SANDBOX",
                 "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    return server


def test_web_fetch_markdown(web):
    out = call("web_fetch", {"url": web.add("/guide", PAGE)})
    assert out["success"] is True and out["title"] == "Guide"
    assert out["url"] == web.url("/guide")
    assert out["content"].startswith("Read [more](")  # the h1 repeating the title goes
    assert "[more](" in out["content"] and "**this**" in out["content"]
    assert "MENU" not in out["content"] and "var x" not in out["content"]


def test_web_fetch_lines_and_redirect(web):
    text = "\n".join(f"l{i}" for i in range(1, 11))
    url = web.add("/t", text, "text/plain")
    page = call("web_fetch", {"url": web.redirect("/go", url), "offset": 3, "limit": 2})
    assert (page["content"], page["next_offset"], page["url"]) == ("l3\nl4", 5, url)
    past = call("web_fetch", {"url": url, "offset": 50})
    assert past["content"] == ""
    assert past["message"] == "No lines at offset 50: the page has 10 lines."


def test_web_fetch_json_has_no_duplicate_value(web):
    out = call("web_fetch", {"url": web.add("/api", '{"a": [1, 2]}', "application/json")})
    assert json.loads(out["content"]) == {"a": [1, 2]} and "value" not in out


def test_web_fetch_cuts_long_pages_at_a_line(web, monkeypatch):
    monkeypatch.setattr(settings, "max_message_bytes", 8_400)  # 400 bytes of content
    text = "\n".join(f"line {i:03d} " + "w" * 20 for i in range(1, 101))
    url = web.add("/long", text, "text/plain")
    out = call("web_fetch", {"url": url, "limit": 50})
    shown = out["content"].splitlines()
    assert shown[0].startswith("line 001") and len(out["content"]) <= 400
    assert out["next_offset"] == len(shown) + 1 and out["truncated"] is True
    assert out["message"].startswith(f"Truncated. Showing lines 1-{len(shown)} of 100")
    assert out["message"].endswith(f"Read on with offset={len(shown) + 1}, limit=50.")
    assert payloads.payload(out["payload_id"])["content"].count("\n") == 49
    more = call("web_fetch", {"url": url, "offset": out["next_offset"], "limit": 5})
    assert more["content"].startswith(f"line {len(shown) + 1:03d}")


@pytest.mark.parametrize(("request_", "code"), [
    ({"url": "ftp://example.com/x"}, "INVALID_URL"),
    ({"url": "http://127.0.0.1:9/"}, "NETWORK_ERROR"),
    ({"url": "x", "offset": 0}, "INVALID_ARGUMENT"),
    ({"url": "x", "lines": 3}, "INVALID_ARGUMENT"),
])
def test_web_fetch_errors(web, request_, code):
    out = call("web_fetch", request_)
    assert (out["success"], out["error_code"]) == (False, code)


def test_web_fetch_http_error(web):
    out = call("web_fetch", {"url": web.add("/gone", "x", "text/plain", status=404)})
    assert out["error_code"] == "HTTP_ERROR" and out["error"].startswith("HTTP 404")


def test_web_fetch_sandbox_refuses_loopback(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    out = call("web_fetch", {"url": web.add("/p", "x", "text/plain")})
    assert out["error_code"] == "SANDBOX_DENIED"


def test_brave(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    out = call("web_search_brave", {"query": "jq tips", "count": 5, "offset": 1,
                                    "blocked_domains": ["spam.com"]})
    assert out["success"] is True and out["count"] == 3 == len(out["results"])
    assert out["results"][0] == {"title": "jq tips result 0 & more",
                                 "url": "https://docs.python.org/page0",
                                 "snippet": "About jq tips number 0"}
    assert web.seen[-1].query == {"q": ["jq tips"], "count": ["5"], "offset": ["1"]}
    only = call("web_search_brave", {"query": "jq", "allowed_domains": ["python.org"]})
    assert {r["url"] for r in only["results"]} == {"https://docs.python.org/page0",
                                                   "https://docs.python.org/page5"}
    nothing = call("web_search_brave", {"query": "jq", "allowed_domains": ["nowhere.io"]})
    assert nothing["count"] == 0 and nothing["message"] == "No results for 'jq' (brave)."
    assert BRAVE_KEY not in json.dumps([out, only, nothing])


def test_google(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_GOOGLE_ENDPOINT", fake_google(web))
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", GOOGLE_CX)
    out = call("web_search_google", {"query": "jq", "num": 2, "start": 11})
    assert [r["url"] for r in out["results"]] == ["https://other.net/r11",
                                                  "https://en.wikipedia.org/r12"]
    assert web.seen[-1].query["start"] == ["11"] and web.seen[-1].query["num"] == ["2"]
    site = call("web_search_google", {"query": "jq", "allowed_domains": ["example.com"]})
    assert web.seen[-1].query["siteSearch"] == ["example.com"]
    assert all("example.com" in r["url"] for r in site["results"])


@pytest.mark.parametrize(("provider", "query", "code"), [
    ("brave", "ratelimit", "RATE_LIMIT"), ("brave", "boom", "API_ERROR"),
    ("google", "quota", "RATE_LIMIT"), ("google", "forbidden", "AUTH_INVALID")])
def test_search_errors(web, monkeypatch, provider, query, code):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    monkeypatch.setenv("JQMAGIC_GOOGLE_ENDPOINT", fake_google(web))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", GOOGLE_CX)
    out = call(f"web_search_{provider}", {"query": query})
    assert (out["success"], out["error_code"]) == (False, code)
    assert GOOGLE_KEY not in json.dumps(out)


def test_missing_credentials(web):
    out = call("web_search_google", {"query": "jq"})
    assert out["error_code"] == "AUTH_MISSING"
    assert "GOOGLE_SEARCH_API_KEY" in out["error"] and "programmablesearchengine" in out["hint"]
    assert call("web_search_google", {"query": "jq", "num": 11})["error_code"] == \
        "INVALID_ARGUMENT"


@pytest.mark.parametrize("provider", ["brave", "google"])
def test_config_required_event(web, provider):
    event = config_required(provider)
    assert event["kind"] == "config_required"
    assert event["content"].startswith("⚠ Configuration Required\n\n")
    assert '"web_search"' in event["content"] and "credentials.json" in event["content"]
    data = json.loads(event["data_json"])
    assert data["tool"] == f"web_search_{provider}"
    assert data.get("credential") == "api_key" or data["credentials"] == ["api_key",
                                                                          "engine_id"]


def test_web_fetch_pages_by_characters(web):
    text = "".join(f"{i:05d}" + '"' * 5 + "\n" for i in range(3_000))  # 33,000 characters
    url = web.add("/chars", text, "text/plain")
    first = call("web_fetch", {"url": url})
    assert first["content"] == text[:5_000] and first["start_index"] == 0
    assert (first["next_start_index"], first["total_chars"]) == (5_000, len(text) - 1)
    assert first["message"].endswith("Read on with start_index=5000.")
    got, answer = first["content"], first
    while answer["next_start_index"] is not None:  # follow every step the answers name
        answer = call("web_fetch", {"url": url, "start_index": answer["next_start_index"],
                                    "max_length": 12_000})
        got += answer["content"]
    assert got == text.rstrip("\n") and "message" not in answer
    past = call("web_fetch", {"url": url, "start_index": 10**6})
    assert past["content"] == "" and past["message"].startswith("No more content")


def test_web_fetch_honours_robots_txt(web):
    from jqmagic.core.web import robots

    robots.forget()
    web.add("/robots.txt", "User-agent: *\nDisallow: /private/\n", "text/plain")
    try:
        url = web.add("/private/page", "secret", "text/plain")
        refused = call("web_fetch", {"url": url})
        assert refused["error_code"] == "SANDBOX_DENIED" and "robots.txt" in refused["error"]
        assert call("web_fetch", {"url": web.add("/public", "ok", "text/plain")})["content"] \
            == "ok"
        opened = call("web_fetch", {"url": url}, no_sandbox=True, ignore_robots_txt=True)
        assert opened["content"] == "secret"
    finally:
        robots.forget()
        web.add("/robots.txt", "", "text/plain", status=404)


def test_web_fetch_answers_stay_within_the_bound_escaped(web):
    from jqmagic.tools.transport import limit, wire_size

    quotes = web.add("/quotes", "\n".join('"' * 99 for _ in range(4_000)), "text/plain")
    by_lines = call("web_fetch", {"url": quotes, "offset": 1})
    assert wire_size(by_lines) <= limit() and by_lines["next_offset"] > 1
    by_chars = call("web_fetch", {"url": quotes, "max_length": 200_000})
    assert wire_size(by_chars) <= limit() and by_chars["next_start_index"] > 0
    one = web.add("/one-line", "\\" * 300_000 + "\nafter", "text/plain")
    first = call("web_fetch", {"url": one, "limit": 5})
    assert wire_size(first) <= limit() and "start_index" in first["message"]
    assert call("web_fetch", {"url": one, "offset": first["next_offset"]})["content"] == "after"


def test_web_fetch_reads_the_comments_whole_paged_as_content(web):
    story = "<p>The council voted to widen the river path, a plan six years long.</p>" * 12
    thread = "".join(f"<div class='comment-body'><p>Reader {i} walks there every day and "
                     "writes at length about the mud in winter.</p></div>" for i in range(120))
    url = web.add("/post", f"<html><head><title>Path</title></head><body><div class='post'>"
                           f"{story}</div><div id='comments'>{thread}</div></body></html>")
    page = call("web_fetch", {"url": url})
    assert "Reader 3" not in page["content"] and "comments=true" in page["comments"]
    first = call("web_fetch", {"url": url, "comments": True, "max_length": 5000})
    assert first["content"].startswith("Reader 0") and "comments" not in first
    rest = call("web_fetch", {"url": url, "comments": True, **first["next_arguments"]})
    assert "Reader 119" in first["content"] + rest["content"]
    refused = call("web_fetch", {"url": url, "comments": True, "offset": 2})
    assert refused["success"] is False and "start_index" in refused["hint"]
