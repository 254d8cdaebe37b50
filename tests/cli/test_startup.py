"""`jqmagic query` starts with only what its run needs: `echo 1 | jqmagic query .` imports
none of the standard library's heavy modules nor jqmagic's own that only other runs use
(each costs milliseconds before jq's own start: bench/startup.py times it). The modules are
listed, not timed."""

from __future__ import annotations

import os
import site
import subprocess
import sys

import pytest

import jqmagic
from jqmagic.core.query import mainloop

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")

# What a plain run must not import (argparse answers only help and refusals; json, re and
# typing only a run that needs them; dataclasses and pathlib never at start-up).
HEAVY = {"argparse", "gettext", "typing", "dataclasses", "inspect", "dis", "ast", "tokenize",
         "re", "pathlib", "fnmatch", "urllib.parse", "ipaddress", "enum", "signal",
         "contextlib", "functools", "collections",
         "json", "tempfile", "shutil", "random", "difflib", "socket", "selectors",
         "threading", "importlib.metadata", "email", "orjson", "jq", "ctypes",
         "importlib", "warnings", "types", "contextvars",
         "jqmagic.cli.commands", "jqmagic.flagerrors", "jqmagic.core.sandbox",
         "jqmagic.core.scope", "jqmagic.core.words", "jqmagic.core.options",
         "jqmagic.core.query.failures", "jqmagic.core.query.supervisor",
         "jqmagic.core.query.streaming.forms", "jqmagic.core.jqlang"}


def _imported(argv: list[str], stdin: bytes) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run the command line in a bare interpreter (no site: an editable install's finder
    would import pathlib and re before jqmagic does) and list what it imported."""
    root = os.path.dirname(os.path.dirname(jqmagic.__file__))
    paths = [root, *site.getsitepackages()]
    code = (f"import sys\nsys.path[:0] = {paths!r}\nbefore = set(sys.modules)\n"
            "from jqmagic.cli import main\n"
            f"status = main({argv!r})\n"
            "sys.stdout.flush()\n"
            "print(' '.join(sorted(set(sys.modules) - before)), file=sys.stderr)\n"
            "sys.exit(status)\n")
    run = subprocess.run([sys.executable, "-I", "-S", "-c", code], input=stdin,
                         capture_output=True, timeout=60)
    return run, set(run.stderr.decode().split())


def test_a_plain_query_imports_only_what_it_runs():
    run, modules = _imported(["query", "."], b"1\n")
    assert (run.returncode, run.stdout) == (0, b"1\n"), run.stderr
    assert "jqmagic.core.query.mainloop" in modules  # it ran here, in libjq
    assert modules & HEAVY == set()


def test_options_and_a_file_import_no_more(tmp_path):
    data = tmp_path / "a.json"
    data.write_text('{"a": [1, 2]}')
    run, modules = _imported(["query", "-c", "--arg", "x", "y", ".a | map(. + 1)",
                              str(data)], b"")
    assert (run.returncode, run.stdout) == (0, b"[2,3]\n"), run.stderr
    assert modules & HEAVY == set()


def test_a_refused_option_is_still_worded_by_argparse():
    run, modules = _imported(["query", "--limit", "x", "."], b"")
    assert run.returncode == 2
    assert b"--limit takes a whole number of 0 or more, not 'x'" in run.stderr
    assert "argparse" in modules  # imported for the refusal only
