"""Fixtures for the reliability tests: a local web server, clean settings, the faces."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web_servers import WebServer  # noqa: E402

from jqmagic.core.settings import settings  # noqa: E402

_ENV = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
        "JQMAGIC_SANDBOX", "JQMAGIC_ALLOWED_ROOTS", "JQMAGIC_EXEC_ALLOWED")


@pytest.fixture(autouse=True)
def clean_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """No proxies and no sandbox from the environment; settings restored afterwards."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    saved = dict(vars(settings))
    yield
    vars(settings).update(saved)


@pytest.fixture
def web():
    """A fresh server on 127.0.0.1 (port 0) for one test."""
    server = WebServer().start()
    try:
        yield server
    finally:
        server.stop()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: the long mixed-load test (runs in CI, ~1 min; "
                                       "deselect locally with -m 'not soak')")
