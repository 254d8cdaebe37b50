"""robots.txt by RFC 9309: whether a site lets an automated agent fetch a URL.

The site's ``/robots.txt`` is fetched through the same download (sandbox, caps, at most
five redirects) and its first 500 KiB are parsed (RFC 9309 2.5), a UTF-8 BOM ignored.
Groups are chosen by jqmagic's product token (``jqmagic``, case-insensitive), else ``*``;
the longest matching rule wins, ``allow`` on a tie, ``*`` and ``$`` as the RFC says. A
robots.txt that is unavailable (4xx) allows everything, except 401 and 403, which refuse
automated fetching; one that is unreachable disallows everything (RFC 9309 2.3.1.4): a
5xx or a timeout is SANDBOX_DENIED, a network error fails the fetch with it; either is
asked again on the next fetch. Other answers are kept
per site for the process's life (an agent pages through one site).
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.errors import JqMagicError

ROBOTS_BYTES = 500 * 1024  # RFC 9309 2.5: parse at least the first 500 KiB
PRODUCT = "jqmagic"
_KEPT: dict[str, Rules] = {}


@dataclass
class Rules:
    """One site's robots.txt, read: rules per user agent (lower case), or a blanket
    answer (``everything``) with the reason for it."""

    groups: dict[str, list[tuple[bool, str]]] = field(default_factory=dict)
    everything: bool | None = None
    reason: str = ""

    def allows(self, path: str) -> bool:
        if self.everything is not None:
            return self.everything
        if path == "/robots.txt":
            return True
        rules = self.groups.get(PRODUCT) or self.groups.get("*") or []
        best, allowed = -1, True
        for allow, pattern in rules:
            if pattern and _matches(pattern, path) and (
                    len(pattern) > best or (len(pattern) == best and allow)):
                best, allowed = len(pattern), allow
        return allowed


def parse(text: str) -> Rules:
    """The groups of a robots.txt text (RFC 9309 2.1, 2.2): consecutive ``user-agent``
    lines open a group; ``allow`` / ``disallow`` lines add to every agent of it."""
    rules = Rules()
    agents: list[str] = []
    in_rules = False
    for raw in text.removeprefix("\ufeff").splitlines():
        line = raw.split("#", 1)[0].strip()
        key, colon, value = line.partition(":")
        if not colon:
            continue
        key, value = key.strip().lower(), value.strip()
        if key == "user-agent":
            if in_rules:
                agents, in_rules = [], False
            agents.append(value.lower() if value == "*" else
                          re.split(r"[^A-Za-z_-]", value, maxsplit=1)[0].lower())
            for agent in agents:
                rules.groups.setdefault(agent, [])
        elif key in ("allow", "disallow") and agents:
            in_rules = True
            for agent in agents:
                rules.groups[agent].append((key == "allow", _normal(value)))
    return rules


def _normal(path: str) -> str:
    """A path or pattern with its percent-encoding made uniform (RFC 9309 2.2.2)."""
    return urllib.parse.quote(urllib.parse.unquote(path), safe="/*$?=&;:@+,!~'()%-._")


def _matches(pattern: str, path: str) -> bool:
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(part) for part in body.split("*"))
    return re.match(regex + ("$" if anchored else ""), path) is not None


def check(url: str, fetch_robots: Any, agent: str) -> None:
    """SANDBOX_DENIED when the site's robots.txt disallows ``url`` for jqmagic (``agent``:
    the User-Agent sent); ``fetch_robots(robots_url)`` gives (status, text), the text cut
    at :data:`ROBOTS_BYTES`, or raises JqMagicError."""
    parts = urllib.parse.urlsplit(url)
    site = f"{parts.scheme}://{parts.netloc}"
    rules = _KEPT.get(site)
    if rules is None:
        rules = _read(site + "/robots.txt", fetch_robots)
        if rules.everything is not False or rules.reason.startswith("its robots.txt is"):
            _KEPT[site] = rules  # an unreachable one is asked again next time
    path = _normal(urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, "")))
    if not rules.allows(path):
        why = f" ({rules.reason})" if rules.reason else ""
        raise JqMagicError(
            "SANDBOX_DENIED", f"{site}/robots.txt does not let automated agents fetch "
            f"{url[:300]}{why}.",
            "Read another page of the site, or ask the user to fetch it or to restart the "
            "tools with robots.txt ignored (the ignore-robots-txt flag).")


def _read(robots_url: str, fetch_robots: Any) -> Rules:
    try:
        status, text = fetch_robots(robots_url)
    except JqMagicError as exc:
        said = re.match(r"HTTP (\d+)", exc.message) if exc.code == "HTTP_ERROR" else None
        code = int(said[1]) if said else 0
        if code in (401, 403):
            return Rules(everything=False, reason=f"its robots.txt is HTTP {code}")
        if 400 <= code < 500:
            return Rules(everything=True)
        if exc.code in ("NETWORK_ERROR", "INVALID_URL", "SANDBOX_DENIED"):
            raise  # nothing is fetched: the site is down, no web address, or refused
        return Rules(everything=False, reason="its robots.txt could not be read "
                     f"({exc.code}): RFC 9309 says to assume every page is disallowed")
    if status in (401, 403):
        return Rules(everything=False, reason=f"its robots.txt is HTTP {status}")
    return parse(text)


def forget() -> None:
    """Forget every site's answer (tests)."""
    _KEPT.clear()
