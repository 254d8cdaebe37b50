"""json-patch-tests (RFC 6902) and the RFC 7386 examples, on files and on Python values.

Each case runs three ways: on a pretty-printed file and on a minified file (text-level
edits through ``patch()``, then the file is parsed back), and on a Python value (the tree
store). An ``error`` case must raise a JqMagicError and leave the file byte-identical or the
value unchanged.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import patch
from jqmagic.core.patch.operations import _merge_patch, _rfc6902
from jqmagic.core.patch.stores import TreeStore

SUITE = Path(__file__).resolve().parents[3] / "shared" / "suites" / "jsonpatch"

if not SUITE.is_dir():
    pytest.skip(f"json-patch suite not found at {SUITE} (it lives beside the project in "
                "../shared/suites/jsonpatch)", allow_module_level=True)

# A JSON parser keeps one of two "op" members, so these cases cannot fail as written.
DUPLICATE_MEMBER = "a parsed JSON object cannot hold two 'op' members"


def _cases(name: str) -> list:
    params = []
    for n, case in enumerate(json.loads((SUITE / name).read_text())):
        label = f"{name.removesuffix('.json')}-{n}-{case.get('comment', 'no comment')}"
        marks = [pytest.mark.skip(reason=DUPLICATE_MEMBER)] if "two 'op'" in case.get(
            "error", "") else []
        params.append(pytest.param(case, id=label[:80], marks=marks))
    return params


RFC6902 = _cases("tests.json") + _cases("spec_tests.json")
RFC7386 = _cases("rfc7386.json") + _cases("rfc7386_body_examples.json")


def _write(tmp_path: Path, doc, indent) -> Path:
    target = tmp_path / "doc.json"
    target.write_text(json.dumps(doc, indent=indent, ensure_ascii=False) + "\n", "utf-8")
    return target


@pytest.mark.parametrize("indent", [2, None], ids=["pretty", "minified"])
@pytest.mark.parametrize("case", RFC6902)
def test_rfc6902_on_files(case, indent, tmp_path):
    target = _write(tmp_path, case["doc"], indent)
    before = target.read_bytes()
    if "error" in case:
        with pytest.raises(JqMagicError):
            patch(target, rfc6902=case["patch"])
        assert target.read_bytes() == before
        return
    patch(target, rfc6902=case["patch"])
    if "expected" in case:
        assert json.loads(target.read_text("utf-8")) == case["expected"]


@pytest.mark.parametrize("case", RFC6902)
def test_rfc6902_on_values(case):
    store = TreeStore(copy.deepcopy(case["doc"]))
    if "error" in case:
        with pytest.raises(JqMagicError):
            try:
                _rfc6902(store, case["patch"])
            finally:
                store.rollback()
        assert store.root == case["doc"]
        return
    _rfc6902(store, case["patch"])
    if "expected" in case:
        assert store.root == case["expected"]


@pytest.mark.parametrize("indent", [2, None], ids=["pretty", "minified"])
@pytest.mark.parametrize("case", RFC7386)
def test_rfc7386_on_files(case, indent, tmp_path):
    target = _write(tmp_path, case["doc"], indent)
    patch(target, merge_patch=case["patch"])
    assert json.loads(target.read_text("utf-8")) == case["expected"]


@pytest.mark.parametrize("case", RFC7386)
def test_rfc7386_on_values(case):
    store = TreeStore(copy.deepcopy(case["doc"]))
    _merge_patch(store, case["patch"])
    assert store.root == case["expected"]


def test_the_suites_are_all_here():
    """Guard against a silently shrunken suite: counts from the suite's README."""
    assert len(RFC6902) == 95 + 17
    assert len(RFC7386) == 15 + 2
