"""HTTP GET with caps: timeouts, a redirect limit, a streaming byte cap, the sandbox's address
rule on every hop, credentials never forwarded to another host, and one total deadline over
every byte read, headers included."""

from __future__ import annotations

import contextlib
import functools
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings

_CHUNK = 64 * 1024
_SECRET_HEADERS = {"authorization", "cookie", "proxy-authorization"}


@dataclass(frozen=True)
class FetchLimits:
    """How much a fetch may take: bytes, seconds (connect, read, whole) and redirects."""

    max_bytes: int = 0
    timeout: tuple[float, float] = (0.0, 0.0)
    total_timeout: float = 0.0
    max_redirects: int = 0
    truncate: bool = False  # a body over max_bytes is cut there, not TOO_LARGE (robots.txt)

    @classmethod
    def of(cls, **given: Any) -> FetchLimits:
        """The settings' limits, with the ``given`` ones instead (TypeError for others)."""
        return cls(**{"max_bytes": settings.fetch_max_bytes,
                      "timeout": (settings.fetch_connect_timeout, settings.fetch_read_timeout),
                      "total_timeout": settings.fetch_total_timeout,
                      "max_redirects": settings.fetch_max_redirects, **given})


def user_agent() -> str:
    """The descriptive User-Agent sent with every request."""
    try:
        from importlib.metadata import version

        ver = version("jqmagic")
    except Exception:  # pragma: no cover - not installed as a distribution
        ver = "0"
    return f"jqmagic/{ver} (web fetch for notebooks and agents; python-requests)"


def download(url: str, headers: dict[str, str], limits: FetchLimits, deadline: float,
             policy: sandbox.AddressPolicy, session: Any = None) -> tuple[Any, bytes, str]:
    """GET ``url`` (following redirects by hand, each hop checked): (response, body, final
    URL)."""
    import requests

    own = session is None
    sess = _watched_session(session or requests.Session())
    sess.max_redirects = limits.max_redirects
    req_headers = {
        "User-Agent": user_agent(),
        "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,"
                  "text/plain;q=0.8,*/*;q=0.5",
    }
    req_headers.update(headers)
    try:
        with _total_deadline(deadline) as watch:
            try:
                answer = _hops(url, req_headers, limits, deadline, policy, sess)
            except JqMagicError as exc:
                if watch.expired and exc.code == "NETWORK_ERROR":
                    raise _too_slow(url) from None
                raise
            if watch.expired:  # a body cut short by the shutdown is no answer
                raise _too_slow(url)
            return answer
    finally:
        if own:
            sess.close()


def get_within(session: Any, url: str, deadline: float, **kwargs: Any) -> Any:
    """``session.get(url, **kwargs)`` (``requests`` itself when ``session`` is None), the
    whole answer read by ``deadline`` (``time.monotonic()``), headers included; past it,
    ``requests.exceptions.Timeout``."""
    import requests

    own = session is None
    sess = _watched_session(session or requests.Session())
    try:
        with _total_deadline(deadline) as watch:
            try:
                resp = sess.get(url, **kwargs)
                if not watch.expired:
                    return resp
            except requests.exceptions.RequestException:
                if not watch.expired:
                    raise
            raise requests.exceptions.Timeout("the total time allowed ran out")
    finally:
        if own:
            sess.close()


def _watched_session(sess: Any) -> Any:
    """``sess`` with the adapter whose connections :func:`_total_deadline` watches, in
    place of requests' plain one (its retries kept); a transport of the caller's own
    (a subclass, a test's mock) is left as it is."""
    from requests.adapters import HTTPAdapter

    for scheme in ("http://", "https://"):
        current = sess.get_adapter(scheme)
        if type(current) is HTTPAdapter:
            sess.mount(scheme, _deadline_adapter()(max_retries=current.max_retries))
    return sess


