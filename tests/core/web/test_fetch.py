"""fetch() against real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import socket
import subprocess
import sys
import time

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.sandbox import AddressPolicy, is_private_address
from jqmagic.core.web.decode import decode
from jqmagic.core.web.download import check_url
from jqmagic.core.web.fetch import fetch
from tests.web_servers import drip, endless, slow

PAGE = """<!doctype html><html><head><title> Async  Guide </title>
<script>var tracking = "SCRIPT-TEXT";</script><style>.x{color:red}</style></head>
<body><nav><a href="/home">Home NAV-LINK</a></nav>
<header><p>SITE-HEADER banner</p></header>
<main><article><h1>Async Guide</h1>
<p>Rust futures are lazy, and they do nothing until polled. This paragraph explains
the idea, with enough words to be the main content of the page, by far.</p>
<h2>Details</h2><p>See <a href="docs/intro.html">the intro</a> and
<a href="https://other.example/x">elsewhere</a>, or <strong>bold</strong> text.</p>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
</article></main><footer>FOOTER-TEXT copyright</footer></body></html>"""


def refused(*args, **keywords) -> JqMagicError:
    """The error ``fetch(*args, **keywords)`` raises (the test fails when it raises none)."""
    with pytest.raises(JqMagicError) as caught:
        fetch(*args, **keywords)
    return caught.value


# -- HTML ------------------------------------------------------------------------------------
def test_html_page_becomes_markdown(web):
    url = web.add("/guide/page.html", PAGE)
    r = fetch(url)
    assert r.title == "Async Guide"
    assert r.final_url == r.url == url
    assert r.content_type == "text/html"
    assert r.status == 200
    assert "## Details" in r.content
    assert f"[the intro]({web.url('/guide/docs/intro.html')})" in r.content
    assert "[elsewhere](https://other.example/x)" in r.content
    assert "**bold**" in r.content
    assert "    - nested" in r.content or "  - nested" in r.content
    for chrome in ("SCRIPT-TEXT", "NAV-LINK", "FOOTER-TEXT", "SITE-HEADER", "color:red"):
        assert chrome not in r.content
    assert r.value is None
    assert r.total_lines == len(r.content.splitlines())


def test_raw_keeps_the_chrome(web):
    r = fetch(web.add("/p", PAGE), raw=True)
    assert "NAV-LINK" in r.content and "FOOTER-TEXT" in r.content
    assert "SCRIPT-TEXT" not in r.content  # markdownify never renders script text


def test_to_dict_has_the_spec_shape(web):
    d = fetch(web.add("/p", PAGE)).to_dict()
    assert d["success"] is True
    assert set(d) >= {"url", "title", "content", "total_lines", "next_offset"}
    assert "requested_url" not in d and "value" not in d
    json.dumps(d)


def test_user_agent_and_extra_headers_are_sent(web):
    fetch(web.add("/p", PAGE), headers={"X-Probe": "42"})
    sent = web.seen[-1].headers
    assert sent["user-agent"].startswith("jqmagic/")
    assert sent["x-probe"] == "42"


def test_gzip_body_is_decoded(web):
    body = gzip.compress(PAGE.encode())
    r = fetch(web.add("/gz", body, headers={"Content-Encoding": "gzip"}))
    assert "## Details" in r.content


# -- JSON and text -----------------------------------------------------------------------------
def test_json_stays_json(web):
    data = {"users": [{"name": "ana", "id": 1}, {"name": "bo", "id": 2}], "n": 2}
    r = fetch(web.add("/api", json.dumps(data), "application/json"))
    assert r.value == data
    assert json.loads(r.content) == data
    assert r.title == ""
    assert r.to_dict()["value"] == data


def test_vendor_json_type_is_json(web):
    r = fetch(web.add("/api", b'{"a": [1, 2]}', "application/vnd.api+json"))
    assert r.value == {"a": [1, 2]}


def test_untyped_json_is_sniffed(web):
    r = fetch(web.add("/api", b'[1, {"b": null}]', None))
    assert r.value == [1, {"b": None}]


def test_bad_json_is_parse_error(web):
    error = refused(web.add("/api", b'{"a": ', "application/json"))
    assert error.code == "PARSE_ERROR"
    assert "JSON" in error.message


def test_text_plain_passes_through(web):
    text = "line *one*\n<b>not html</b>\nthree\n"
    r = fetch(web.add("/t.txt", text, "text/plain; charset=utf-8"))
    assert r.content == text.rstrip("\n")
    assert r.total_lines == 3 and r.value is None


def test_binary_type_is_a_clear_error(web):
    error = refused(web.add("/img.png", b"\x89PNG\r\n\x1a\n\x00\x00", "image/png"))
    assert error.code == "PARSE_ERROR"
    assert "image/png" in error.message


def test_jq_on_html_is_refused(web):
    error = refused(web.add("/p", PAGE), jq=".a")
    assert error.code == "INVALID_ARGUMENT"
    assert "text/html" in error.message


@pytest.fixture
def jq_worker():
    """Stop the shared jq worker after the test (no process left at exit)."""
    yield
    from jqmagic.core.query.supervisor import shared_worker

    shared_worker().stop()


def test_jq_runs_on_json(web, jq_worker):
    data = {"users": [{"name": "ana"}, {"name": "bo"}]}
    r = fetch(web.add("/api", json.dumps(data), "application/json"), jq="[.users[].name]")
    assert r.value == ["ana", "bo"]
    assert json.loads(r.content) == ["ana", "bo"]
    several = fetch(web.url("/api"), jq=".users[].name")
    assert several.value == ["ana", "bo"] and several.content.splitlines() == ['"ana"', '"bo"']
    error = refused(web.url("/api"), jq=".users[")
    assert error.code == "INVALID_QUERY"


# -- offset / limit ----------------------------------------------------------------------------
def test_offset_and_limit_slice_lines(web):
    text = "\n".join(f"line {i}" for i in range(1, 11))
    url = web.add("/t", text, "text/plain")
    r = fetch(url, offset=3, limit=4)
    assert r.content.splitlines() == ["line 3", "line 4", "line 5", "line 6"]
    assert (r.total_lines, r.offset, r.next_offset) == (10, 3, 7)
    last = fetch(url, offset=r.next_offset, limit=100)
    assert last.content.splitlines()[-1] == "line 10" and last.next_offset is None
    exact = fetch(url, offset=7, limit=4)
    assert exact.next_offset is None


def test_offset_past_the_end_is_an_empty_success(web):
    r = fetch(web.add("/t", "a\nb\n", "text/plain"), offset=50)
    assert r.content == "" and r.total_lines == 2 and r.next_offset is None
    assert r.to_dict()["success"] is True


@pytest.mark.parametrize("kw", [{"offset": 0}, {"limit": 0}, {"offset": -2}])
def test_bad_window_is_invalid_argument(kw):
    error = refused("http://127.0.0.1:9/", **kw)
    assert error.code == "INVALID_ARGUMENT"


# -- redirects ---------------------------------------------------------------------------------
def test_redirects_are_followed_and_final_url_reported(web):
    final = web.add("/final", PAGE)
    web.redirect("/b", "/final", 302)
    start = web.redirect("/a", web.url("/b"), 301)
    r = fetch(start)
    assert r.url == start and r.final_url == final
    assert r.to_dict()["url"] == final and r.to_dict()["requested_url"] == start
    assert [s.path for s in web.seen] == ["/a", "/b", "/final"]


def test_redirect_limit(web):
    web.add("/end", "done", "text/plain")
    web.redirect("/r2", "/end")
    url = web.redirect("/r1", "/r2")
    assert fetch(url, max_redirects=2).content == "done"
    error = refused(url, max_redirects=1)
    assert error.code == "NETWORK_ERROR" and "redirects" in error.message


def test_redirect_loop_stops(web):
    web.redirect("/x", "/y")
    url = web.redirect("/y", "/x")
    error = refused(url)
    assert error.code == "NETWORK_ERROR"
    assert len(web.seen) == 11  # the first request plus 10 redirects


def test_credentials_not_forwarded_to_another_host(web):
    web.add("/land", "ok", "text/plain")
    url = web.redirect("/go", f"http://localhost:{web.port}/land")
    try:
        socket.getaddrinfo("localhost", web.port, socket.AF_INET)
    except OSError:
        pytest.skip("localhost does not resolve here")
    web.host = "127.0.0.1"
    fetch(url, headers={"Authorization": "Bearer s3cret", "X-Keep": "1"})
    first, second = web.seen[0].headers, web.seen[-1].headers
    assert first["authorization"] == "Bearer s3cret"
    assert "authorization" not in second and second["x-keep"] == "1"


# -- charsets ----------------------------------------------------------------------------------
def test_charset_from_header(web):
    body = "<html><head><title>Café</title></head><body><p>naïve über</p></body></html>"
    r = fetch(web.add("/l1", body.encode("latin-1"), "text/html; charset=ISO-8859-1"))
    assert r.title == "Café" and "naïve über" in r.content


def test_charset_from_meta(web):
    body = ('<html><head><meta charset="windows-1252"><title>Quote</title></head>'
            "<body><p>“curly” — dash</p></body></html>").encode("cp1252")
    r = fetch(web.add("/m", body, "text/html"))
    assert "“curly” — dash" in r.content


def test_shift_jis_meta_http_equiv(web):
    body = ('<html><head><meta http-equiv="Content-Type" content="text/html; '
            'charset=Shift_JIS"><title>日本語</title></head><body><p>こんにちは世界</p>'
            "</body></html>").encode("shift_jis")
    r = fetch(web.add("/sj", body, "text/html"))
    assert r.title == "日本語" and "こんにちは世界" in r.content


def test_unknown_charset_falls_back(web):
    body = "<html><title>ok</title><body><p>héllo wörld</p></body></html>".encode()
    r = fetch(web.add("/bogus", body, "text/html; charset=x-no-such-charset"))
    assert "héllo wörld" in r.content


def test_bytes_invalid_in_declared_charset_do_not_fail(web):
    body = b"<html><body><p>good \xff\xfe bad bytes</p></body></html>"
    r = fetch(web.add("/bad", body, "text/html; charset=utf-8"))
    assert "good" in r.content and "bad bytes" in r.content and "\ufffd" in r.content


def test_undeclared_latin1_text_is_guessed(web):
    body = ("Ceci est un texte français, déjà écrit en Latin-1, sans déclaration."
            ).encode("latin-1")
    r = fetch(web.add("/fr.txt", body, "text/plain"))
    assert "français" in r.content and "\ufffd" not in r.content


@pytest.mark.parametrize(
    ("body", "ctype", "expected"),
    [
        ("é".encode(), "", "é"),
        (b"\xef\xbb\xbfBOM", "text/plain", "BOM"),
        ("ü".encode("latin-1"), "text/plain; charset=latin-1", "ü"),
        ("ü".encode("utf-16"), "", "ü"),
    ],
)
def test_decode(body, ctype, expected):
    assert decode(body, ctype) == expected


# -- size and time caps ------------------------------------------------------------------------
def test_declared_length_over_cap_is_too_large(web):
    url = web.add("/big", b"x" * 5000, "text/plain")
    error = refused(url, max_bytes=1000)
    assert error.code == "TOO_LARGE" and "1,000" in error.message
    assert fetch(url, max_bytes=5000).total_lines == 1


def test_endless_body_stops_at_the_cap(web):
    url = web.handle("/endless", endless())
    t0 = time.monotonic()
    error = refused(url, max_bytes=1_000_000)
    assert error.code == "TOO_LARGE"
    assert time.monotonic() - t0 < 5


def test_slow_response_times_out(web):
    url = web.handle("/slow", slow(3.0))
    t0 = time.monotonic()
    error = refused(url, timeout=(2, 0.5))
    assert error.code == "NETWORK_ERROR" and "timed out" in error.message
    assert time.monotonic() - t0 < 2.5


def test_dripping_body_hits_the_total_timeout(web):
    url = web.handle("/drip", drip(b"." * 10, 0.2, 50))
    t0 = time.monotonic()
    error = refused(url, timeout=(2, 2), total_timeout=0.7)
    assert error.code == "NETWORK_ERROR" and "timed out" in error.message
    assert time.monotonic() - t0 < 3


# -- HTTP and network errors -------------------------------------------------------------------
@pytest.mark.parametrize(("status", "reason"), [(404, "Not Found"), (500, "Internal Server "
                                                                          "Error"), (403, "")])
def test_http_errors(web, status, reason):
    url = web.add("/e", b"nope", "text/plain", status=status)
    error = refused(url)
    assert error.code == "HTTP_ERROR"
    assert error.message.startswith(f"HTTP {status}")
    assert reason in error.message and error.hint


def test_connection_refused_is_network_error(clean_env):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    error = refused(f"http://127.0.0.1:{port}/")
    assert error.code == "NETWORK_ERROR" and "refused" in error.message


@pytest.mark.parametrize("url", ["ftp://example.com/f", "file:///etc/passwd", "example.com",
                                 "http://", "http://[::1/", "javascript:alert(1)",
                                 "http://host:99999/"])
def test_invalid_urls(url):
    error = refused(url)
    assert error.code == "INVALID_URL"


def test_missing_scheme_hint():
    error = refused("example.com/page")
    assert "https://example.com/page" in error.hint


def test_password_in_url_never_shown(web):
    url = web.add("/e", b"x", "text/plain", status=404).replace("http://", "http://u:pw9@")
    error = refused(url + "?token=abc")
    text = error.render()
    assert "pw9" not in text and "abc" not in text


# -- sandbox -----------------------------------------------------------------------------------
def test_loopback_allowed_when_sandbox_off(web):
    assert fetch(web.add("/t", "hi", "text/plain")).content == "hi"


def test_sandbox_refuses_loopback(web):
    url = web.add("/t", "hi", "text/plain")
    error = refused(url, private_addresses=False)
    assert error.code == "SANDBOX_DENIED"
    assert web.seen == []


def test_sandbox_env_setting(web, monkeypatch):
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    url = web.add("/t", "hi", "text/plain")
    error = refused(url)
    assert error.code == "SANDBOX_DENIED"
    assert fetch(url, private_addresses=True).content == "hi"


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/",
                                    "http://10.1.2.3/", "http://[::1]:8080/",
                                    "http://127.0.0.2/admin", "http://metadata.google.internal/",
                                    "http://224.0.0.1/", "http://0.0.0.0/"])
def test_sandbox_checks_every_redirect(web, target):
    url = web.redirect("/hop", target)
    error = refused(url, private_addresses=False, allowed_addresses=("127.0.0.1",))
    assert error.code == "SANDBOX_DENIED"
    assert [s.path for s in web.seen] == ["/hop"]


def test_sandbox_exemption_reaches_the_page(web):
    web.add("/t", "inside", "text/plain")
    url = web.redirect("/hop", "/t")
    r = fetch(url, private_addresses=False, allowed_addresses=("127.0.0.1",))
    assert r.content == "inside"


@pytest.mark.parametrize(("addr", "private"), [
    ("127.0.0.1", True), ("10.0.0.5", True), ("172.16.3.4", True), ("192.168.1.1", True),
    ("169.254.169.254", True), ("::1", True), ("fe80::1", True), ("fd00::1", True),
    ("::ffff:127.0.0.1", True), ("100.64.0.1", True), ("239.1.1.1", True),
    ("8.8.8.8", False), ("2606:4700::1111", False), ("93.184.216.34", False),
])
def test_is_private_address(addr, private):
    assert is_private_address(addr) is private


def test_check_url_public_literal_passes():
    _, host, port = check_url("https://93.184.216.34/")
    AddressPolicy(private_ok=False).check("https://93.184.216.34/", host, port)


def test_core_imports_without_ipython_or_network_libraries():
    code = ("import sys; sys.modules['IPython'] = None; "
            "import jqmagic.core.web.fetch, jqmagic.core.web.search; "
            "print(sorted(m for m in ('requests', 'bs4', 'markdownify') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
