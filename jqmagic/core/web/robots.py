"""robots.txt: whether a site lets an automated agent fetch a URL (the agent faces ask).

The site's ``/robots.txt`` is fetched through the same download (sandbox, caps) and read by
the standard library's parser for jqmagic's user agent. A site that answers 401 or 403 for
it refuses automated fetching; one without it (404, any other error) allows everything.
Answers are kept per site for the process's life (an agent pages through one site).
"""

from __future__ import annotations

import urllib.parse
import urllib.robotparser
from typing import Any

from jqmagic.core.errors import JqMagicError

ROBOTS_BYTES = 512_000
_KEPT: dict[str, urllib.robotparser.RobotFileParser | bool] = {}


def check(url: str, fetch_robots: Any, agent: str) -> None:
    """SANDBOX_DENIED when the site's robots.txt disallows ``url`` for ``agent``;
    ``fetch_robots(robots_url)`` gives (status, text) or raises JqMagicError."""
    parts = urllib.parse.urlsplit(url)
    site = f"{parts.scheme}://{parts.netloc}"
    rules = _KEPT.get(site)
    if rules is None:
        rules = _KEPT[site] = _read(site + "/robots.txt", fetch_robots)
    allowed = rules if isinstance(rules, bool) else rules.can_fetch(agent, url)
    if not allowed:
        raise JqMagicError(
            "SANDBOX_DENIED", f"{site}/robots.txt does not let automated agents fetch "
            f"{url[:300]}.",
            "Read another page of the site, or ask the user to fetch it or to restart the "
            "tools with robots.txt ignored (the ignore-robots-txt flag).")


def _read(robots_url: str, fetch_robots: Any) -> urllib.robotparser.RobotFileParser | bool:
    try:
        status, text = fetch_robots(robots_url)
    except JqMagicError as exc:
        return not (exc.code == "HTTP_ERROR" and exc.message.startswith(("HTTP 401",
                                                                         "HTTP 403")))
    if status in (401, 403):
        return False
    parser = urllib.robotparser.RobotFileParser(robots_url)
    parser.parse(text.splitlines())
    return parser


def forget() -> None:
    """Forget every site's answer (tests)."""
    _KEPT.clear()
