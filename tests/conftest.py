"""Test-wide environment: what jq's suite assumes, set before any worker starts."""

import os

os.environ.setdefault("PAGER", "less")
os.environ["LC_ALL"] = "C"


import pytest


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
