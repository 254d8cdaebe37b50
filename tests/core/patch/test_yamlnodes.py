"""A YAML stream for editing (patch/yamlnodes.py): a pointer's spot is the text of its
node; several documents are an array; aliases, shared anchors and merge keys are refused
where an edit through them would change more than the pointer names; offsets move."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.yamlnodes import Stream

TEXT = "a:\n  b: [1, 2]  # kept\n  c: x\n"


def text_at(stream: Stream, tokens: list[str]) -> str:
    spot, _ = stream.spot(tokens)
    return stream.text[spot.start:spot.end]


def test_a_spot_is_the_text_of_its_node_and_its_ancestors_lead_to_it():
    stream = Stream(TEXT, "t.yaml")
    assert text_at(stream, ["a", "b"]) == "[1, 2]"
    assert text_at(stream, ["a", "b", "1"]) == "2"
    spot, trail = stream.spot(["a", "c"])
    assert stream.text[spot.start:spot.end] == "x" and len(trail) == 2
    assert stream.keys(trail[1].node) == ["b", "c"]
    for tokens, code in ((["a", "z"], "NOT_FOUND"), (["a", "b", "5"], "NOT_FOUND"),
                         (["a", "c", "d"], "NOT_FOUND")):
        with pytest.raises(JqMagicError) as info:
            stream.spot(tokens)
        assert info.value.code == code, tokens


def test_several_documents_are_an_array_and_the_whole_stream_is_not_one_spot():
    stream = Stream("a: 1\n---\nb: 2\n", "t.yaml")
    assert text_at(stream, ["1", "b"]) == "2"
    with pytest.raises(JqMagicError):
        stream.spot([])


def test_a_walk_through_an_alias_or_a_merge_key_is_refused():
    stream = Stream("base: &b {x: 1}\nuse: *b\nm:\n  <<: *b\n  y: 2\n", "t.yaml")
    assert text_at(stream, ["use"]) == "*b"  # the alias itself may be replaced
    for tokens in (["use", "x"], ["base", "x"], ["m", "y"]):
        with pytest.raises(JqMagicError) as info:
            stream.spot(tokens)
        assert info.value.code == "PATCH_CONFLICT", tokens


def test_offsets_after_a_replaced_scalar_move():
    stream = Stream(TEXT, "t.yaml")
    spot, _ = stream.spot(["a", "b", "0"])
    new = stream.text[:spot.start] + "100" + stream.text[spot.end:]
    stream.moved(0, spot.start, spot.end, new, checked=True)
    assert text_at(stream, ["a", "c"]) == "x" and text_at(stream, ["a", "b"]) == "[100, 2]"
