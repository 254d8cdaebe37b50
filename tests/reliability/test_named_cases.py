"""Named hostile inputs, each through every face that reads or patches a file.

Allowed outcomes: a result, or a JqMagicError with a stable code (never another
exception, never a traceback, never a hang, never a changed file after a failed patch).
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import time
from pathlib import Path

import pytest

from jqmagic import patch, query, shape
from jqmagic.core import sources
from jqmagic.core.options import Source
from jqmagic.core.shape.infer import shape_here
from jqmagic.core.web.html import to_markdown
from tests.reliability.faces import OK, cli, core, file_entries, magic, patch_entries

READERS = ["query", "shape", "shape-stream", "load_values", "cli-query", "cli-inspect", "%jq",
           "%inspect"]
PATCHERS = ["patch", "cli-patch", "%jsonpatch"]
DEEP = 10_000
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True))


@pytest.fixture(scope="module", autouse=True)
def watchdog():
    """A hang (a FIFO read, a runaway parse) fails the run instead of blocking CI."""
    faulthandler.dump_traceback_later(600, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def read_case(ip, tmp_path: Path, entry: str, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return file_entries(ip)[entry](str(path))


def patch_case(ip, tmp_path: Path, entry: str, data: bytes, name: str = "doc.json"):
    """Patch a file holding ``data``; on failure the bytes must be unchanged."""
    path = tmp_path / name
    path.write_bytes(data)
    code, out = patch_entries(ip)[entry](str(path))
    if code != OK:
        assert path.read_bytes() == data
    return code, out, path.read_bytes()


@pytest.mark.parametrize("entry", READERS)
@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n "], ids=["empty", "whitespace"])
def test_empty_and_whitespace_read_as_no_values(ip, tmp_path, entry, data):
    code, out = read_case(ip, tmp_path, entry, "doc.json", data)
    assert code in (OK, "INVALID_JSON")
    if entry in ("query", "load_values"):
        assert code == OK and (out.values if entry == "query" else out) == []


@pytest.mark.parametrize("entry", PATCHERS)
@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n "], ids=["empty", "whitespace"])
def test_empty_and_whitespace_cannot_be_patched(ip, tmp_path, entry, data):
    code, _, _ = patch_case(ip, tmp_path, entry, data)
    assert code == "INVALID_JSON"


@pytest.mark.parametrize("entry", READERS)
def test_utf8_bom_is_skipped(ip, tmp_path, entry):
    code, out = read_case(ip, tmp_path, entry, "doc.json", b'\xef\xbb\xbf{"a": 1}')
    assert code == OK
    if entry == "query":
        assert out.values == ["object"]


@pytest.mark.parametrize("entry", PATCHERS)
def test_utf8_bom_is_kept_by_a_patch(ip, tmp_path, entry):
    code, _, after = patch_case(ip, tmp_path, entry, b'\xef\xbb\xbf{"a": 1}')
    assert code == OK and after == b'\xef\xbb\xbf{"a": 1, "x": 1}'


UTF16 = {"utf-16": '{"a": "é"}'.encode("utf-16"), "utf-16-be-no-bom": b'\x00{\x00}',
         "utf-16-le-no-bom": b'[\x00]\x00', "utf-32": '{"a": 1}'.encode("utf-32")}


@pytest.mark.parametrize("entry", READERS + PATCHERS)
@pytest.mark.parametrize("kind", UTF16)
def test_utf16_and_utf32_say_convert_to_utf8(ip, tmp_path, entry, kind):
    data = UTF16[kind]
    if entry in PATCHERS:
        code, out, _ = patch_case(ip, tmp_path, entry, data)
    else:
        code, out = read_case(ip, tmp_path, entry, "doc.json", data)
    text = str(getattr(out, "render", lambda: out)())
    assert code == "FILE_ERROR"
    assert "UTF-" in text and "convert it to UTF-8" in text and "iconv" in text


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_invalid_utf8(ip, tmp_path, entry):
    data = b'{"a": "\xff\xfe bad", "b": 1}'
    if entry in PATCHERS:
        code, _, after = patch_case(ip, tmp_path, entry, data)
        assert code == OK and after.startswith(data[:-1])  # the bad bytes are kept as they were
    else:
        code, _ = read_case(ip, tmp_path, entry, "doc.json", data)
        assert code in (OK, "FILE_ERROR", "INVALID_JSON")


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_binary_file(ip, tmp_path, entry):
    data = bytes(range(256)) * 64
    if entry in PATCHERS:
        code, _, _ = patch_case(ip, tmp_path, entry, data)
    else:
        code, _ = read_case(ip, tmp_path, entry, "doc.json", data)
    assert code in ("INVALID_JSON", "FILE_ERROR")


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_nan_and_infinity_literals(ip, tmp_path, entry):
    data = b'{"a": NaN, "b": Infinity, "c": -Infinity}'
    if entry in PATCHERS:
        code, _, _ = patch_case(ip, tmp_path, entry, data)
        assert code == "INVALID_JSON"  # never rewritten into something else
    else:
        code, _ = read_case(ip, tmp_path, entry, "doc.json", data)
        assert code in (OK, "INVALID_JSON")


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_duplicate_keys_last_one_wins_everywhere(ip, tmp_path, entry):
    data = b'{"a": 1, "a": 2}'
    if entry in PATCHERS:
        code, _, after = patch_case(ip, tmp_path, entry, data)
        assert code == OK and after == b'{"a": 1, "a": 2, "x": 1}'
        return
    code, _ = read_case(ip, tmp_path, entry, "doc.json", data)
    assert code == OK
    path = str(tmp_path / "doc.json")
    assert query(".a", path).values == [2] == [sources.load_values(path)[0]["a"]]


def nested(kind: str, depth: int = DEEP) -> bytes:
    if kind == "arrays":
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


@pytest.mark.parametrize("entry", READERS + PATCHERS)
@pytest.mark.parametrize("kind", ["arrays", "objects"])
def test_ten_thousand_levels_never_raise_recursion_error(ip, tmp_path, entry, kind):
    if entry in PATCHERS:
        code, _, _ = patch_case(ip, tmp_path, entry, nested(kind))
    else:
        code, _ = read_case(ip, tmp_path, entry, "doc.json", nested(kind))
    assert code in (OK, "TOO_LARGE", "INVALID_JSON")  # jq itself parses up to 10,000 levels


@pytest.mark.parametrize("kind", ["arrays", "objects"])
def test_ten_thousand_levels_as_text_value_and_yaml(kind, tmp_path):
    text = nested(kind).decode()
    deep: list | dict = []
    for _ in range(DEEP):
        deep = [deep]
    for outcome in (core(query, "length", text=text), core(shape, text=text),
                    core(sources.load_values, text=text), core(query, "length", value=deep),
                    core(shape, value=deep), core(patch, deep, "set", "/0/0", 1),
                    core(query, "length", text=text, yaml=True)):
        assert outcome[0] in (OK, "TOO_LARGE", "INVALID_JSON", "INVALID_YAML")


def test_a_ten_thousand_level_result_from_the_core():
    """Printed as jq prints it (issue 52: it was refused past Python's recursion limit)."""
    result = query(".", text=nested("arrays").decode(), compact=True)
    assert result.text == nested("arrays").decode()


def test_a_ten_thousand_level_result_through_the_faces(ip, tmp_path):
    path = tmp_path / "deep.json"
    path.write_bytes(nested("arrays"))
    # into a pipe the command line is jq, which prints it (texts are never parsed back)
    assert cli("query", "-c", ".", str(path)) == (OK, nested("arrays").decode() + "\n")
    assert magic(ip, "jq", f". {path} --file -c")[0] == "OK"  # as jq prints it (issue 52)


def test_ten_thousand_levels_of_html():
    html = "<div>" * DEEP + "<p>deep text</p>" + "</div>" * DEEP
    assert "deep text" in to_markdown(html).markdown
    assert "bold" in to_markdown("<b>" * DEEP + "bold").markdown


@pytest.fixture(scope="module")
def big_string_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.json"
    with open(path, "wb") as out:
        out.write(b'{"s": "')
        out.write(b"x" * (100 * 2**20))
        out.write(b'", "n": 1}')
    return path


@pytest.mark.parametrize("entry", ["query", "shape", "shape-stream", "load_values"])
def test_a_100_mb_single_string(big_string_file, entry, ip):
    started = time.monotonic()
    code, _ = file_entries(ip)[entry](str(big_string_file))
    assert code == OK and time.monotonic() - started < 30


def test_a_100_mb_single_string_query_and_patch(big_string_file, tmp_path):
    assert query(".s | length", big_string_file).values == [100 * 2**20]
    copy = tmp_path / "big.json"
    shutil.copy(big_string_file, copy)
    assert patch(str(copy), "set", "/n", 2)["previousValue"] == 1
    assert copy.stat().st_size == big_string_file.stat().st_size


NUMBERS = (b'{"u64": 18446744073709551617, "i64": -9223372036854775809, '
           b'"big": 123456789012345678901234567890, "d": 0.10000000000000000000000000001}')


@pytest.mark.parametrize("entry", READERS)
def test_numbers_beyond_64_bits_read(ip, tmp_path, entry):
    assert read_case(ip, tmp_path, entry, "doc.json", NUMBERS)[0] == OK


def test_numbers_beyond_64_bits_stay_exact(tmp_path):
    path = tmp_path / "n.json"
    path.write_bytes(NUMBERS)
    want = [2**64 + 1, -(2**63) - 1, 123456789012345678901234567890]
    assert query("[.u64, .i64, .big]", path).values == [want]
    loaded = sources.load_values(file=str(path))[0]
    assert [loaded["u64"], loaded["i64"], loaded["big"]] == want
    assert shape(file=str(path), stream=True).value["children"]["big"]["type"] == "number"
    patch(str(path), "set", "/x", 1)
    assert path.read_bytes() == NUMBERS[:-1] + b', "x": 1}'


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_a_directory_given_as_a_file(ip, tmp_path, entry):
    folder = tmp_path / "folder.json"
    folder.mkdir()
    run = {**file_entries(ip), **patch_entries(ip)}[entry]
    assert run(str(folder))[0] == "FILE_ERROR"


@pytest.mark.parametrize("entry", READERS + PATCHERS)
def test_a_fifo_given_as_a_file_does_not_hang(ip, tmp_path, entry):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    run = {**file_entries(ip), **patch_entries(ip)}[entry]
    expected = "FILE_ERROR"
    if entry == "cli-query":  # the command line waits for a writer as jq does: --timeout
        run, expected = (lambda p: cli("query", "--timeout", "1", "type", p)), "TIMEOUT"
    started = time.monotonic()
    code, out = run(str(fifo))
    assert code == expected and time.monotonic() - started < 5


def _deleted_once_resolved(tmp_path, monkeypatch, *modules):
    """A JSON file deleted each time ``resolve_files`` (as ``modules`` see it) has found it."""
    path = tmp_path / "gone.json"
    path.write_text('{"a": 1}')
    resolve = sources.resolve_files

    def resolve_then_delete(spec):
        found = resolve(spec)
        path.unlink(missing_ok=True)
        return found

    for module in modules:
        monkeypatch.setattr(module, "resolve_files", resolve_then_delete)
    return path


def test_a_file_deleted_before_jq_reads_it(tmp_path, monkeypatch):
    path = _deleted_once_resolved(tmp_path, monkeypatch, sources)
    # the engine may still hold it open (a result), or find it gone (an error)
    assert core(query, ".a", file=str(path))[0] in (OK, "FILE_ERROR", "NOT_FOUND")


def test_a_file_deleted_between_resolving_and_reading(tmp_path, monkeypatch):
    path = _deleted_once_resolved(tmp_path, monkeypatch, sources, sources.load)
    here = Source("file", str(path))  # shapes are read in the worker: its code, run here
    for call in (lambda: sources.load_values(file=str(path)), lambda: shape_here(here),
                 lambda: shape_here(here, stream=True)):
        path.write_text('{"a": 1}')
        assert core(call)[0] == "NOT_FOUND"


def test_a_file_truncated_while_streamed(tmp_path, monkeypatch):
    path = tmp_path / "t.json"
    path.write_text('{"items": [' + ", ".join(['{"id": 1}'] * 50_000) + "]}")
    from jqmagic.core.shape import stream as shapestream

    events = shapestream.events

    def truncate_midway(stream, **kwargs):
        for n, event in enumerate(events(stream, **kwargs)):
            if n == 10:
                os.truncate(path, 20_000)
            yield event

    monkeypatch.setattr(shapestream, "events", truncate_midway)
    # the worker's shape code, run here so that the truncation can be timed
    assert core(shape_here, Source("file", str(path)), stream=True)[0] == "INVALID_JSON"


def test_a_file_deleted_while_being_patched(tmp_path, monkeypatch):
    from jqmagic.core.patch import targets as patch_module

    path = tmp_path / "p.json"
    path.write_text('{"a": 1}')
    read = patch_module._read

    def read_then_delete(p):
        found = read(p)
        path.unlink()
        return found

    monkeypatch.setattr(patch_module, "_read", read_then_delete)
    assert core(patch, str(path), "set", "/a", 2)[0] == "PATCH_CONFLICT"
    assert not path.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("entry", READERS)
def test_yaml_alias_bomb_is_refused_quickly(ip, tmp_path, entry):
    started = time.monotonic()
    code, _ = read_case(ip, tmp_path, entry, "bomb.yaml", BOMB.encode())
    assert code == "INVALID_YAML" and time.monotonic() - started < 2


def test_yaml_alias_bomb_as_inline_text(ip):
    assert core(query, ".", text=BOMB, yaml=True)[0] == "INVALID_YAML"
    assert core(shape, text=BOMB, yaml=True)[0] == "INVALID_YAML"
    assert cli("query", ".", "--yaml", "--input", BOMB)[0] == "INVALID_YAML"
    assert magic(ip, "jq", f". --yaml --input '{BOMB}'")[0] == "INVALID_YAML"


@pytest.mark.parametrize("entry", READERS)
@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/name:os.system",
    "!!python/object:builtins.object {{}}",
])
def test_yaml_tags_that_construct_objects_are_refused(ip, tmp_path, entry, tag):
    marker = tmp_path / "constructed"
    data = f"a: {tag.format(marker=marker)}\n".encode()
    code, out = read_case(ip, tmp_path, entry, "tag.yaml", data)
    assert code == "INVALID_YAML" and not marker.exists()
    assert "safe loader" in (out.render() if hasattr(out, "render") else str(out))
