"""Removing the last member of a JSONC array or object that ends in a trailing comma takes
the member's own comma, not the one before it: a comment line above the member kept its
text and gained the comma (`// plain,`), the previous member lost its comma."""

from __future__ import annotations

import pytest

from jqmagic.core.patch import patch

CASES = [
    ('[\n  "a",\n  "b",\n  // plain\n  "d",\n]\n', "/2",
     '[\n  "a",\n  "b",\n  // plain\n]\n'),
    ('[\n  "a",\n  // say "q" }\n  "d", // the last\n]\n', "/1",
     '[\n  "a",\n  // say "q" }\n]\n'),
    ('{\r\n  "a": 1,\r\n  /* b next */\r\n  "b": 2,\r\n}', "/b",
     '{\r\n  "a": 1,\r\n  /* b next */\r\n}'),
    ('{"a": 1, "b": 2, /* c */ }', "/b", '{"a": 1, /* c */ }'),
    ('[\n  "a",\n  "d"\n]\n', "/1", '[\n  "a"\n]\n'),  # no trailing comma: as before
]


@pytest.mark.parametrize("text, pointer, want", CASES)
def test_the_last_members_own_comma_goes(tmp_path, text, pointer, want):
    path = tmp_path / "f.jsonc"
    path.write_bytes(text.encode())
    patch(path, "remove", pointer)
    assert path.read_bytes().decode() == want

