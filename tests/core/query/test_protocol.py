"""The worker protocol's frames: every message type through to_wire/from_wire and the
frame reader, as the pipe carries them."""

from __future__ import annotations

import io

import pytest

from jqmagic.core.query import protocol
from jqmagic.core.sources.formats import ValueText


def _through_pipe(*frames: bytes) -> io.BytesIO:
    pipe = io.BytesIO()
    for frame in frames:
        protocol.write_frame(pipe, frame)
    pipe.seek(0)
    return pipe


def test_a_query_request_comes_back_as_sent():
    request = protocol.QueryRequest(
        program=".a", source=protocol.SourceSpec("file", ["a.json", "b.json"], {"jsonl": True}),
        run=protocol.RunSpec(slurp=True, timeout=2.5, library_paths=("lib",)),
        args={"x": [1, "ü"]}, json_args={"n": "1.50"}, layout={"indent": 2},
        dump=protocol.Dump(ascii=True), positional=(1, "two"), keep=100, spill="/tmp/s",
        caller=protocol.Caller({"sandbox": True}, "/here", "/home/u", "/p"),
        ranges=(("a.json", 0, 10),))
    pipe = _through_pipe(request.to_wire())
    assert protocol.read_request(protocol.read_frame(pipe)) == request


def test_a_python_value_crosses_as_its_text_after_the_header():
    value = {"big": 2**70, "f": 0.1, "s": "nul\x00 inside"}
    request = protocol.QueryRequest(".", protocol.SourceSpec("value", value, {}))
    wire = request.to_wire()
    assert wire.count(b"\0") == 1  # the text's own NUL is escaped in JSON
    got = protocol.read_request(wire).source.spec
    assert isinstance(got, ValueText) and got.value() == value


def test_calls_and_controls():
    call = protocol.Call("shape", {"source": {"kind": "text", "spec": "[1]", "formats": {}}},
                         protocol.Caller(cwd="/w"))
    assert protocol.read_request(call.to_wire()) == call
    assert protocol.read_request(protocol.Control("stop").to_wire()) == \
        protocol.Control("stop")


def test_replies_in_order_events_chunks_and_the_end():
    texts = [b"1", b'"\xc3\xbc"', b"", b"[\n  2\n]"]
    chunk = protocol.Chunk(texts)
    end = protocol.End(total=4, messages=["debug"], engine="fast", halted=False,
                       run_error=["boom", 2])
    pipe = _through_pipe(protocol.Event("parsing", "a.json", 10, "yaml").to_wire(),
                         chunk.header(), chunk.body(), end.to_wire())
    assert protocol.read_reply(pipe) == protocol.Event("parsing", "a.json", 10, "yaml")
    assert protocol.read_reply(pipe).texts == texts
    assert protocol.read_reply(pipe) == end
    with pytest.raises(EOFError):
        protocol.read_reply(pipe)


def test_a_big_frame_and_a_cut_one():
    data = b"x" * (1 << 20)
    assert protocol.read_frame(_through_pipe(data)) == data
    cut = io.BytesIO(_through_pipe(data).getvalue()[:1000])
    with pytest.raises(EOFError):
        protocol.read_frame(cut)
