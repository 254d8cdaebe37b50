"""Web search through Brave or Google Custom Search, in one result format.

Credentials come from the environment, then ``$XDG_CONFIG_HOME/jqmagic/credentials.json``;
a key never appears in a result, a message or a hint.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import env_text, settings
from jqmagic.core.web.download import get_within

BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
GOOGLE_ENDPOINT = "https://www.googleapis.com/customsearch/v1"
PROVIDERS = ("brave", "google")
TIMEOUT = (10.0, 20.0)
_GOOGLE_QUOTA = {"dailyLimitExceeded", "rateLimitExceeded", "userRateLimitExceeded",
                 "quotaExceeded", "RATE_LIMIT_EXCEEDED", "RESOURCE_EXHAUSTED"}

AUTH_HELP = {
    "brave": (
        "Brave Search offers 2,000 free searches/month. Get a key at "
        "https://brave.com/search/api/ and set BRAVE_API_KEY, or add it to {path} as "
        "'web_search.brave.api_key'."
    ),
    "google": (
        "Google Custom Search offers 100 free searches/day. Get an API key at "
        "https://developers.google.com/custom-search/v1/overview and a Search Engine ID at "
        "https://programmablesearchengine.google.com/controlpanel/create; set "
        "GOOGLE_SEARCH_API_KEY and GOOGLE_SEARCH_ENGINE_ID, or add them to {path} as "
        "'web_search.google.api_key' and 'web_search.google.engine_id'."
    ),
}


@dataclass
class SearchResults:
    """Search results in the common format: ``[{"title", "url", "snippet"}]``."""

    query: str
    provider: str
    results: list[dict[str, str]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.results)

    def __repr__(self) -> str:
        return f"<SearchResults {self.provider} {self.query[:80]!r}: {self.count} results>"

    def __str__(self) -> str:
        """What ``print`` shows: the results as a list (:meth:`to_markdown`)."""
        return self.to_markdown()

    def to_dict(self) -> dict[str, Any]:
        """The spec's success shape."""
        return {"success": True, "results": list(self.results), "count": self.count}

    def to_markdown(self) -> str:
        """A markdown list of links with snippets ("No results" said explicitly)."""
        if not self.results:
            return f"No results for {self.query!r} ({self.provider})."
        lines = []
        for r in self.results:
            title = (r["title"] or r["url"]).replace("[", "\\[").replace("]", "\\]")
            line = f"- [{title}]({r['url']})"
            if r["snippet"]:
                line += f"  \n  {r['snippet']}"
            lines.append(line)
        return "\n".join(lines)


