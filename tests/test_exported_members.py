"""The public door: what ``import jqmagic`` offers, and what it must not import."""

import subprocess
import sys

import jqmagic


def test_all_is_pinned():
    assert sorted(jqmagic.__all__) == [
        "FetchResult", "JqMagicError", "QueryResult", "SchemaBrowser", "SearchResults",
        "ShapeResult", "__version__", "check", "clear_cache", "explain", "fetch",
        "load_ipython_extension", "patch", "payload", "query", "query_iter", "search", "shape",
        "suggest"]
    for name in jqmagic.__all__:
        assert hasattr(jqmagic, name), name


def test_query_iter_yields_values_as_docs_index_says():
    values = jqmagic.query_iter("range(1e9) | {n: .}", null_input=True)
    assert [next(values) for _ in range(3)] == [{"n": 0}, {"n": 1}, {"n": 2}]
    values.close()


def test_core_imports_without_ipython_or_ipywidgets():
    code = ("import sys; sys.modules['IPython'] = None; sys.modules['ipywidgets'] = None\n"
            "import jqmagic, jqmagic.core.query\n"
            "print(jqmagic.query('.a', value={'a': 1}).values)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[1]"
