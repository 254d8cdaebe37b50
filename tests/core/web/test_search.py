"""search() against fake Brave and Google APIs on 127.0.0.1."""

from __future__ import annotations

import json
import socket

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web.search import credentials, credentials_path, domain_matches, search
from tests.web_servers import BRAVE_KEY, GOOGLE_CX, GOOGLE_KEY, fake_brave, fake_google, slow


@pytest.fixture
def brave(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    return web


@pytest.fixture
def google(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_GOOGLE_ENDPOINT", fake_google(web))
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", GOOGLE_CX)
    return web


def no_secret(exc: JqMagicError) -> None:
    text = exc.render() + json.dumps(exc.to_dict()) + repr(exc.args)
    assert BRAVE_KEY not in text and GOOGLE_KEY not in text


# -- Brave -------------------------------------------------------------------------------------
def test_brave_maps_results(brave):
    r = search("rust async", count=3)
    assert r.provider == "brave" and r.count == 3
    first = r.results[0]
    assert first == {"title": "rust async result 0 & more",
                     "url": "https://docs.python.org/page0",
                     "snippet": "About rust async number 0"}
    d = r.to_dict()
    assert d == {"success": True, "results": r.results, "count": 3}
    sent = brave.seen[-1]
    assert sent.query == {"q": ["rust async"], "count": ["3"], "offset": ["0"]}
    assert sent.headers["x-subscription-token"] == BRAVE_KEY


def test_brave_domain_filters_include_subdomains(brave):
    allowed = search("x y", count=10, allowed_domains=["example.com", "spam.com"])
    hosts = {u["url"].split("/")[2] for u in allowed.results}
    assert hosts == {"www.example.com", "spam.com", "blog.spam.com"}
    blocked = search("x y", count=10, blocked_domains=["https://spam.com/"])
    assert all("spam.com" not in u["url"] for u in blocked.results)
    assert blocked.count == 6


def test_brave_offset_passes_through(brave):
    search("paging", count=2, offset=3)
    assert brave.seen[-1].query["offset"] == ["3"]


def test_brave_invalid_key(brave, monkeypatch):
    monkeypatch.setenv("BRAVE_API_KEY", "wrong-key-000")
    with pytest.raises(JqMagicError) as ei:
        search("hello")
    assert ei.value.code == "AUTH_INVALID" and "401" in ei.value.message
    assert "wrong-key-000" not in ei.value.render()


def test_brave_rate_limit(brave):
    with pytest.raises(JqMagicError) as ei:
        search("ratelimit")
    assert ei.value.code == "RATE_LIMIT" and "2,000/month" in ei.value.message
    no_secret(ei.value)


def test_brave_server_error_is_api_error(brave):
    with pytest.raises(JqMagicError) as ei:
        search("boom")
    assert ei.value.code == "API_ERROR" and "500" in ei.value.message
    assert "internal failure" in ei.value.message


def test_brave_non_json_answer_is_api_error(brave):
    with pytest.raises(JqMagicError) as ei:
        search("notjson")
    assert ei.value.code == "API_ERROR"


# -- Google ------------------------------------------------------------------------------------
def test_google_maps_results_and_params(google):
    r = search("jq manual", provider="google", count=4, offset=10)
    assert r.count == 4
    assert r.results[0] == {"title": "jq manual hit 11", "url": "https://other.net/r11",
                            "snippet": "Snippet 11"}
    q = google.seen[-1].query
    assert q["num"] == ["4"] and q["start"] == ["11"] and q["cx"] == [GOOGLE_CX]
    assert "siteSearch" not in q


def test_google_single_domain_goes_to_site_search(google):
    r = search("jq manual", provider="google", allowed_domains=["example.com"])
    q = google.seen[-1].query
    assert q["siteSearch"] == ["example.com"] and q["siteSearchFilter"] == ["i"]
    assert r.results and all(domain_matches(x["url"], "example.com") for x in r.results)
    search("jq manual", provider="google", blocked_domains=["other.net"])
    q = google.seen[-1].query
    assert q["siteSearch"] == ["other.net"] and q["siteSearchFilter"] == ["e"]


def test_google_two_blocked_domains_filter_locally(google):
    r = search("jq manual", provider="google", blocked_domains=["other.net", "example.com"])
    assert "siteSearch" not in google.seen[-1].query
    assert {x["url"].split("/")[2] for x in r.results} == {"en.wikipedia.org"}


def test_google_quota_is_rate_limit(google):
    with pytest.raises(JqMagicError) as ei:
        search("quota", provider="google")
    assert ei.value.code == "RATE_LIMIT" and "100/day" in ei.value.message


def test_google_other_403_is_auth_invalid(google):
    with pytest.raises(JqMagicError) as ei:
        search("forbidden", provider="google")
    assert ei.value.code == "AUTH_INVALID"


def test_google_bad_key_is_auth_invalid_without_the_key(google, monkeypatch):
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", "bad-google-key-999")
    with pytest.raises(JqMagicError) as ei:
        search("anything", provider="google")
    assert ei.value.code == "AUTH_INVALID"
    assert "bad-google-key-999" not in ei.value.render()


def test_google_error_echoing_the_key_is_scrubbed(google):
    with pytest.raises(JqMagicError) as ei:
        search("boom", provider="google")
    assert ei.value.code == "API_ERROR" and "503" in ei.value.message
    assert "***" in ei.value.message
    no_secret(ei.value)


def test_no_results_is_not_an_error(google):
    r = search("empty", provider="google")
    assert r.count == 0 and r.to_dict() == {"success": True, "results": [], "count": 0}
    assert "No results" in r.to_markdown()


def test_markdown_rendering(brave):
    md = search("md test", count=2).to_markdown()
    assert md.splitlines()[0].rstrip() == "- [md test result 0 & more](https://docs.python.org/page0)"
    assert "About md test number 0" in md


# -- credentials -------------------------------------------------------------------------------
def test_missing_credentials(clean_env):
    with pytest.raises(JqMagicError) as ei:
        search("hello")
    e = ei.value
    assert e.code == "AUTH_MISSING" and "BRAVE_API_KEY" in e.message
    assert "https://brave.com/search/api/" in e.hint and str(credentials_path()) in e.hint
    with pytest.raises(JqMagicError) as ei:
        search("hello", provider="google")
    assert "GOOGLE_SEARCH_ENGINE_ID" in ei.value.message
    assert "programmablesearchengine" in ei.value.hint


def test_credentials_file(web, clean_env, monkeypatch):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", fake_brave(web))
    path = clean_env / "jqmagic" / "credentials.json"
    assert credentials_path() == path
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"web_search": {"brave": {"api_key": BRAVE_KEY},
                                               "google": {"api_key": "g"}}}))
    assert search("from file", count=1).count == 1
    with pytest.raises(JqMagicError) as ei:  # google lacks engine_id
        credentials("google")
    assert ei.value.code == "AUTH_MISSING" and "GOOGLE_SEARCH_ENGINE_ID" in ei.value.message