def credentials_path() -> Path:
    """``$XDG_CONFIG_HOME/jqmagic/credentials.json`` (default ``~/.config/...``)."""
    base = env_text("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "jqmagic" / "credentials.json"


def credentials(provider: str) -> dict[str, str]:
    """The provider's credentials: environment first, then the credentials file.

    Raises AUTH_MISSING (with where to get and where to put them) when absent.
    """
    env = {"brave": {"api_key": "BRAVE_API_KEY"},
           "google": {"api_key": "GOOGLE_SEARCH_API_KEY",
                      "engine_id": "GOOGLE_SEARCH_ENGINE_ID"}}[provider]
    found = {k: env_text(v) for k, v in env.items()}
    if all(found.values()):
        return found
    path = credentials_path()
    problem = ""
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            section = data.get("web_search", {}).get(provider, {})
            for key in found:
                if not found[key] and isinstance(section.get(key), str):
                    found[key] = section[key].strip()
        except (OSError, ValueError, AttributeError) as exc:
            problem = f" ({path} could not be read: {type(exc).__name__})"
    if all(found.values()):
        return found
    missing = ", ".join(env[k] for k, v in found.items() if not v)
    raise JqMagicError(
        "AUTH_MISSING",
        f"Web search with {provider} requires API key configuration: {missing} not set"
        + problem,
        AUTH_HELP[provider].format(path=path),
    )


def search(
    query: str,
    provider: str = "brave",
    count: int = 10,
    offset: int = 0,
    allowed_domains: list[str] | tuple[str, ...] | None = None,
    blocked_domains: list[str] | tuple[str, ...] | None = None,
    *,
    timeout: tuple[float, float] = TIMEOUT,
    session: Any = None,
) -> SearchResults:
    """Search the web and return ``{title, url, snippet}`` results.

    Args:
        query: the search terms (2 characters or more).
        provider: "brave" (count 1-20; ``offset`` is Brave's page offset, 0-9) or
            "google" (count 1-10; ``offset`` results skipped, sent as ``start=offset+1``,
            start at most 91).
        allowed_domains / blocked_domains: keep only / drop results from these domains
            (subdomains included). Google also receives a single domain as ``siteSearch``.

    Raises:
        JqMagicError: INVALID_ARGUMENT, AUTH_MISSING, AUTH_INVALID, RATE_LIMIT,
            NETWORK_ERROR, API_ERROR.
    """
    provider = (provider or "").lower()
    if provider not in PROVIDERS:
        raise JqMagicError("INVALID_ARGUMENT", f"Unknown search provider {provider!r}",
                           "Use provider 'brave' or 'google'.")
    query = (query or "").strip()
    if len(query) < 2:
        raise JqMagicError("INVALID_ARGUMENT", "The search query needs at least 2 characters",
                           "Give a few words to search for.")
    top = 20 if provider == "brave" else 10
    if not 1 <= int(count) <= top:
        raise JqMagicError("INVALID_ARGUMENT", f"count must be 1-{top} for {provider}, "
                           f"got {count}", f"Use a count between 1 and {top}.")
    if int(offset) < 0 or (provider == "google" and offset + 1 > 91):
        raise JqMagicError("INVALID_ARGUMENT", f"offset {offset} is out of range for "
                           f"{provider}", "Brave takes offsets 0-9 (pages), Google 0-90.")
    allowed = _domains(allowed_domains)
    blocked = _domains(blocked_domains)
    creds = credentials(provider)
    if provider == "brave":
        endpoint = env_text("JQMAGIC_BRAVE_ENDPOINT") or BRAVE_ENDPOINT
        params: dict[str, Any] = {"q": query, "count": count, "offset": offset}
        headers = {"X-Subscription-Token": creds["api_key"], "Accept": "application/json"}
    else:
        endpoint = env_text("JQMAGIC_GOOGLE_ENDPOINT") or GOOGLE_ENDPOINT
        params = {"key": creds["api_key"], "cx": creds["engine_id"], "q": query,
                  "num": count, "start": offset + 1}
        headers = {"Accept": "application/json"}
        if len(allowed) == 1:
            params.update(siteSearch=allowed[0], siteSearchFilter="i")
        elif not allowed and len(blocked) == 1:
            params.update(siteSearch=blocked[0], siteSearchFilter="e")
    data = _call(provider, endpoint, params, headers, timeout, session,
                 secrets=list(creds.values()))
    if provider == "brave":
        items = ((data.get("web") or {}).get("results") or []) if isinstance(data, dict) else []
        results = [_result(i.get("title"), i.get("url"), i.get("description")) for i in items
                   if isinstance(i, dict)]
    else:
        items = (data.get("items") or []) if isinstance(data, dict) else []
        results = [_result(i.get("title"), i.get("link"), i.get("snippet")) for i in items
                   if isinstance(i, dict)]
    secrets = list(creds.values())
    results = [{k: _scrub(v, secrets) for k, v in r.items()} for r in results
               if r["url"] and _keep(r["url"], allowed, blocked)]
    return SearchResults(query=query, provider=provider, results=results)


def _result(title: Any, url: Any, snippet: Any) -> dict[str, str]:
    return {"title": _plain(title), "url": str(url or ""), "snippet": _plain(snippet)}


def _plain(text: Any) -> str:
    """Provider text without the <strong> highlighting Brave puts in snippets."""
    import html
    import re

    return " ".join(html.unescape(re.sub(r"</?(strong|b|em)>", "", str(text or ""))).split())


def _domains(domains: Any) -> list[str]:
    if domains is None:
        return []
    if isinstance(domains, str):
        domains = [domains]
    out = []
    for d in domains:
        d = str(d).strip().lower()
        if "://" in d:
            d = urlsplit(d).hostname or ""
        d = d.split("/")[0].removeprefix("*.").strip(".")
        if d:
            out.append(d)
    return out


def domain_matches(url: str, domain: str) -> bool:
    """True when ``url``'s host is ``domain`` or one of its subdomains."""
    try:
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return False
    return host == domain or host.endswith("." + domain)


def _keep(url: str, allowed: list[str], blocked: list[str]) -> bool:
    if allowed and not any(domain_matches(url, d) for d in allowed):
        return False
    return not any(domain_matches(url, d) for d in blocked)


FRAGMENT = 8  # a run this long of a key's characters, in any spelling, is scrubbed


def _spellings(secret: str) -> set[str]:
    """The ways a server or proxy may echo ``secret``: as it is, URL-encoded (path and
    form), HTML-escaped; each also reversed; each compared without case."""
    import html
    from urllib.parse import quote, quote_plus

    forms = {v.lower() for v in (secret, quote(secret, safe=""), quote_plus(secret),
                                 html.escape(secret))}
    return forms | {v[::-1] for v in forms}


def _scrub(text: str, secrets: list[str]) -> str:
    """``text`` with every spelling of every secret, and every run of :data:`FRAGMENT` or
    more characters of one (a cut key), replaced by ``***``, whatever its case."""
    grams: dict[int, set[str]] = {}
    for secret in filter(None, secrets):
        for spelling in _spellings(secret):
            size = min(FRAGMENT, len(spelling))
            grams.setdefault(size, set()).update(
                spelling[i:i + size] for i in range(len(spelling) - size + 1))
    if not grams or not text:
        return text
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer: compare as it is
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    hidden = bytearray(len(text))
    for size, known in grams.items():
        for i in range(len(low) - size + 1):
            if low[i:i + size] in known:
                hidden[i:i + size] = b"\x01" * size
    if not any(hidden):
        return text
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and hidden[j] == hidden[i]:
            j += 1
        out.append("***" if hidden[i] else text[i:j])
        i = j
    return "".join(out)


def _call(provider: str, endpoint: str, params: dict, headers: dict, timeout: Any,
          session: Any, secrets: list[str]) -> Any:
    import requests

    name = provider.capitalize()
    try:
        resp = get_within(session, endpoint, time.monotonic() + settings.fetch_total_timeout,
                          params=params, headers=headers, timeout=timeout)
    except requests.exceptions.Timeout:
        # "from None": the requests error text holds the URL, and Google's holds the key.
        raise JqMagicError("NETWORK_ERROR", f"{name} search timed out",
                           "Try again; check your network connection.") from None
    except requests.exceptions.RequestException as exc:
        raise JqMagicError("NETWORK_ERROR",
                           f"{name} search failed: could not reach the API "
                           f"({type(exc).__name__})",
                           "Check your network connection.") from None
    try:
        data = resp.json()
    except ValueError:
        data = None
    status = resp.status_code
    if status < 400 and isinstance(data, dict):
        return data
    detail = _scrub(_api_message(data) or resp.reason or "", secrets)[:200]
    if status == 429 or (provider == "google" and status == 403
                         and _google_reasons(data) & _GOOGLE_QUOTA):
        quota = "2,000/month" if provider == "brave" else "100/day"
        raise JqMagicError("RATE_LIMIT", "Rate limit exceeded. You've used your free search "
                           f"quota ({quota}).", "Wait, or upgrade your plan with the provider.")
    reasons = _google_reasons(data) if provider == "google" else set()
    if status in (401, 403) or "keyInvalid" in reasons or (
            provider == "brave" and status == 422 and "TOKEN" in json.dumps(data or "")):
        raise JqMagicError("AUTH_INVALID", f"{name} rejected the API credentials (HTTP "
                           f"{status})" + (f": {detail}" if detail else ""),
                           AUTH_HELP[provider].format(path=credentials_path()))
    if status < 400:
        raise JqMagicError("API_ERROR", f"{name} search returned a non-JSON answer",
                           "The endpoint may be wrong; check JQMAGIC_*_ENDPOINT.")
    raise JqMagicError("API_ERROR", f"{name} search failed: HTTP {status}"
                       + (f": {detail}" if detail else ""), "Try again later.")


def _api_message(data: Any) -> str:
    if not isinstance(data, dict):
        return ""
    err = data.get("error")
    if isinstance(err, dict):
        return str(err.get("message") or err.get("detail") or err.get("code") or "")
    return str(err or data.get("message") or "")


def _google_reasons(data: Any) -> set[str]:
    if not isinstance(data, dict) or not isinstance(data.get("error"), dict):
        return set()
    err = data["error"]
    out = {str(e.get("reason")) for e in err.get("errors") or [] if isinstance(e, dict)}
    out.add(str(err.get("status") or ""))
    for d in err.get("details") or []:
        if isinstance(d, dict) and d.get("reason"):
            out.add(str(d["reason"]))
    return out
