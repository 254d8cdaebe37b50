"""Fetch a URL as markdown (HTML), text or JSON, in windows of lines; jq on a JSON answer."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import query
from jqmagic.core.query.bounds import cut_text
from jqmagic.core.sandbox import AddressPolicy
from jqmagic.core.web.decode import decode, kind_of, parse_json
from jqmagic.core.web.download import FetchLimits, check_url, download, redact
from jqmagic.core.words import term

# The comments a structured answer carries (FetchResult.comments has them all).
COMMENTS_CHARS = 4_000


@dataclass
class FetchResult:
    """One fetched document, converted; ``content`` is the requested slice of lines."""

    url: str
    final_url: str
    status: int
    content_type: str
    title: str
    content: str
    total_lines: int
    offset: int = 1
    limit: int | None = None
    next_offset: int | None = None
    value: Any = None
    bytes: int = 0
    elapsed: float = 0.0
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    byline: str = ""  # an HTML page's author(s), as the page names them
    published: str = ""  # an HTML page's publication date, as the page gives it
    comments: str = ""  # an HTML page's reader comments, markdown (the body leaves them out)
    body: bytes = field(default=b"", repr=False)  # as served: for jq to read it exactly

    def __repr__(self) -> str:
        """One line, not the page (a Python prompt echoed every field, the content whole)."""
        named = f" {self.title[:60]!r}" if self.title else ""
        last = self.next_offset - 1 if self.next_offset else self.total_lines
        shown = f"lines {self.offset:,}-{last:,}" if last >= self.offset else "no lines"
        return (f"<FetchResult {self.final_url[:120]}{named}: {self.content_type}, {shown} "
                f"of {self.total_lines:,}>")

    def __str__(self) -> str:
        """What ``print`` shows: a page's heading and its lines, as a notebook shows them."""
        return self.heading() + self.content

    def heading(self) -> str:
        """A page's title as a markdown heading above its first lines (the converted body
        leaves out a first heading that only repeats it), else nothing."""
        page = self.content_type in ("text/html", "application/xhtml+xml")
        return f"# {self.title}\n\n" if page and self.title and self.offset == 1 else ""

    def to_dict(self) -> dict[str, Any]:
        """The spec's success shape (``url`` is the final URL after redirects)."""
        out: dict[str, Any] = {
            "success": True,
            "url": self.final_url,
            "title": self.title,
            "content": self.content,
            "total_lines": self.total_lines,
            "offset": self.offset,
            "next_offset": self.next_offset,
            "content_type": self.content_type,
            "status": self.status,
        }
        if self.final_url != self.url:
            out["requested_url"] = self.url
        if self.value is not None:
            out["value"] = self.value
        for name in ("byline", "published"):  # the page's, when it says (the body does not)
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.comments:  # bounded: a thread can be many times the page
            out["comments"] = cut_text(self.comments, COMMENTS_CHARS)
            if len(out["comments"]) < len(self.comments):
                out["comments"] += (f"\n\n[{len(self.comments) - len(out['comments']):,} "
                                    "more characters of comments: web_fetch with "
                                    "comments=true reads them whole]")
        return out


