"""Test-wide environment (what jq's suite assumes, set before any worker starts), which
files are slow and how pytest-xdist groups the tests, and the fixtures many test files
share: a real IPython shell and local web servers."""

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

# `make quick` leaves out what is marked slow: a test that says so, and every test of these
# files, each over 3 s in all on two busy cores (a worker, a server or a kernel per test; 50
# MB to 300 MB documents; property tests). Measured with --durations: put a file here when
# it grows past that.
_SLOW = {
    "cli": ("test_browse", "test_browse_keys", "test_cli", "test_cli_inspect",
            "test_cli_streaming", "test_cli_web", "test_dropin_values", "test_jq_driver"),
    "core": ("test_explain", "test_explain_faces", "test_explain_suite", "test_suggest",
             "test_suggest_cases"),
    "core/jqlang": ("test_deadlines", "test_exactness", "test_fused", "test_fused_bindings",
                    "test_gojq", "test_printer", "test_printer_doubles", "test_properties",
                    "test_regex", "test_regex_flags", "test_suite"),
    "core/patch": ("test_editor_race", "test_yaml_props"),
    "core/query": ("test_dask", "test_progress", "test_projected", "test_query",
                   "test_streameval", "test_worker"),
    "core/shape": ("test_hints_followed", "test_shape"),
    "core/sources": ("test_yamlbuild",),
    "core/web": ("test_deadline", "test_docpages", "test_fetch", "test_html", "test_pathological",
                 "test_search"),
    "magics": ("test_magic_web",),
    "reliability": ("test_attack_matrix", "test_attack_properties", "test_attacks",
                    "test_confinement", "test_named_cases", "test_nothing_lost",
                    "test_properties", "test_runaway", "test_sandbox", "test_sandbox_matrix",
                    "test_servers_survive", "test_soak"),
    "": ("test_bench_smoke", "test_notebooks", "test_widget"),
    "tools": ("test_agent_tasks", "test_dropin_executables", "test_hint_words", "test_mcp",
              "test_mcp_session", "test_message_wall", "test_message_wall_http", "test_policy",
              "test_tools_cli", "test_wire_bound"),
}
SLOW_FILES = {"/".join(filter(None, ("tests", folder, f"{name}.py")))
              for folder, names in _SLOW.items() for name in names}

# Under pytest-xdist (`make test` runs `-n 2 --dist loadgroup`), a test file is one unit of
# work, so its module fixtures (a JupyterLab, an MCP session, an attack world) are made once
# and its report written whole; the notebook, browser and Binder tests, which each start
# kernels, share one worker. The longest units go first: that group, then the slow files.
_NOTEBOOK_FILES = {"tests/test_e2e_browser.py", "tests/test_e2e_jqbox.py",
                   "tests/test_notebooks.py", "tests/test_binder.py"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _file(item) in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
    if config.getoption("dist", "no") != "loadgroup":
        return
    for item in items:
        notebooks = _file(item) in _NOTEBOOK_FILES
        item.add_marker(pytest.mark.xdist_group("notebooks" if notebooks else _file(item)))
    items.sort(key=lambda item: (_file(item) not in _NOTEBOOK_FILES,
                                 item.get_closest_marker("slow") is None))


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


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
