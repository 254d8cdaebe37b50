"""robots.txt by RFC 9309 (issue 40): unreachable disallows everything, the first 500 KiB
are read, a BOM is ignored, the longest rule wins, jqmagic's own group before ``*``."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web import robots
from jqmagic.core.web.fetch import fetch


@pytest.fixture
def site(web):
    robots.forget()
    yield web
    robots.forget()


def refused(url: str) -> bool:
    try:
        fetch(url, robots=True, private_addresses=True)
    except JqMagicError as exc:
        assert exc.code == "SANDBOX_DENIED", exc
        return True
    return False


@pytest.mark.parametrize("status", [500, 503])
def test_a_server_error_disallows_and_is_asked_again(site, status):
    site.add("/robots.txt", "oops", "text/plain", status=status)
    page = site.add("/page", "hello", "text/plain")
    assert refused(page)
    site.add("/robots.txt", "User-agent: *\nAllow: /\n", "text/plain")
    assert not refused(page)  # not kept: the next fetch asks again


def test_an_unreachable_robots_txt_fails_the_fetch(site):
    import socket

    with socket.socket() as free:  # a port nothing listens on once closed
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    site.redirect("/robots.txt", f"http://127.0.0.1:{port}/robots.txt")
    page = site.add("/page", "hello", "text/plain")
    with pytest.raises(JqMagicError) as caught:
        fetch(page, robots=True, private_addresses=True)
    assert caught.value.code == "NETWORK_ERROR" and "robots.txt" in caught.value.message
    assert "/page" not in [seen.path for seen in site.seen]  # never fetched


def test_a_missing_robots_txt_allows(site):
    site.add("/robots.txt", "no", "text/plain", status=404)
    assert not refused(site.add("/page", "hello", "text/plain"))


def test_thirty_megabytes_are_read_for_their_first_500_kib(site):
    text = "User-agent: *\nDisallow: /\n" + "# padding line\n" * 2_000_000
    site.add("/robots.txt", text, "text/plain")
    assert len(text) > 30_000_000
    assert refused(site.add("/page", "hello", "text/plain"))


def test_a_rule_past_500_kib_is_not_read(site):
    text = "User-agent: *\n" + "# padding line\n" * 40_000 + "Disallow: /\n"
    site.add("/robots.txt", text, "text/plain")
    assert not refused(site.add("/page", "hello", "text/plain"))


def test_a_bom_does_not_hide_the_first_user_agent(site):
    site.add("/robots.txt", "\ufeffUser-agent: *\nDisallow: /private\n", "text/plain")
    assert refused(site.add("/private/a", "secret", "text/plain"))
    assert not refused(site.add("/public", "ok", "text/plain"))


def test_the_longest_rule_wins_and_wildcards_match():
    rules = robots.parse("User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\n"
                         "Disallow: /*.pdf$\n\nUser-agent: JQMagic/2\nDisallow: /mine\n")
    star = robots.Rules(groups={"*": rules.groups["*"]})
    assert not star.allows("/docs/a") and star.allows("/docs/public/a")
    assert not star.allows("/x/report.pdf") and star.allows("/x/report.pdf?x=1")
    assert not rules.allows("/mine/1") and rules.allows("/docs/a")  # its own group only
    assert rules.allows("/robots.txt")