def fetch(
    url: str,
    offset: int | None = None,
    limit: int | None = None,
    raw: bool = False,
    jq: str | None = None,
    headers: dict[str, str] | None = None,
    *,
    private_addresses: bool | None = None,
    allowed_addresses: tuple[str, ...] = (),
    session: Any = None,
    max_bytes: int | None = None,
    timeout: tuple[float, float] | None = None,
    total_timeout: float | None = None,
    max_redirects: int | None = None,
    robots: bool = False,
) -> FetchResult:
    """Fetch ``url`` and return it as markdown (HTML), text (text/*) or JSON.

    Args:
        url: an http(s) URL.
        offset: first line to return (1-based) of the converted content.
        limit: most lines to return; the result says ``total_lines`` and ``next_offset``.
        raw: HTML without cleaning (the whole page, chrome included).
        jq: a jq filter run on a JSON response (its outputs become ``value``/``content``).
        headers: extra request headers.
        private_addresses: allow loopback/private/link-local/multicast/metadata targets.
            None means "unless the sandbox is on". Checked after DNS resolution and on
            every redirect (:class:`~jqmagic.core.sandbox.AddressPolicy`).
        allowed_addresses: IPs exempt from that check (e.g. a known local service).
        session: a ``requests.Session`` to send with (default: a new one).
        max_bytes: bodies larger are TOO_LARGE (counted while streaming).
        timeout: (connect, read) seconds.
        total_timeout: seconds for the whole fetch, redirects included.
        max_redirects: redirects followed at most.
        robots: honour the site's robots.txt (SANDBOX_DENIED when it disallows the URL for
            jqmagic's user agent); the agent faces ask for it.

    A limit left out (None) is the setting's (:class:`FetchLimits`).

    Raises:
        JqMagicError: INVALID_URL, SANDBOX_DENIED, NETWORK_ERROR, HTTP_ERROR, TOO_LARGE,
            PARSE_ERROR, INVALID_ARGUMENT, or a jq error code.
    """
    _check_window(offset, limit)
    given = {"max_bytes": max_bytes, "timeout": timeout, "total_timeout": total_timeout,
             "max_redirects": max_redirects}
    caps = FetchLimits.of(**{name: v for name, v in given.items() if v is not None})
    policy = AddressPolicy.current(private_addresses, tuple(allowed_addresses))
    started = time.monotonic()
    if robots:
        from jqmagic.core.web import robots as robots_txt

        check_url(url)  # INVALID_URL names this URL, not the robots.txt asked first
        from jqmagic.core.web.download import user_agent

        def read(robots_url: str) -> tuple[int, str]:
            small = dataclasses.replace(caps, max_bytes=robots_txt.ROBOTS_BYTES,
                                        truncate=True, max_redirects=5)  # RFC 9309
            resp, body, _ = download(robots_url, {}, small, started + caps.total_timeout,
                                     policy, session)
            return resp.status_code, body.decode("utf-8", "replace")

        robots_txt.check(url, read, user_agent())
    resp, body, final_url = download(url, headers or {}, caps, started + caps.total_timeout,
                                     policy, session)
    ctype = (resp.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    kind = kind_of(ctype, body)
    title, value, byline, published, comments = "", None, "", "", ""
    if jq is not None and kind != "html":  # jq reads the bytes whatever their type says
        value, text = _run_jq(jq, body, f"{redact(final_url)} ({ctype or 'untyped'})")
    elif kind == "json":
        value, text = _json_answer(body, final_url)
    elif jq is not None:
        raise JqMagicError(
            "INVALID_ARGUMENT",
            f"A jq filter needs a JSON response; {redact(final_url)} is {ctype or 'untyped'}",
            f"Drop {term('fetch_jq')}, or fetch the JSON endpoint of this resource.",
        )
    elif kind == "html":
        from jqmagic.core.web.html import to_markdown  # bs4 and markdownify: on first use

        html = decode(body, resp.headers.get("Content-Type", ""), html=True)
        try:  # the fetch's one deadline bounds the conversion too
            page = to_markdown(html, final_url, raw=raw,
                               deadline=started + caps.total_timeout)
        except JqMagicError:
            raise
        except Exception as exc:  # a converter bug must not look like a network error
            raise JqMagicError(
                "PARSE_ERROR", f"Failed to parse HTML from {redact(final_url)}: {exc}",
                "Fetch the page another way (another URL for the same content). Or try "
                f"{term('fetch_raw')}.",
            ) from exc
        title, text = page.title, page.markdown
        byline, published, comments = page.byline, page.published, page.comments
    else:
        text = decode(body, resp.headers.get("Content-Type", ""), html=False)
    lines = text.splitlines()
    start = (offset or 1) - 1
    end = len(lines) if limit is None else min(start + limit, len(lines))
    window = lines[start:end] if start < len(lines) else []
    return FetchResult(
        url=url, final_url=final_url, status=resp.status_code,
        content_type=ctype or "application/octet-stream", title=title,
        content="\n".join(window), total_lines=len(lines), offset=start + 1, limit=limit,
        next_offset=end + 1 if window and end < len(lines) else None, value=value,
        bytes=len(body), elapsed=time.monotonic() - started,
        headers=dict(resp.headers), byline=byline, published=published,
        comments=comments, body=body,
    )


def parse_headers(lines: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """Headers given as ``"Name: value"`` lines (curl's ``-H``) as a dict."""
    headers: dict[str, str] = {}
    for line in lines or ():
        name, sep, value = line.partition(":")
        if not sep or not name.strip() or any(c in name for c in " \t\r\n"):
            raise JqMagicError("INVALID_ARGUMENT", f"Malformed header {name.strip()[:30]!r}",
                               "Give headers as 'Name: value', e.g. -H 'Accept: text/html'.")
        headers[name.strip()] = value.strip()
    return headers


def _check_window(offset: int | None, limit: int | None) -> None:
    if offset is not None and (isinstance(offset, bool) or int(offset) < 1):
        raise JqMagicError("INVALID_ARGUMENT", f"offset must be 1 or more, got {offset}",
                           "Lines are numbered from 1.")
    if limit is not None and (isinstance(limit, bool) or int(limit) < 1):
        raise JqMagicError("INVALID_ARGUMENT", f"limit must be 1 or more, got {limit}",
                           "Leave limit out to get every line.")


def _json_answer(body: bytes, url: str) -> tuple[Any, str]:
    """An answer served as JSON: its value (None for several: JSON Lines served as JSON)
    and jq's text of its bytes as served (1.50 stays 1.50), as %jq over the URL shows it;
    the value's own text where jq reads the bytes not (UTF-16, a lone surrogate escape);
    PARSE_ERROR where neither reads them."""
    try:
        value = parse_json(body, url)
    except JqMagicError as refused:
        try:
            return None, query(".", text=body).text
        except JqMagicError:
            raise refused from None
    try:
        return value, query(".", text=body).text
    except JqMagicError:
        return value, json.dumps(value, indent=2, ensure_ascii=False)


def _run_jq(program: str, body: bytes, said: str) -> tuple[Any, str]:
    """Run ``program`` on the answer's bytes as served (its numbers as written, JSON Lines
    or a raw file served as text/plain read as jq reads a file) through the query core;
    (value, printed text). ``said``: the answer's URL and type, named where it is no JSON."""
    try:
        result = query(program, text=body)
    except JqMagicError as exc:
        if exc.code != "INVALID_JSON":
            raise
        raise JqMagicError("PARSE_ERROR", f"{said} is not JSON: {exc.message}",
                           f"Fetch it without {term('fetch_jq')} to see it.") from None
    text = result.text
    if result.truncated and result.message:
        text = f"{text}\n{result.message}"
    return result.value, text
