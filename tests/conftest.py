"""Test-wide environment (what jq's suite assumes, set before any worker starts) and
the fixtures many test files share: a real IPython shell and local web servers."""

import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.web_servers import WebServer

os.environ.setdefault("PAGER", "less")
os.environ["LC_ALL"] = "C"

# The suite's property tests draw the same examples on every run, so CI is repeatable;
# HYPOTHESIS_PROFILE=explore draws fresh ones (what found the -0 and <title> bugs).
hypothesis_settings.register_profile("repeatable", derandomize=True)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(scope="session")
def ip():
    """A real IPython shell with jqmagic loaded (history database off)."""
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "jqmagic")
    return shell


@pytest.fixture
def run_cell(ip):
    """Run a cell; re-raise its error instead of printing it."""

    def run(code: str):
        result = ip.run_cell(code)
        if result.error_before_exec:
            raise result.error_before_exec
        if result.error_in_exec:
            raise result.error_in_exec
        return result.result

    return run


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


@pytest.fixture
def env(clean_env: Path, tmp_path: Path) -> dict[str, str]:
    """The environment for a jqmagic subprocess: clean_env's, plus its own payload store.
    The agent faces run sandboxed: this opens their sandbox to the test's folder, its
    local web servers and its commands (tests/tools/test_policy.py tries it closed)."""
    return dict(os.environ, JQMAGIC_PAYLOAD_DIR=str(tmp_path / "payloads"),
                JQMAGIC_ALLOWED_ROOTS=str(tmp_path), JQMAGIC_PRIVATE_ADDRESSES="1",
                JQMAGIC_EXEC_ALLOWED="1")
