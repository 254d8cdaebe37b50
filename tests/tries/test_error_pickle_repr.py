"""A JqMagicError survives pickling and copying (a process pool sends a worker's error back
to its caller pickled: it failed with "__init__() missing ... 'message'" and the caller got
a TypeError instead), and its repr reads as the call that makes it, code first."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

import jqmagic
from jqmagic import JqMagicError


def test_pickle_and_copy_keep_everything():
    error = JqMagicError("INVALID_JSON", "f.json, line 1: bad", "Check the JSON.", "  {\n  ^")
    error.exit_code = 5
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(again) is JqMagicError
        assert (again.code, again.message, again.hint, again.detail, again.exit_code) == (
            "INVALID_JSON", "f.json, line 1: bad", "Check the JSON.", "  {\n  ^", 5)
        assert str(again) == "INVALID_JSON: f.json, line 1: bad"


def test_repr_names_the_code_and_the_hint():
    assert repr(JqMagicError("NOT_FOUND", "File not found: x", "Check the path.")) == (
        "JqMagicError('NOT_FOUND', 'File not found: x', hint='Check the path.')")
    assert repr(JqMagicError("QUERY_ERROR", "boom")) == "JqMagicError('QUERY_ERROR', 'boom')"


def _ask(path: str) -> list:
    return jqmagic.query(".a", file=path).values


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="no fork here")
def test_a_process_pool_hands_the_error_back(tmp_path):
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool, \
            pytest.raises(JqMagicError) as caught:
        pool.submit(_ask, str(tmp_path / "missing.json")).result(timeout=120)
    assert caught.value.code == "NOT_FOUND" and "missing.json" in caught.value.message
