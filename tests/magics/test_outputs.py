"""The magics' plain-text outputs (outputs.py): --to yaml, --to lines, bounded text."""

from __future__ import annotations

from jqmagic.notebook.outputs import Text, lines_text, yaml_text


def test_values_as_yaml_documents_keep_key_order_and_unicode():
    assert yaml_text([{"b": 1, "a": "café"}, [1]]) == "b: 1\na: café\n---\n- 1\n"


def test_values_as_lines_keep_strings_bare():
    assert lines_text(["a b", 1, {"k": None}]) == 'a b\n1\n{"k": null}'


def test_text_is_shown_within_the_bound_with_its_message():
    assert Text("short", "1 result.")._repr_mimebundle_()["text/plain"] == "short\n1 result."
    shown = Text("x" * 10_000_000)._repr_mimebundle_()["text/plain"]
    assert len(shown) < 1_000_000 and "Truncated: showing" in shown
    assert repr(Text("abc")) == "abc"
