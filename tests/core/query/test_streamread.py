"""What keeps a big file from streaming exactly: the number -0 (ijson reads 0) and lone
surrogate escapes, never a string that only spells them (names such as "theta-0")."""

from __future__ import annotations

import io

import pytest

from jqmagic.core.query.streaming.reader import Guarded, Inexact


def _read_all(text: bytes) -> None:
    reader = Guarded(io.BytesIO(text), lambda: None)
    while reader.read(7):  # small blocks: spellings cut across blocks are still judged
        pass
    reader.settle()


@pytest.mark.parametrize("text", [b"[-0]", b'{"a": -0}', b"[1,\n  -0 ]", b"-0",
                                  b'["\\ud800"]', b'["x\\udc00"]'])
def test_inexact_spellings_are_found(text):
    with pytest.raises(Inexact):
        _read_all(text)


@pytest.mark.parametrize("text", [b'[{"name": "theta-0"}, {"name": "item-0x"}]',
                                  b"[-0.5, -0e1, -01, 10, -10]", b'["\\ud83d\\ude00"]'])
def test_other_texts_stream(text):
    _read_all(text)
