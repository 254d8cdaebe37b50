"""A file whose name's bytes are not UTF-8 (``os.fsdecode``'s surrogate escapes) is read
by that name through every face that crosses to the worker, and ``input_filename`` is
jq's text of its bytes (one U+FFFD an odd sequence), as jq 1.8.2 prints it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import jqmagic
from jqmagic.core.query import protocol

if sys.platform == "darwin":  # its file systems refuse names that are not UTF-8
    pytest.skip("macOS file systems refuse names that are not UTF-8", allow_module_level=True)


@pytest.fixture
def odd(tmp_path):
    folder = os.fsencode(tmp_path)
    path = folder + b"/odd\xff\xe2\x82name.json"
    with open(path, "wb") as handle:
        handle.write(b'{"odd": true}\n')
    return os.fsdecode(path)


def test_a_name_with_escapes_crosses_to_the_worker_as_its_bytes():
    name = os.fsdecode(b"/t/odd\xffname.json")
    request = protocol.QueryRequest(
        ".", protocol.SourceSpec("file", [name], {}), args={"x": "v\udcff"},
        caller=protocol.Caller({}, os.fsdecode(b"/t/\xfe"), "/home"))
    back = protocol.read_request(request.to_wire())
    assert back.source.spec == [name] and back.caller.cwd == os.fsdecode(b"/t/\xfe")
    assert back.args == {"x": "v\ufffd"}, "a value's escape is jq's U+FFFD, as before"
    text = protocol.QueryRequest(".", protocol.SourceSpec("text", "v\udcff", {}))
    assert protocol.read_request(text.to_wire()).source.spec == "v\ufffd"


def test_the_python_api_and_the_shape_read_the_file_by_its_name(odd):
    assert jqmagic.query(".odd", file=odd).value is True
    assert jqmagic.query("input_filename", file=odd).value == \
        os.path.dirname(odd) + "/odd\ufffd\ufffdname.json"  # jq 1.8.2's text
    assert list(jqmagic.shape(file=odd).node.keys) == ["odd"]


def test_input_filename_over_a_glob_prints_jqs_bytes(odd):
    folder = os.path.dirname(odd)
    ours = subprocess.run([sys.executable, "-m", "jqmagic", "query", "input_filename",
                           folder + "/odd*"], capture_output=True, check=True).stdout
    assert ours == b'"' + os.fsencode(folder) + b'/odd\xef\xbf\xbd\xef\xbf\xbdname.json"\n'
