"""Real HTTP servers on 127.0.0.1 for the web tests (no internet, no mocks).

``WebServer`` serves registered routes from a ``ThreadingHTTPServer`` on port 0 in a
thread and records every request. ``fake_brave`` / ``fake_google`` add the two search
APIs' endpoints with their auth, quota and error behaviours.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

Handler = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Seen:
    """One request the server received."""

    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


@dataclass
class WebServer:
    routes: dict[str, Handler] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    host: str = "127.0.0.1"

    def start(self) -> WebServer:
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                parts = urlsplit(self.path)
                server.seen.append(Seen(parts.path, parse_qs(parts.query),
                                        {k.lower(): v for k, v in self.headers.items()}))
                handler = server.routes.get(parts.path)
                if handler is None:
                    send(self, 404, b"no such page", "text/plain")
                else:
                    handler(self)

            def log_message(self, *args: Any) -> None:
                pass

        class _Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # clients that hang up early (caps, timeouts) are expected here

        self._httpd = _Server((self.host, 0), _Handler)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def add(self, path: str, body: bytes | str = b"", ctype: str = "text/html; charset=utf-8",
            status: int = 200, headers: dict[str, str] | None = None) -> str:
        """Serve a fixed response at ``path``; returns its URL."""
        data = body.encode() if isinstance(body, str) else body
        self.routes[path] = lambda h: send(h, status, data, ctype, headers)
        return self.url(path)

    def handle(self, path: str, handler: Handler) -> str:
        """Serve ``path`` with a custom handler; returns its URL."""
        self.routes[path] = handler
        return self.url(path)

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        return self.add(path, b"", "text/plain", status, {"Location": location})


def send(h: BaseHTTPRequestHandler, status: int, body: bytes, ctype: str | None,
         headers: dict[str, str] | None = None) -> None:
    h.send_response(status)
    if ctype:
        h.send_header("Content-Type", ctype)
    h.send_header("Content-Length", str(len(body)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(body)


def slow(delay: float, body: bytes = b"late", ctype: str = "text/plain") -> Handler:
    """Answer after ``delay`` seconds."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        time.sleep(delay)
        send(h, 200, body, ctype)

    return handler


def drip(chunk: bytes, every: float, count: int) -> Handler:
    """Send ``count`` chunks, one every ``every`` seconds (no Content-Length)."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Connection", "close")
        h.end_headers()
        for _ in range(count):
            h.wfile.write(chunk)
            h.wfile.flush()
            time.sleep(every)

    return handler


def endless(chunk: bytes = b"x" * 65536, limit: int = 64 * 1024 * 1024) -> Handler:
    """A body without Content-Length that goes on for ``limit`` bytes."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Connection", "close")
        h.end_headers()
        sent = 0
        while sent < limit:
            h.wfile.write(chunk)
            sent += len(chunk)

    return handler


# -- fake search APIs ----------------------------------------------------------------------
BRAVE_KEY = "brave-secret-key-123"
GOOGLE_KEY = "google-secret-key-456"
GOOGLE_CX = "engine-789"


def _json(h: BaseHTTPRequestHandler, status: int, data: Any) -> None:
    send(h, status, json.dumps(data).encode(), "application/json")


def fake_brave(server: WebServer, path: str = "/brave") -> str:
    """Brave's web search: X-Subscription-Token auth; q picks special answers."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        q = parse_qs(urlsplit(h.path).query)
        if h.headers.get("X-Subscription-Token") != BRAVE_KEY:
            return _json(h, 401, {"type": "ErrorResponse", "error": {
                "code": "SUBSCRIPTION_TOKEN_INVALID", "detail": "The provided subscription "
                "token is invalid.", "status": 401}})
        term = q.get("q", [""])[0]
        if term == "ratelimit":
            return _json(h, 429, {"error": {"code": "RATE_LIMITED", "status": 429}})
        if term == "boom":
            return _json(h, 500, {"error": {"detail": "internal failure", "status": 500}})
        if term == "notjson":
            return send(h, 200, b"<html>oops</html>", "text/html")
        count = int(q.get("count", ["10"])[0])
        hosts = ["docs.python.org", "www.example.com", "spam.com", "example.org",
                 "blog.spam.com"]
        results = [{"title": f"<strong>{term}</strong> result {i} &amp; more",
                    "url": f"https://{hosts[i % len(hosts)]}/page{i}",
                    "description": f"About <strong>{term}</strong> number {i}",
                    "type": "search_result"} for i in range(count)]
        _json(h, 200, {"type": "search", "query": {"original": term},
                       "web": {"type": "search", "results": results}})

    return server.handle(path, handler)


def fake_google(server: WebServer, path: str = "/google") -> str:
    """Google Custom Search JSON API: key + cx params; q picks special answers."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        q = {k: v[0] for k, v in parse_qs(urlsplit(h.path).query).items()}
        if q.get("key") != GOOGLE_KEY:
            return _json(h, 400, {"error": {"code": 400, "message": "API key not valid. "
                                            "Please pass a valid API key.", "errors": [{
                                                "reason": "keyInvalid"}],
                                            "status": "INVALID_ARGUMENT"}})
        term = q.get("q", "")
        if term == "quota":
            return _json(h, 403, {"error": {"code": 403, "message": "Daily Limit Exceeded",
                                            "errors": [{"reason": "dailyLimitExceeded"}]}})
        if term == "forbidden":
            return _json(h, 403, {"error": {"code": 403, "message": "Custom Search API "
                                            "has not been used in project",
                                            "errors": [{"reason": "accessNotConfigured"}]}})
        if term == "boom":
            return _json(h, 503, {"error": {"code": 503, "message": f"Backend error "
                                            f"for key {q.get('key')}"}})
        if term == "empty":
            return _json(h, 200, {"kind": "customsearch#search", "searchInformation": {
                "totalResults": "0"}})
        num, start = int(q.get("num", 10)), int(q.get("start", 1))
        hosts = ["en.wikipedia.org", "example.com", "sub.example.com", "other.net"]
        items = [{"kind": "customsearch#result", "title": f"{term} hit {start + i}",
                  "link": f"https://{hosts[(start + i) % len(hosts)]}/r{start + i}",
                  "snippet": f"Snippet {start + i}", "displayLink": "x"} for i in range(num)]
        _json(h, 200, {"kind": "customsearch#search", "items": items})

    return server.handle(path, handler)
