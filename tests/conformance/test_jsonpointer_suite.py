"""RFC 6901 examples and grammar edge cases, evaluated on text (TextDoc) and on values.

URI fragments (``#/c%25d``) are percent-decoded here with urllib, as a caller would: jqmagic
takes plain pointers, so the suite's malformed-fragment cases have nothing of ours to test.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.stores import TreeStore
from jqmagic.core.patch.textdoc import TextDoc
from jqmagic.core.pointers import parse_pointer

SUITE = Path(__file__).resolve().parents[3] / "shared" / "suites" / "jsonpointer"

if not SUITE.is_dir():
    pytest.skip(f"JSON Pointer suite not found at {SUITE} (it lives beside the project in "
                "../shared/suites/jsonpointer)", allow_module_level=True)

RFC = json.loads((SUITE / "rfc6901.json").read_text())
EDGE = json.loads((SUITE / "edge_cases.json").read_text())


def _stores(document):
    """The same document as a pretty file text, a minified text and a Python value."""
    pretty = json.dumps(document, indent=2).encode()
    return [TextDoc(pretty), TextDoc(json.dumps(document).encode()), TreeStore(document)]


def _ids(cases, key="pointer"):
    return [repr(c[key]) for c in cases]


@pytest.mark.parametrize("case", RFC["string_representation"],
                         ids=_ids(RFC["string_representation"]))
def test_rfc6901_section5(case):
    tokens = parse_pointer(case["pointer"])
    assert tokens == case["tokens"]
    for store in _stores(RFC["document"]):
        assert store.get(tokens) == case["expected"]


@pytest.mark.parametrize("case", RFC["uri_fragment_representation"],
                         ids=_ids(RFC["uri_fragment_representation"], "fragment"))
def test_rfc6901_section6(case):
    pointer = unquote(case["fragment"][1:])
    assert pointer == case["pointer"]
    for store in _stores(RFC["document"]):
        assert store.get(parse_pointer(pointer)) == case["expected"]


@pytest.mark.parametrize("case", EDGE["valid"], ids=_ids(EDGE["valid"]))
def test_valid_edge_cases(case):
    tokens = parse_pointer(case["pointer"])
    assert tokens == case["tokens"]
    for store in _stores(EDGE["extra_document"]):
        assert store.get(tokens) == case["expected"]


@pytest.mark.parametrize("case", EDGE["invalid_syntax"], ids=_ids(EDGE["invalid_syntax"]))
def test_invalid_syntax(case):
    with pytest.raises(JqMagicError) as caught:
        parse_pointer(case["pointer"])
    assert caught.value.code == "INVALID_POINTER"


@pytest.mark.parametrize("case", EDGE["evaluation_errors"], ids=_ids(EDGE["evaluation_errors"]))
def test_evaluation_errors(case):
    tokens = parse_pointer(case["pointer"])
    for store in _stores(RFC["document"]):
        with pytest.raises(JqMagicError) as caught:
            store.get(tokens)
        assert caught.value.code in ("NOT_FOUND", "INVALID_POINTER")
        assert caught.value.message.startswith("Path ")