def test_environment_beats_the_file(clean_env, monkeypatch):
    path = clean_env / "jqmagic" / "credentials.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"web_search": {"brave": {"api_key": "from-file"}}}))
    monkeypatch.setenv("BRAVE_API_KEY", "from-env")
    assert credentials("brave") == {"api_key": "from-env"}


def test_broken_credentials_file(clean_env):
    path = clean_env / "jqmagic" / "credentials.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(JqMagicError) as ei:
        credentials("brave")
    assert ei.value.code == "AUTH_MISSING" and "could not be read" in ei.value.message


# -- arguments and network ---------------------------------------------------------------------
@pytest.mark.parametrize(("kw", "fragment"), [
    ({"query": "x"}, "2 characters"),
    ({"query": "ok", "provider": "bing"}, "provider"),
    ({"query": "ok", "count": 21}, "1-20"),
    ({"query": "ok", "provider": "google", "count": 11}, "1-10"),
    ({"query": "ok", "provider": "google", "offset": 91}, "out of range"),
    ({"query": "ok", "offset": -1}, "out of range"),
])
def test_invalid_arguments(clean_env, kw, fragment):
    with pytest.raises(JqMagicError) as ei:
        search(**kw)
    assert ei.value.code == "INVALID_ARGUMENT" and fragment in ei.value.message


def test_unreachable_endpoint_is_network_error(clean_env, monkeypatch):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    monkeypatch.setenv("JQMAGIC_GOOGLE_ENDPOINT", f"http://127.0.0.1:{port}/cse")
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", GOOGLE_CX)
    with pytest.raises(JqMagicError) as ei:
        search("hello", provider="google")
    assert ei.value.code == "NETWORK_ERROR"
    no_secret(ei.value)
    assert ei.value.__cause__ is None and ei.value.__suppress_context__


def test_slow_endpoint_times_out(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", web.handle("/slow", slow(2.0)))
    monkeypatch.setenv("BRAVE_API_KEY", BRAVE_KEY)
    with pytest.raises(JqMagicError) as ei:
        search("hello", timeout=(1, 0.3))
    assert ei.value.code == "NETWORK_ERROR" and "timed out" in ei.value.message


@pytest.mark.parametrize(("url", "domain", "match"), [
    ("https://example.com/a", "example.com", True),
    ("https://docs.example.com/a", "example.com", True),
    ("https://notexample.com/a", "example.com", False),
    ("https://example.com.evil.net/", "example.com", False),
    ("https://EXAMPLE.com./", "example.com", True),
])
def test_domain_matches(url, domain, match):
    assert domain_matches(url, domain) is match