def _hops(url: str, req_headers: dict[str, str], limits: FetchLimits, deadline: float,
          policy: sandbox.AddressPolicy, sess: Any) -> tuple[Any, bytes, str]:
    """The GET of ``url`` and of each redirect it leads to, each hop checked."""
    import requests

    current = url
    for hop in range(limits.max_redirects + 1):
        current, host, port = check_url(current)  # the URL as it will be sent
        checked = policy.check(redact(current), host, port)
        try:
            with sandbox.pinned(host, checked):  # connect where the check looked
                resp = sess.get(current, headers=req_headers, timeout=limits.timeout,
                                stream=True, allow_redirects=False)
        except requests.exceptions.InvalidURL as exc:
            raise JqMagicError("INVALID_URL", f"Malformed URL {redact(current)}",
                               "Check the host and port.") from exc
        except requests.exceptions.RequestException as exc:
            raise _network_error(current, exc, reading=False) from exc
        if resp.is_redirect and resp.headers.get("Location"):
            resp.close()
            if hop == limits.max_redirects:
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
                + f" ({redact(current)})",
                _status_hint(resp.status_code),
            )
        body = _read_capped(resp, current, limits.max_bytes, deadline, limits.truncate)
        return resp, body, current
    raise JqMagicError(
        "NETWORK_ERROR",
        f"Failed to fetch {redact(url)}: more than {limits.max_redirects} redirects",
        "The site redirects in a loop; open the last URL in a browser to see why.",
    )


def _read_capped(resp: Any, url: str, max_bytes: int, deadline: float,
                 truncate: bool = False) -> bytes:
    """The body, at most ``max_bytes`` (TOO_LARGE past them, or cut there: ``truncate``)."""
    import requests

    declared = resp.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes and not truncate:
        resp.close()
        raise JqMagicError(
            "TOO_LARGE",
            f"{redact(url)} is {int(declared):,} bytes, over the {max_bytes:,}-byte cap",
            "Raise max_bytes if you really need the whole document.",
        )
    chunks, size = [], 0
    try:
        for chunk in _chunks(resp):
            size += len(chunk)
            if size > max_bytes and truncate:
                chunks.append(chunk[:len(chunk) - (size - max_bytes)])
                break
            if size > max_bytes:
                raise JqMagicError(
                    "TOO_LARGE",
                    f"{redact(url)} is over the {max_bytes:,}-byte cap (stopped reading)",
                    "Raise max_bytes if you really need the whole document.",
                )
            if time.monotonic() > deadline:
                raise _too_slow(url)
            chunks.append(chunk)
    except requests.exceptions.RequestException as exc:
        raise _network_error(url, exc, reading=True) from exc
    finally:
        resp.close()
    return b"".join(chunks)


def _too_slow(url: str) -> JqMagicError:
    return JqMagicError("NETWORK_ERROR", f"Failed to fetch {redact(url)}: timed out while "
                        "reading (the total time allowed ran out)",
                        "The server sends too slowly; try again or raise total_timeout.")


class _Watch:
    """The connections one download uses, shut down when its total deadline passes (a
    server trickling header or body bytes never outlasts it)."""

    def __init__(self) -> None:
        self.connections: list[Any] = []
        self.expired = False
        self.lock = threading.Lock()

    def add(self, connection: Any) -> None:
        with self.lock:
            self.connections.append(connection)
            if self.expired:
                _shut(connection)

    def expire(self) -> None:
        with self.lock:
            self.expired = True
            for connection in self.connections:
                _shut(connection)


def _shut(connection: Any) -> None:
    with contextlib.suppress(OSError, AttributeError):
        connection.sock.shutdown(socket.SHUT_RDWR)


_watching = threading.local()


@contextlib.contextmanager
def _total_deadline(deadline: float) -> Iterator[_Watch]:
    """Within: every connection this thread sends a request on is shut down at
    ``deadline`` (a timer thread, cancelled and joined on the way out)."""
    watch = _Watch()
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), watch.expire)
    timer.daemon = True
    _watching.watch = watch
    timer.start()
    try:
        yield watch
    finally:
        _watching.watch = None
        timer.cancel()
        timer.join()


