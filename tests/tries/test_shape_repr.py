"""A ShapeResult's repr is one bounded line (a Python prompt printed argo-cd's JSON Schema
whole: 1.6 MB), saying the format, the path and the start of the value."""

from __future__ import annotations

import jqmagic


def test_a_big_shape_reprs_in_one_short_line():
    wide = {f"key{i}": {"a": {"b": [i, str(i)]}} for i in range(5000)}
    result = jqmagic.shape(value=wide, format="jsonschema")
    shown = repr(result)
    assert len(result.text) > 100_000 and len(shown) < 300 and "\n" not in shown
    assert shown.startswith('<ShapeResult jsonschema of the document: {"$schema": ')


def test_a_part_says_its_path():
    assert repr(jqmagic.shape(value={"a": [1]}, path="/a")) == (
        '<ShapeResult shape of \'/a\': {"path": "/a", "type": "array", "arrayLength": 1, '
        '"elementType": "number", "elementTemplate": "number"}>')
