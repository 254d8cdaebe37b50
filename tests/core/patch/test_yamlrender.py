"""New YAML text in a document's style (patch/yamlrender.py): plain strings only where YAML
reads them back the same, the old quotes kept, numbers YAML 1.1 reads as numbers, blocks
indented as the document indents them."""

from __future__ import annotations

import pytest
import yaml

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch import yamlrender as render


@pytest.mark.parametrize("text", ["plain", "a b", "x-1", "café"])
def test_plain_where_it_reads_back_as_the_same_string(text):
    assert render.plain_ok(text, flow=False) and render.string(text, False) == text


@pytest.mark.parametrize("text", ["yes", "null", "1.5", "a: b", "a #b", "", " x", "x:",
                                  "- x", "a\nb", "\x00"])
def test_quoted_where_plain_would_read_otherwise(text):
    written = render.string(text, False)
    assert written != text or not render.plain_ok(text, False)
    assert yaml.safe_load(f"k: {written}")["k"] == text


def test_flow_context_quotes_its_own_specials_and_the_old_quotes_stay():
    assert render.string("a,b", flow=True) == '"a,b"' and render.string("a,b", False) == "a,b"
    assert render.string("it's", False, old="'") == "'it''s'"
    assert render.string("x", False, old='"') == '"x"'


def test_numbers_and_what_is_not_json():
    assert render.scalar(1e100, False) == "1.0e+100"
    assert yaml.safe_load(render.scalar(1e100, False)) == 1e100
    assert [render.scalar(v, False) for v in (None, True, 3)] == ["null", "true", "3"]
    with pytest.raises(JqMagicError) as info:
        render.scalar(float("nan"), False)
    assert info.value.code == "INVALID_ARGUMENT"


def test_blocks_follow_the_document_s_indentation():
    style = render.YamlStyle(unit="    ", seq_indent="", newline="\n")
    text = render.block({"a": {"b": [1, {"c": "x"}]}, "d": []}, "", style)
    assert text == "a:\n    b:\n    - 1\n    - c: x\nd: []"
    assert yaml.safe_load(text) == {"a": {"b": [1, {"c": "x"}]}, "d": []}


def test_the_style_is_detected_from_the_first_nested_collections():
    text = "a:\n    b: 1\n    c:\n    - x\n"
    style = render.detect(list(yaml.compose_all(text)), text)
    assert (style.unit, style.seq_indent, style.newline) == ("    ", "", "\n")


def test_several_lines_become_a_literal_block_when_it_holds_them_exactly():
    assert render.literal("a\nb\n", "  ", "\n") == "|\n  a\n  b"
    assert render.literal("a\nb", "  ", "\n") == "|-\n  a\n  b"
    assert render.literal(" a\nb\n", "  ", "\n") is None
