"""Result texts in one piece (libjq's batches, the worker's chunks): the list, the lines
and the last text agree however the piece was made or joined."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from jqmagic.core.query import protocol
from jqmagic.core.query.texts import Texts

_text = st.binary(max_size=12).map(lambda b: b.replace(b"\n", b" ")) | \
    st.sampled_from([b"", b"[\n  1\n]", b'"\xc3\xa9"'])
_pieces = st.lists(st.lists(_text, max_size=6), max_size=5)


def _as_lines(texts: list[bytes]) -> Texts:
    return Texts.of_lines(b"".join(t + b"\n" for t in texts),
                          b"".join(len(t).to_bytes(8, sys.byteorder) for t in texts))


@given(_pieces, st.lists(st.booleans(), min_size=5, max_size=5))
def test_joined_pieces_are_their_texts_in_order(pieces, as_lines):
    made = [_as_lines(p) if lines else Texts(p) for p, lines in zip(pieces, as_lines, strict=False)]
    every = [t for p in pieces for t in p]
    joined = Texts.joined(made) if made else Texts([])
    assert joined.texts == every and len(joined) == len(every)
    assert joined.lines() == b"".join(t + b"\n" for t in every)
    assert joined.size() == sum(map(len, every))
    assert joined.last() == (every[-1] if every else None)


@given(st.lists(_text, max_size=8))
def test_a_chunk_crosses_the_pipe_whole(texts):
    chunk = protocol.Chunk(texts)
    got = protocol.Chunk.received(len(texts), chunk.body())
    assert got.last() == (texts[-1] if texts else None)
    assert got.lines() == chunk.lines() and got.texts == texts
