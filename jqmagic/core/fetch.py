"""Fetch a URL as markdown, text or JSON: timeouts, redirect limit, byte cap, sandbox.

``requests`` and the HTML converter are imported on first use, so importing this module
stays cheap.
"""

from __future__ import annotations

import codecs
import ipaddress
import json
import re
import socket
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from jqmagic.core.errors import JqMagicError

MAX_BYTES = 10 * 1024 * 1024
CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
TOTAL_TIMEOUT = 60.0
MAX_REDIRECTS = 10
_CHUNK = 64 * 1024
_METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data"}
_MULTIBYTE = {"shift_jis", "cp932", "euc_jp", "iso2022_jp", "gb2312", "gbk", "gb18030",
              "big5", "big5hkscs", "euc_kr", "cp949", "utf_16", "utf_32", "cp950"}
_SECRET_HEADERS = {"authorization", "cookie", "proxy-authorization"}
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)


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
        return out


def sandbox_enabled() -> bool:
    """Whether the sandbox is on (:func:`jqmagic.core.sandbox.enabled`)."""
    from jqmagic.core import sandbox

    return sandbox.enabled()


def fetch(
    url: str,
    offset: int | None = None,
    limit: int | None = None,
    raw: bool = False,
    jq: str | None = None,
    headers: dict[str, str] | None = None,
    *,
    max_bytes: int = MAX_BYTES,
    timeout: tuple[float, float] = (CONNECT_TIMEOUT, READ_TIMEOUT),
    total_timeout: float = TOTAL_TIMEOUT,
    max_redirects: int = MAX_REDIRECTS,
    private_addresses: bool | None = None,
    allowed_addresses: tuple[str, ...] = (),
    session: Any = None,
) -> FetchResult:
    """Fetch ``url`` and return it as markdown (HTML), text (text/*) or JSON.

    Args:
        url: an http(s) URL.
        offset: first line to return (1-based) of the converted content.
        limit: most lines to return; the result says ``total_lines`` and ``next_offset``.
        raw: HTML without cleaning (the whole page, chrome included).
        jq: a jq filter run on a JSON response (its outputs become ``value``/``content``).
        headers: extra request headers.
        max_bytes: refuse bodies larger than this (TOO_LARGE), counted while streaming.
        timeout: (connect, read) timeouts in seconds; ``total_timeout`` bounds the whole.
        private_addresses: allow loopback/private/link-local/multicast/metadata targets.
            None means "unless the sandbox is on" (:func:`sandbox_enabled`). Checked after
            DNS resolution and on every redirect.
        allowed_addresses: IPs exempt from that check (e.g. a known local service).

    Raises:
        JqMagicError: INVALID_URL, SANDBOX_DENIED, NETWORK_ERROR, HTTP_ERROR, TOO_LARGE,
            PARSE_ERROR, INVALID_ARGUMENT, or a jq error code.
    """
    _check_window(offset, limit)
    if private_addresses is None:
        private_addresses = not sandbox_enabled()
    started = time.monotonic()
    resp, body, final_url = _download(
        url, headers or {}, max_bytes=max_bytes, timeout=timeout, deadline=started
        + total_timeout, max_redirects=max_redirects, private_ok=private_addresses,
        allowed=set(allowed_addresses), session=session,
    )
    ctype = (resp.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    kind = _kind(ctype, body)
    title, value = "", None
    if kind == "json":
        value = _parse_json(body, final_url)
        text = json.dumps(value, indent=2, ensure_ascii=False)
        if jq is not None:
            value, text = _run_jq(jq, value)
    elif jq is not None:
        raise JqMagicError(
            "INVALID_ARGUMENT",
            f"--jq needs a JSON response; {_redact(final_url)} is {ctype or 'untyped'}",
            "Drop --jq, or fetch the JSON endpoint of this resource.",
        )
    elif kind == "html":
        from jqmagic.core.html import to_markdown

        html = decode(body, resp.headers.get("Content-Type", ""), html=True)
        try:
            page = to_markdown(html, final_url, raw=raw)
        except Exception as exc:  # a converter bug must not look like a network error
            raise JqMagicError(
                "PARSE_ERROR", f"Failed to parse HTML from {_redact(final_url)}: {exc}",
                "Try --raw, or fetch the page another way.",
            ) from exc
        title, text = page.title, page.markdown
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
        headers=dict(resp.headers),
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


# -- request ---------------------------------------------------------------------------
def _check_window(offset: int | None, limit: int | None) -> None:
    if offset is not None and (isinstance(offset, bool) or int(offset) < 1):
        raise JqMagicError("INVALID_ARGUMENT", f"offset must be 1 or more, got {offset}",
                           "Lines are numbered from 1.")
    if limit is not None and (isinstance(limit, bool) or int(limit) < 1):
        raise JqMagicError("INVALID_ARGUMENT", f"limit must be 1 or more, got {limit}",
                           "Leave limit out to get every line.")


def user_agent() -> str:
    """The descriptive User-Agent sent with every request."""
    try:
        from importlib.metadata import version

        ver = version("jqmagic")
    except Exception:  # pragma: no cover - not installed as a distribution
        ver = "0"
    return f"jqmagic/{ver} (web fetch for notebooks and agents; python-requests)"


def _download(url, headers, *, max_bytes, timeout, deadline, max_redirects, private_ok,
              allowed, session):
    import requests

    own = session is None
    sess = session or requests.Session()
    sess.max_redirects = max_redirects
    req_headers = {
        "User-Agent": user_agent(),
        "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,"
                  "text/plain;q=0.8,*/*;q=0.5",
    }
    req_headers.update(headers)
    current = url
    try:
        for hop in range(max_redirects + 1):
            check_url(current, private_ok=private_ok, allowed=allowed)
            try:
                resp = sess.get(current, headers=req_headers, timeout=timeout, stream=True,
                                allow_redirects=False)
            except requests.exceptions.InvalidURL as exc:
                raise JqMagicError("INVALID_URL", f"Malformed URL {_redact(current)}",
                                   "Check the host and port.") from exc
            except requests.exceptions.Timeout as exc:
                raise JqMagicError(
                    "NETWORK_ERROR", f"Failed to fetch {_redact(current)}: timed out",
                    "The server is slow or unreachable; try again or raise the timeout.",
                ) from exc
            except requests.exceptions.RequestException as exc:
                raise JqMagicError(
                    "NETWORK_ERROR",
                    f"Failed to fetch {_redact(current)}: {_reason(exc)}",
                    "Check the address and your network connection.",
                ) from exc
            if resp.is_redirect and resp.headers.get("Location"):
                resp.close()
                if hop == max_redirects:
                    break
                target = urljoin(current, resp.headers["Location"])
                if urlsplit(target).hostname != urlsplit(current).hostname:
                    # Never forward credentials to another host (as requests does).
                    req_headers = {k: v for k, v in req_headers.items()
                                   if k.lower() not in _SECRET_HEADERS}
                current = target
                continue
            if resp.status_code >= 400:
                reason = resp.reason or ""
                resp.close()
                raise JqMagicError(
                    "HTTP_ERROR", f"HTTP {resp.status_code}: {reason}".rstrip(": ")
                    + f" ({_redact(current)})",
                    _status_hint(resp.status_code),
                )
            body = _read_capped(resp, current, max_bytes, deadline)
            return resp, body, current
        raise JqMagicError(
            "NETWORK_ERROR",
            f"Failed to fetch {_redact(url)}: more than {max_redirects} redirects",
            "The site redirects in a loop; open the last URL in a browser to see why.",
        )
    finally:
        if own:
            sess.close()


def _read_capped(resp: Any, url: str, max_bytes: int, deadline: float) -> bytes:
    import requests

    declared = resp.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        resp.close()
        raise JqMagicError(
            "TOO_LARGE",
            f"{_redact(url)} is {int(declared):,} bytes, over the {max_bytes:,}-byte cap",
            "Raise max_bytes if you really need the whole document.",
        )
    chunks, size = [], 0
    try:
        for chunk in _chunks(resp):
            size += len(chunk)
            if size > max_bytes:
                raise JqMagicError(
                    "TOO_LARGE",
                    f"{_redact(url)} is over the {max_bytes:,}-byte cap (stopped reading)",
                    "Raise max_bytes if you really need the whole document.",
                )
            if time.monotonic() > deadline:
                raise JqMagicError(
                    "NETWORK_ERROR", f"Failed to fetch {_redact(url)}: timed out while reading",
                    "The server sends too slowly; try again or raise total_timeout.",
                )
            chunks.append(chunk)
    except requests.exceptions.Timeout as exc:
        raise JqMagicError(
            "NETWORK_ERROR", f"Failed to fetch {_redact(url)}: timed out while reading",
            "The server is slow; try again or raise the timeout.",
        ) from exc
    except requests.exceptions.RequestException as exc:
        raise JqMagicError(
            "NETWORK_ERROR", f"Failed to fetch {_redact(url)}: {_reason(exc)}",
            "The connection broke while reading; try again.",
        ) from exc
    finally:
        resp.close()
    return b"".join(chunks)


def _chunks(resp: Any) -> Any:
    """Body chunks as they arrive (decompressed): ``read1`` returns what is there, so a
    server dripping bytes cannot hold us past the deadline between checks."""
    raw = resp.raw
    if not hasattr(raw, "read1"):  # pragma: no cover - urllib3 < 2
        yield from resp.iter_content(_CHUNK)
        return
    while True:
        try:
            chunk = raw.read1(_CHUNK, decode_content=True)
        except Exception as exc:
            import requests
            import urllib3

            if isinstance(exc, urllib3.exceptions.ReadTimeoutError):
                raise requests.exceptions.ReadTimeout(str(exc)) from exc
            if isinstance(exc, urllib3.exceptions.HTTPError | OSError):
                raise requests.exceptions.ConnectionError(str(exc)) from exc
            raise
        if not chunk:
            return
        yield chunk


def _reason(exc: Exception) -> str:
    """A short, secret-free reason for a requests exception (no URL, no query)."""
    text = str(exc)
    for key in ("Name or service not known", "nodename nor servname", "Temporary failure in "
                "name resolution", "No address associated"):
        if key in text:
            return "DNS lookup failed"
    if "Connection refused" in text:
        return "connection refused"
    if "CERTIFICATE_VERIFY_FAILED" in text or "SSLError" in type(exc).__name__:
        return "TLS/SSL error"
    if "RemoteDisconnected" in text or "Connection aborted" in text:
        return "connection closed by the server"
    if "TooManyRedirects" in type(exc).__name__:
        return "too many redirects"
    return type(exc).__name__


def _status_hint(status: int) -> str:
    if status in (401, 403):
        return "The server refuses access; pass credentials with -H 'Authorization: ...'."
    if status == 404:
        return "Check the URL; the page may have moved."
    if status == 429:
        return "Too many requests; wait and try again."
    if status >= 500:
        return "The server failed; try again later."
    return "Check the URL and request headers."


# -- sandbox -----------------------------------------------------------------------------
def check_url(url: str, *, private_ok: bool = True, allowed: set[str] | None = None) -> None:
    """Raise INVALID_URL for a malformed or non-http(s) URL, SANDBOX_DENIED for a private
    target (every address the host resolves to is checked) unless ``private_ok``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise JqMagicError("INVALID_URL", f"Malformed URL {_redact(url)!r}: {exc}",
                           "Use a full URL such as https://example.com/page.") from exc
    if parts.scheme.lower() not in ("http", "https"):
        hint = "Use a full URL such as https://example.com/page."
        if not parts.scheme:
            hint = f"Add a scheme: https://{url}" if "." in url else hint
        raise JqMagicError(
            "INVALID_URL",
            f"Refused URL {_redact(url)!r}: only http and https are fetched"
            if parts.scheme else f"Malformed URL {_redact(url)!r}: no scheme",
            hint,
        )
    host = parts.hostname
    if not host:
        raise JqMagicError("INVALID_URL", f"Malformed URL {_redact(url)!r}: no host",
                           "Use a full URL such as https://example.com/page.")
    if private_ok:
        return
    if host.lower().rstrip(".") in _METADATA_HOSTS:
        raise _denied(url, host)
    try:
        infos = socket.getaddrinfo(host, port or (443 if parts.scheme == "https" else 80),
                                   proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise JqMagicError("NETWORK_ERROR", f"Failed to fetch {_redact(url)}: DNS lookup "
                           f"failed for {host}", "Check the host name.") from exc
    for info in infos:
        addr = info[4][0]
        if allowed and addr in allowed:
            continue
        if is_private_address(addr):
            raise _denied(url, host, addr)


def is_private_address(addr: str) -> bool:
    """True for loopback, private, link-local, multicast, reserved or unspecified IPs
    (the cloud metadata address 169.254.169.254 is link-local)."""
    ip = ipaddress.ip_address(addr.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return bool(ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
                or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def _denied(url: str, host: str, addr: str | None = None) -> JqMagicError:
    where = f"{host} ({addr})" if addr and addr != host else host
    return JqMagicError(
        "SANDBOX_DENIED",
        f"Refused to fetch {_redact(url)}: {where} is a private, loopback, link-local or "
        "metadata address",
        "The sandbox blocks local network targets; fetch a public URL instead.",
    )


def _redact(url: str) -> str:
    """The URL without user:password and without its query (which may hold a key)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<malformed URL>"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = "..." if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


# -- decoding ----------------------------------------------------------------------------
def _kind(ctype: str, body: bytes) -> str:
    if ctype in _HTML_TYPES:
        return "html"
    if ctype in ("application/json", "text/json") or ctype.endswith("+json"):
        return "json"
    if ctype.startswith("text/") or ctype in ("application/xml", "application/yaml",
                                             "application/x-yaml", "application/javascript",
                                             "application/x-ndjson", "application/jsonl"):
        return "text"
    if not ctype or ctype in ("application/octet-stream", "binary/octet-stream"):
        head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")):
            return "html"
        if head[:1] in (b"{", b"["):
            try:
                json.loads(body)
                return "json"
            except ValueError:
                pass
        if b"\x00" not in body[:4096]:
            return "text"
    raise JqMagicError(
        "PARSE_ERROR",
        f"Cannot convert content type {ctype or 'unknown'!r} to text",
        "Only HTML, JSON and text documents are fetched; download binaries another way.",
    )


def _parse_json(body: bytes, url: str) -> Any:
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise JqMagicError(
            "PARSE_ERROR", f"Failed to parse JSON from {_redact(url)}: {exc}",
            "The server said JSON but sent something else; fetch without --jq to see it.",
        ) from exc


def decode(body: bytes, content_type: str = "", *, html: bool = False) -> str:
    """Bytes to text: charset from the header, else the document (BOM, <meta>), else
    UTF-8 if it decodes, else a guess; unknown charsets fall back the same way and bad
    bytes become U+FFFD rather than failing."""
    candidates = []
    m = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", content_type, re.I)
    if m:
        candidates.append(m.group(1))
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if body.startswith(bom):
            candidates.insert(0, enc)
    if html:
        m2 = _META_CHARSET.search(body[:4096])
        if m2:
            candidates.append(m2.group(1).decode("ascii", "ignore"))
    for name in candidates:
        try:
            codec = codecs.lookup(name)
        except LookupError:
            continue
        return body.decode(codec.name, errors="replace")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        # Trust the guess only for multi-byte encodings (a strong signal); on short text
        # its single-byte guesses are often wrong, and cp1252 is the web's default.
        best = from_bytes(body[:200_000]).best()
        if best is not None and best.encoding in _MULTIBYTE:
            return body.decode(best.encoding, errors="replace")
    except ImportError:  # pragma: no cover - requests brings charset_normalizer
        pass
    return body.decode("cp1252", errors="replace")


def _run_jq(program: str, value: Any) -> tuple[Any, str]:
    """Run ``program`` on ``value`` through the query core; (value, printed text)."""
    from jqmagic.core.query import query

    result = query(program, value=value, value_given=True)
    text = result.text
    if result.truncated and result.message:
        text = f"{text}\n{result.message}"
    return result.value, text
