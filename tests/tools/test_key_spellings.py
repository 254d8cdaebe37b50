"""Issue 54: a search endpoint echoing the saved key reversed (whole, case-changed or cut)
gets none of it to the agent, in results or in an error."""

from __future__ import annotations

import json

import pytest

from jqmagic.tools import call
from tests.web_servers import send

KEY = "brv-Secret+Key/0123456789"
ECHOES = {"reversed": KEY[::-1], "reversed upper": KEY[::-1].upper(),
          "reversed cut": KEY[::-1][3:14], "swapped": KEY.swapcase()[2:12]}


def leaks(text: str) -> list[str]:
    low = text.lower()
    runs = [KEY[i:i + 8].lower() for i in range(len(KEY) - 7)]
    return [r for r in runs if r in low or r[::-1] in low]


@pytest.fixture
def echoing(web, monkeypatch):
    def handler(h) -> None:
        if "fail" in h.path:
            body = {"error": {"detail": " ".join(ECHOES.values()), "status": 403}}
            return send(h, 403, json.dumps(body).encode(), "application/json")
        results = [{"title": f"{name}: {echo}", "url": f"https://example.com/?k={echo}",
                    "description": f"key {echo} end"} for name, echo in ECHOES.items()]
        send(h, 200, json.dumps({"web": {"results": results}}).encode(), "application/json")

    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", web.handle("/b", handler))
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    return web


def test_a_reversed_key_reaches_no_result(echoing):
    answer = call("web_search_brave", {"query": "jq"})
    text = json.dumps(answer, ensure_ascii=False)
    assert answer["success"] and len(answer["results"]) == len(ECHOES)
    assert not leaks(text), (leaks(text), text)
    assert "end" in answer["results"][0]["snippet"]  # the rest of the text stays


def test_a_reversed_key_reaches_no_error(echoing):
    answer = call("web_search_brave", {"query": "fail"})
    text = json.dumps(answer, ensure_ascii=False)
    assert not answer["success"] and "403" in text
    assert not leaks(text), (leaks(text), text)
