"""`jqmagic query --timeout` reads a FIFO, a device or /dev/fd/N operand as jq reads it
(bash's `<(cmd)`, `/dev/null`, `/dev/stdin < file`), its name kept by input_filename; the
worker, which opens regular files only, gets a copy or the file's own path."""

import os
import threading

from tests.cli.dropin import jq, jqmagic, needs_oracle

PROGRAM = "., input_filename"


def _fifo_with(tmp_path, name: str, data: bytes) -> str:
    """A FIFO that a thread fills with ``data`` once a reader opens it."""
    path = str(tmp_path / name)
    os.mkfifo(path)

    def write():
        with open(path, "wb") as out:
            out.write(data)

    threading.Thread(target=write, daemon=True).start()
    return path


def test_a_fifo_among_files_is_read_in_its_place(tmp_path):
    (tmp_path / "a.json").write_text('{"a":1}')
    fifo = _fifo_with(tmp_path, "fifo", b"2 3")
    got = jqmagic(["-c", "--timeout", "20", PROGRAM, str(tmp_path / "a.json"), fifo], "")
    assert got.status == 0, got.stderr
    assert got.stdout.decode().split() == \
        ['{"a":1}', f'"{tmp_path}/a.json"', "2", f'"{fifo}"', "3", f'"{fifo}"']


def test_a_fifos_bad_json_is_said_with_its_own_name(tmp_path):
    fifo = _fifo_with(tmp_path, "fifo", b"{")
    got = jqmagic(["--timeout", "20", ".", fifo], "")
    assert got.status == 5  # jq's status for a parse error
    assert fifo.encode() in got.stderr and b"jqmagic-operands" not in got.stderr


@needs_oracle
def test_dev_null_is_no_input_as_in_jq():
    expected = jq([".", "/dev/null"], "")
    got = jqmagic(["--timeout", "20", ".", "/dev/null"], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status) == (b"", 0)


def test_a_descriptor_of_this_process_names_its_file(tmp_path):
    data = tmp_path / "d.json"
    data.write_text("[4]")
    fd = os.open(data, os.O_RDONLY)
    try:
        got = jqmagic(["-c", "--timeout", "20", PROGRAM, f"/dev/fd/{fd}"], "")
    finally:
        os.close(fd)
    assert got.stdout.decode().split() == ["[4]", f'"/dev/fd/{fd}"'], got.stderr


def test_the_sandbox_still_refuses_a_fifo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    os.mkfifo("fifo")
    got = jqmagic(["--timeout", "20", ".", "fifo"], "")
    assert got.status != 0 and b"not a regular file" in got.stderr


@needs_oracle
def test_a_file_name_that_is_no_utf8_is_read_as_jq_reads_it(tmp_path):
    name = os.fsdecode(bytes(tmp_path) + b"/\xff\xfe.json")  # Python's lone surrogates
    with open(name, "w") as out:
        out.write("[7]")
    args = ["-c", PROGRAM, name]
    expected = jq(args, "")
    got = jqmagic(["--timeout", "20", *args], "")
    assert (got.stdout, got.status) == (expected.stdout, expected.status)
    assert b"\xef\xbf\xbd\xef\xbf\xbd.json" in got.stdout  # U+FFFD each, as jq names it


def test_a_fifo_keeps_its_suffix(tmp_path):
    fifo = _fifo_with(tmp_path, "data.yaml", b"a: [1, 2]\n")
    got = jqmagic(["-c", "--timeout", "20", ".a", fifo], "")
    assert got.stdout == b"[1,2]\n", got.stderr
