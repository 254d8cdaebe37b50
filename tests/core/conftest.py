"""Fixtures for the core tests: a local web server and a clean network environment."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web_servers import WebServer  # noqa: E402

_PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
               "all_proxy", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
_SEARCH_VARS = ("BRAVE_API_KEY", "GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID",
                "JQMAGIC_BRAVE_ENDPOINT", "JQMAGIC_GOOGLE_ENDPOINT", "JQMAGIC_SANDBOX")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No proxies, no real credentials, config home in a temp folder (returned)."""
    for name in _PROXY_VARS + _SEARCH_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def web(clean_env: Path):
    """A fresh server on 127.0.0.1 (port 0) for one test."""
    server = WebServer().start()
    try:
        yield server
    finally:
        server.stop()
