"""Fixtures for the reliability tests: clean settings and a clean network environment."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from jqmagic.core.settings import configure, current

_ENV = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
        "JQMAGIC_SANDBOX", "JQMAGIC_ALLOWED_ROOTS", "JQMAGIC_EXEC_ALLOWED")


@pytest.fixture(autouse=True)
def clean_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """No proxies and no sandbox from the environment; settings restored afterwards."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    saved = current()
    yield
    configure(**{name: getattr(saved, name) for name in type(saved).__slots__})


@pytest.fixture
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket guard: no connection leaves the machine (one to an address other than
    127.0.0.1 is refused, as offline), so an SSRF test can only reach its own servers."""
    real = socket.socket.connect

    def connect(sock: socket.socket, address: object) -> None:
        if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "::1"):
            raise ConnectionRefusedError(f"socket guard: {address!r} is not reachable")
        return real(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: the long mixed-load test (runs in CI, ~1 min; "
                                       "deselect locally with -m 'not soak')")
