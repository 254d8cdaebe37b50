"""TextDoc keeps each array's members as read (a step finds its element without walking the
array again): any order of edits, deep or shallow, leaves the text the value a plain Python
edit makes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jqmagic.core.patch.textdoc import TextDoc

EDITS = st.lists(st.tuples(st.sampled_from(["replace", "add", "remove", "deep"]),
                           st.integers(0, 40), st.integers(-5, 5)), max_size=25)


def _python_edit(doc: list, op: str, index: int, value: int) -> list[str] | None:
    """The edit on the Python list; its pointer's tokens, or None where it does not apply."""
    if op == "add" and index <= len(doc):
        doc.insert(index, value)
    elif index >= len(doc):
        return None
    elif op == "replace":
        doc[index] = value
    elif op == "remove":
        del doc[index]
    elif isinstance(doc[index], dict):  # deep: a member inside the element
        doc[index]["n"] = value
    else:
        return None
    return [str(index)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=30), EDITS, st.booleans())
def test_edits_in_any_order_make_the_python_value(items, edits, pretty):
    doc = [{"n": x} for x in items]
    text = TextDoc(json.dumps({"a": doc}, indent=2 if pretty else None).encode())
    for op, index, value in edits:
        tokens = _python_edit(doc, op, index, value)
        if tokens is None:
            continue
        if op == "add":
            text.add(["a", *tokens], value)
        elif op == "replace":
            text.replace(["a", *tokens], value)
        elif op == "remove":
            text.remove(["a", *tokens])
        else:
            text.replace(["a", *tokens, "n"], value)
        assert json.loads(text.text) == {"a": doc}



DUPLICATES = [  # (text, the container, its key written twice: the last one is the value)
    (b'{"x": {"a": 1, "b": 2, "a": 3}}', ["x"], "a"),
    (b'{"x": {"a": 1, "b": [2], "\\u0061": 3}}', ["x"], "a"),
    (b'{"x": {"a": 1 /* "a" */, "a": 3}}', ["x"], "a"),
    (b'[{"a": 1, "b": {"a": 0}, "a": 3}]', ["0"], "a"),
    (b'{"x": {"\\u00e9": 1, "\xc3\xa9": 3}}', ["x"], "\u00e9"),
    (b'{"x": {"a/b": 1, "a\\/b": 3}}', ["x"], "a/b")]


@pytest.mark.parametrize(("data", "outer", "key"), DUPLICATES)
def test_a_key_written_twice_is_its_last_one(data, outer, key):
    """A duplicate key, escaped or not (a UTF-8 key and its \\u escape too), is read and
    edited where it is written last, as json reads it."""
    doc = TextDoc(data)
    doc.get(outer)
    assert doc.get([*outer, key]) == 3
    doc.replace([*outer, key], 7)
    assert b"".join(doc.chunks()) == data.replace(b": 3", b": 7")
