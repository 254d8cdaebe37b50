"""The document behind a shape request (shape/source.py): its format, whether it streams,
its size and bytes."""

from __future__ import annotations

from jqmagic.core.options import Formats, Source
from jqmagic.core.shape.source import open_source


def test_one_json_or_json_lines_file_streams_and_anything_else_loads(tmp_path):
    (tmp_path / "a.json").write_bytes(b'\xef\xbb\xbf{"a": 1}')
    (tmp_path / "b.jsonl").write_text('{"b": 1}\n{"b": 2}\n')
    (tmp_path / "c.yaml").write_text("c: 1\n")
    one = open_source(Source.of(file=str(tmp_path / "a.json")))
    assert one.streamable and one.fmt == "json" and one.size == 11
    with one.open_binary() as raw:
        assert raw.read() == b'{"a": 1}'  # the BOM skipped
    lines = open_source(Source.of(file=str(tmp_path / "b.jsonl")))
    assert lines.lines and lines.load() == [{"b": 1}, {"b": 2}]
    yaml_file = open_source(Source.of(file=str(tmp_path / "c.yaml")))
    assert not yaml_file.streamable and yaml_file.load() == {"c": 1}
    many = open_source(Source.of(file=str(tmp_path / "*.json*")))
    assert many.fmt == "many" and not many.streamable


def test_text_and_values():
    text = open_source(Source.of(text='{"a": 1}', formats=Formats()))
    assert text.streamable and text.size == 8 and text.load() == {"a": 1}
    value = open_source(Source.of(value=[1]))
    assert not value.streamable and value.size == 0 and value.load() == [1]
