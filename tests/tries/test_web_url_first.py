"""web_fetch (robots.txt honoured, as agents run it) refuses a bad URL or a refused address
as that: it read the site's robots.txt first and said "Refused URL 'file:///robots.txt'"
for file:///etc/passwd, a URL the agent never gave."""

from __future__ import annotations

import pytest

import jqmagic.tools as tools


@pytest.mark.parametrize("url, said", [
    ("file:///etc/passwd", "Refused URL 'file:///etc/passwd'"),
    ("ftp://x.example/a", "Refused URL 'ftp://x.example/a'"),
    ("example.com/x", "Malformed URL 'example.com/x': no scheme"),
])
def test_the_url_given_is_named(url, said):
    out = tools.call("web_fetch", {"url": url})
    assert out["error_code"] == "INVALID_URL" and out["error"].startswith(said), out
    assert "robots.txt" not in out["error"]


def test_a_private_address_is_refused_as_that():
    """It was "robots.txt does not let automated agents fetch ..." with a hint to ignore
    robots.txt, which would not have helped: the address itself is refused."""
    out = tools.call("web_fetch", {"url": "http://127.0.0.1:9/x"})
    assert out["error_code"] == "SANDBOX_DENIED" and "private" in out["error"]
    assert "robots" not in out["hint"] and "does not let" not in out["error"]
