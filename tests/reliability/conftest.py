"""Fixtures for the reliability tests: clean settings and a clean network environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from jqmagic.core.settings import settings

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: the long mixed-load test (runs in CI, ~1 min; "
                                       "deselect locally with -m 'not soak')")
