"""One total deadline over every byte of a fetch, headers included, against real servers on
127.0.0.1 that trickle their status line, headers or body a byte at a time (each byte well
within the read timeout, so only the total deadline can end them)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.web.fetch import fetch

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"


class Trickler:
    """A TCP server that sends ``prefix`` and then ``byte`` every ``every`` seconds until the
    client hangs up; it counts the connections it is still serving."""

    def __init__(self, prefix: bytes, byte: bytes = b"x", every: float = 0.1):
        self.prefix, self.byte, self.every = prefix, byte, every
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.serving = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        self.server.settimeout(0.2)
        while not self.stopped.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        self.serving += 1
        try:
            conn.recv(65536)
            conn.sendall(self.prefix)
            while not self.stopped.is_set():
                conn.sendall(self.byte)
                time.sleep(self.every)
        except OSError:
            pass  # the client hung up: what the deadline is for
        finally:
            self.serving -= 1
            conn.close()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.server.close()


@pytest.fixture
def trickle() -> Iterator:
    made: list[Trickler] = []

    def make(prefix: bytes) -> Trickler:
        made.append(Trickler(prefix))
        return made[-1]

    yield make
    for server in made:
        server.stop()


CASES = {
    "status line": b"HTTP/1.1 2",
    "header value": HEAD + b"X-Slow: ",
    "header lines": HEAD,  # one byte at a time, never the blank line ending the headers
    "body": HEAD + b"Connection: close\r\n\r\n",
    "body with a length": HEAD + b"Content-Length: 100000\r\n\r\n",
}


@pytest.mark.parametrize("case", CASES)
def test_a_trickling_server_is_cut_at_the_total_deadline(trickle, case):
    server = trickle(CASES[case])
    started = time.monotonic()
    with pytest.raises(JqMagicError) as caught:
        fetch(f"http://127.0.0.1:{server.port}/", private_addresses=True, timeout=(2, 2),
              total_timeout=1.0)
    took = time.monotonic() - started
    assert caught.value.code == "NETWORK_ERROR", caught.value
    assert "timed out" in caught.value.message and caught.value.hint
    assert 0.9 < took < 2.5, took
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer)]
    for _ in range(40):  # and the server sees the client hang up
        if server.serving == 0:
            break
        time.sleep(0.05)
    assert server.serving == 0


def test_a_quick_answer_is_not_cut(web):
    url = web.add("/ok.txt", "fine", "text/plain")
    result = fetch(url, private_addresses=True, total_timeout=1.0)
    assert "fine" in result.content
    time.sleep(1.2)  # past the deadline: nothing fires into a finished fetch
    assert "fine" in fetch(url, private_addresses=True, total_timeout=1.0).content


@pytest.mark.parametrize("case", ["status line", "header value", "body with a length"])
def test_a_trickling_search_api_is_cut_at_the_total_deadline(trickle, monkeypatch, case):
    from jqmagic.core.settings import settings
    from jqmagic.core.web.search import search

    server = trickle(CASES[case])
    monkeypatch.setenv("JQMAGIC_BRAVE_ENDPOINT", f"http://127.0.0.1:{server.port}/brave")
    monkeypatch.setenv("BRAVE_API_KEY", "brave-key-never-shown")
    monkeypatch.setattr(settings, "fetch_total_timeout", 1.0)
    started = time.monotonic()
    with pytest.raises(JqMagicError) as caught:
        search("trickle", timeout=(2, 2))
    assert caught.value.code == "NETWORK_ERROR" and "timed out" in caught.value.message
    assert 0.9 < time.monotonic() - started < 2.5
    assert "brave-key-never-shown" not in str(caught.value.to_dict())
    assert not [t for t in threading.enumerate() if isinstance(t, threading.Timer)]


def test_a_session_of_the_caller_keeps_its_own_transport(web):
    import requests
    from requests.adapters import HTTPAdapter

    class Own(HTTPAdapter):
        used = 0

        def send(self, *args, **kwargs):
            Own.used += 1
            return super().send(*args, **kwargs)

    url = web.add("/ok.txt", "fine", "text/plain")
    with requests.Session() as session:
        session.mount("http://", Own())
        assert "fine" in fetch(url, private_addresses=True, session=session).content
        assert Own.used == 1 and type(session.get_adapter("http://")) is Own
    with requests.Session() as plain:
        plain.mount("http://", HTTPAdapter(max_retries=2))
        fetch(url, private_addresses=True, session=plain)
        watched = plain.get_adapter("http://")
        assert type(watched) is not HTTPAdapter and watched.max_retries.total == 2