def _watched(connection_class: type) -> type:
    """``connection_class`` registering each connection it sends a request on with the
    thread's :class:`_Watch`."""

    class Watched(connection_class):  # type: ignore[misc, valid-type]
        def request(self, *args: Any, **kwargs: Any) -> Any:
            watch = getattr(_watching, "watch", None)
            if watch is not None:
                watch.add(self)
            return super().request(*args, **kwargs)

    return Watched


@functools.cache
def _deadline_adapter() -> type:
    """requests' HTTPAdapter, its connections watched by the total deadline (made on first
    use: requests is imported lazily)."""
    from requests.adapters import HTTPAdapter
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    class Pool(HTTPConnectionPool):
        ConnectionCls = _watched(HTTPConnection)

    class SecurePool(HTTPSConnectionPool):
        ConnectionCls = _watched(HTTPSConnection)

    pools = {"http": Pool, "https": SecurePool}

    class Adapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = pools

        def proxy_manager_for(self, *args: Any, **kwargs: Any) -> Any:
            manager = super().proxy_manager_for(*args, **kwargs)
            manager.pool_classes_by_scheme = pools
            return manager

    return Adapter


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


def _network_error(url: str, exc: Exception, reading: bool) -> JqMagicError:
    """NETWORK_ERROR for a requests exception, before or while reading the body."""
    import requests

    if isinstance(exc, requests.exceptions.Timeout):
        why = "timed out while reading" if reading else "timed out"
        hint = "The server is slow or unreachable; try again or raise the timeout."
    else:
        why = _reason(exc)
        hint = ("The connection broke while reading; try again." if reading else
                "Check the address and your network connection.")
    return JqMagicError("NETWORK_ERROR", f"Failed to fetch {redact(url)}: {why}", hint)


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




def check_url(url: str) -> tuple[str, str, int]:
    """The URL as requests will send it, its host and port, read by the parser that
    connects (urllib3's, after requests prepares the URL: ``http://127.0.0.1:80\\@8.8.8.8``
    goes to 127.0.0.1, whatever ``urlsplit`` says); INVALID_URL for anything not http(s)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise JqMagicError("INVALID_URL", f"Malformed URL {redact(url)!r}: {exc}",
                           "Use a full URL such as https://example.com/page.") from exc
    if parts.scheme.lower() not in ("http", "https"):
        hint = "Use a full URL such as https://example.com/page."
        if not parts.scheme:
            hint = f"Add a scheme: https://{url}" if "." in url else hint
        raise JqMagicError(
            "INVALID_URL",
            f"Refused URL {redact(url)!r}: only http and https are fetched"
            if parts.scheme else f"Malformed URL {redact(url)!r}: no scheme",
            hint,
        )
    if not parts.hostname:
        raise JqMagicError("INVALID_URL", f"Malformed URL {redact(url)!r}: no host",
                           "Use a full URL such as https://example.com/page.")
    import requests
    from urllib3.util import parse_url

    try:
        sent = requests.Request("GET", url).prepare().url
        target = parse_url(sent)
    except (requests.exceptions.RequestException, ValueError) as exc:
        raise JqMagicError("INVALID_URL", f"Malformed URL {redact(url)!r}",
                           "Use a full URL such as https://example.com/page.") from exc
    host = (target.host or "").strip("[]")
    if host.lower() != parts.hostname.lower() or "\\" in parts.netloc:
        raise JqMagicError("INVALID_URL", f"Ambiguous URL {redact(url)!r}: parsers disagree "
                           "on its host", "Write the URL plainly: scheme://host:port/path.")
    return sent, host, target.port or port or (443 if parts.scheme.lower() == "https" else 80)


def redact(url: str) -> str:
    """The URL without user:password and without its query (which may hold a key)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<malformed URL>"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = "..." if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))

