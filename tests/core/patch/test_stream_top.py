"""An edit of a stream itself (a YAML stream's documents, a JSON Lines file's lines) is
refused saying how many there are and naming an edit inside one, on every face that calls
the core (``jqmagic.patch``, the json_patch tool, ``jqmagic patch``); the file is kept."""

from __future__ import annotations

import pytest

import jqmagic
from jqmagic.core.errors import JqMagicError


@pytest.mark.parametrize("name, text, said, last", [
    ("two.yaml", "a: 1\n---\nb: 2\n", "the documents of a YAML stream: it holds 2 documents",
     1),
    ("three.jsonl", "{}\n{}\n{}\n", "the lines of a JSON Lines file: it holds 3 lines", 2),
])
@pytest.mark.parametrize("op, path", [("remove", "/1"), ("set", "/-"), ("set", "")])
def test_a_streams_top_is_refused_with_its_count(tmp_path, name, text, said, last, op,
                                                  path):
    target = tmp_path / name
    target.write_text(text)
    with pytest.raises(JqMagicError) as caught:
        jqmagic.patch(str(target), op, path, *([] if op == "remove" else [1]))
    assert caught.value.code == "INVALID_ARGUMENT"
    assert caught.value.message == f"Cannot replace, add or remove {said}, /0 to /{last}."
    assert caught.value.hint == f"Edit inside one of them, e.g. /{last}/KEY."
    assert target.read_text() == text
