"""Issue 40: a search endpoint (or a proxy) that echoes the API key, in any spelling a
server may use, never gets it into an answer: verbatim, URL-encoded (path and form),
upper and lower case, HTML-escaped, or a fragment of 8 characters or more."""

from __future__ import annotations

import html
import json
from urllib.parse import quote, quote_plus

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web.search import _scrub, search
from jqmagic.tools import call
from tests.web_servers import send

KEY = "AIza+Sy/Qk9=Zx7&Lm2Pq"
ECHOES = {"verbatim": KEY, "encoded": quote(KEY, safe=""), "form": quote_plus(KEY),
          "upper": KEY.upper(), "lower": KEY.lower(), "html": html.escape(KEY),
          "fragment": KEY[5:14], "encoded fragment": quote(KEY, safe="")[3:15]}


def leaks(text: str) -> list[str]:
    low = text.lower()
    return [name for name, echo in ECHOES.items() if echo.lower() in low] + \
        [f"run {KEY[i:i + 8]}" for i in range(len(KEY) - 7) if KEY[i:i + 8].lower() in low]


@pytest.fixture
def echoing(web, monkeypatch):
    """A Google-shaped endpoint that puts every spelling of its key in its answers."""

    def handler(h) -> None:
        items = [{"title": f"{name}: {echo}", "link": f"https://example.com/?k={echo}",
                  "snippet": f"key {echo} end"} for name, echo in ECHOES.items()]
        if "fail" in h.path:
            body = {"error": {"code": 500, "message": " ".join(ECHOES.values())}}
            return send(h, 500, json.dumps(body).encode(), "application/json")
        send(h, 200, json.dumps({"items": items}).encode(), "application/json")

    monkeypatch.setenv("JQMAGIC_GOOGLE_ENDPOINT", web.handle("/g", handler))
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", "cx-1")
    return web


def test_no_spelling_reaches_the_results(echoing):
    found = search("jq", provider="google", count=10)
    text = json.dumps(found.to_dict(), ensure_ascii=False)
    assert len(found.results) == len(ECHOES) and not leaks(text), leaks(text)
    assert found.results[0]["url"].startswith("https://example.com/?k=")  # the rest stays


def test_no_spelling_reaches_an_error(echoing):
    with pytest.raises(JqMagicError) as caught:
        search("fail", provider="google")
    said = caught.value.render("agent")
    assert "HTTP 500" in said and not leaks(said), leaks(said)


def test_no_spelling_reaches_the_tools_answer(echoing):
    out = call("web_search_google", {"query": "jq"})
    assert out["success"] and not leaks(json.dumps(out, ensure_ascii=False))


def test_scrub_keeps_what_is_not_the_key():
    assert _scrub("a short AIza word and Sy/Qk9 bits", [KEY]) == "a short AIza word and Sy/Qk9 bits"
    assert _scrub("xx" + KEY[2:12].swapcase() + "yy", [KEY]) == "xx***yy"
