"""`jqmagic query` in its own process, as jq runs: standard input answered as it arrives,
Ctrl-C ending it at once, and the worker only where jqmagic adds something jq has not."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from jqmagic.cli import commands, here
from jqmagic.core.query import mainloop
from jqmagic.core.settings import settings
from tests.cli import dropin

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "jqmagic", "query", *argv]


def _line(stream, seconds: float) -> bytes:
    """The next line written on ``stream`` within ``seconds`` (b"" when none came)."""
    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else b""


def test_each_value_is_printed_before_the_next_line_is_written():
    """`tail -f app.log | jqmagic query --unbuffered ...`: nothing waits for the end."""
    with subprocess.Popen(_command("-c", "--unbuffered", ".a"), stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE) as run:
        for value in (1, 2, 3):
            run.stdin.write(b'{"a": %d}\n' % value)
            run.stdin.flush()
            assert _line(run.stdout, 30) == b"%d\n" % value  # before the next is written
        run.stdin.close()
        assert run.wait(30) == 0


def test_ctrl_c_ends_a_long_run_at_once():
    with subprocess.Popen(_command("-n", "last(range(1e12))"), stdout=subprocess.PIPE) as run:
        time.sleep(1.0)  # running in libjq, which holds no Python frame
        run.send_signal(signal.SIGINT)
        assert run.wait(10) == -signal.SIGINT  # killed by it, as jq is


def test_what_runs_here_and_what_goes_to_the_worker(tmp_path):
    data = tmp_path / "a.json"
    data.write_text('{"a": 1}')
    parser = commands.build_parser("query")[1]["query"]

    def here_for(*argv: str) -> bool:
        from jqmagic import flags
        from jqmagic.cli import jqcli

        args = jqcli.parse(parser, list(argv))
        return here.runs_here(args, flags.named_source(args, args.files), bounded=False)

    assert here_for(".a", str(data)) and here_for("-n", "1") and here_for(".a")
    assert not here_for("--timeout", "5", ".a", str(data))  # a clock: the worker's
    assert not here_for("--parallel", ".a", str(data))
    assert not here_for(".a", str(tmp_path / "*.json"))  # a glob jq would not expand
    yaml = tmp_path / "a.yaml"
    yaml.write_text("a: 1\n")
    assert not here_for(".a", str(yaml))  # converted by jqmagic's reader


def test_a_sandboxed_command_line_keeps_to_the_confined_worker(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_SANDBOX", "1")
    data = tmp_path / "a.json"
    data.write_text('{"a": 1}')
    run = subprocess.run(_command(".a", str(data)), capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "JQMAGIC_SANDBOX": "1"}, timeout=60)
    assert (run.stdout, run.returncode) == ("1\n", 0)
    parser = commands.build_parser("query")[1]["query"]
    from jqmagic import flags
    from jqmagic.cli import jqcli

    args = jqcli.parse(parser, [".a", str(data)])
    assert not here.runs_here(args, flags.named_source(args, args.files), bounded=False)


def test_a_file_whose_parse_would_not_fit_streams_in_the_worker(tmp_path, monkeypatch):
    from jqmagic import flags
    from jqmagic.cli import jqcli
    from jqmagic.core.settings import settings

    data = tmp_path / "big.json"
    data.write_text('{"readings": [' + ",".join(['{"v": 1}'] * 2000) + "]}")
    lines = tmp_path / "big.jsonl"
    lines.write_text('{"v": 1}\n' * 2000)
    size = data.stat().st_size
    monkeypatch.setattr(settings, "doc_cache_bytes", size * 5)  # the text fits, its parse not
    parser = commands.build_parser("query")[1]["query"]

    def answered(*argv: str) -> tuple[bool, bool]:
        args = jqcli.parse(parser, list(argv))
        program = args.filter
        return (here.runs_here(args, flags.named_source(args, args.files), False, program),
                here.streams_in_worker(args, program))

    for program in ("[.readings[] | select(.v > 0)] | length", "[.readings[].v] | add",
                    ".readings | length", ".readings[] | .v", "first(.readings[])"):
        assert answered(program, str(data)) == (False, True), program
    assert answered(".readings | map(.v) | add", str(data)) == (True, False)  # read whole
    assert answered("-s", "length", str(data)) == (True, False)  # as jq does
    assert answered(".v", str(lines)) == (True, False)  # libjq holds a line at a time
    monkeypatch.setattr(settings, "doc_cache_bytes", size * 20)  # its parse fits
    assert answered(".readings | length", str(data)) == (True, False)


def test_a_file_past_stream_from_streams_though_its_parse_would_fit(tmp_path, monkeypatch):
    from jqmagic import flags
    from jqmagic.cli import jqcli

    data = tmp_path / "big.json"
    data.write_text("[" + ",".join(['{"v": 1}'] * 100) + "]")
    parser = commands.build_parser("query")[1]["query"]
    args = jqcli.parse(parser, [".[] | .v", str(data)])
    source = flags.named_source(args, args.files)
    assert here.runs_here(args, source, False, ".[] | .v")  # small: libjq, here
    monkeypatch.setattr(here, "STREAM_FROM", data.stat().st_size)
    assert not here.runs_here(args, source, False, ".[] | .v")
    assert here.streams_in_worker(args, ".[] | .v")
    args = jqcli.parse(parser, ["map(.v)", str(data)])
    assert here.runs_here(args, source, False, "map(.v)")  # read whole: still here


ODD_FILES = {
    "two.json": '[{"a": 1}, {"a": "x"}] [{"a": -0.0}, {"a": 1E1000}]',
    "bad.json": '[{"a": 1}, {"a": 2}, {"a": nul',
    "mixed.json": '[1, "two", null, {"a": [1.10, 100000000000000000001]}, [], -0]',
    "object.json": '{"k": {"a": "é\\u00e9\\ud800"}, "j": {"a": 3}}',  # jq: no lone \ud800
    "paired.json": '{"k": {"a": "é\\u00e9\\ud83d\\ude00"},\n "j": {"a": 3}}\n',
    "scalar.json": '"just a string"',
    "nan.json": '[{"a": 1}, {"a": nan}]',
    "rows.json": '{"meta": 1, "rows": [{"a": 1}, {"a": 2}, {"b": [3]}]}',
    "dupes.json": '{"a": 1, "b": 2, "a": 3}',  # jq: {"a": 3, "b": 2}
    "dupes2.json": '{"rows": [1], "x": {"a": 1, "a": [2]}, "rows": [{"a": 1, "a": 2}]}',
}


def _answer(argv: list[str], stream_from: int, monkeypatch) -> dropin.Run:
    monkeypatch.setattr(here, "STREAM_FROM", stream_from)
    return dropin.jqmagic(argv, "")


@pytest.mark.parametrize("argv", [
    ["-c", ".[]"], [".[] | .a"], ["-r", ".[] | .a?"], ["-e", ".[] | .a"],
    ["[.[] | select(.a == 1)] | length"], ["first(.[])"], ["length"],
    ["-c", ".[] | {a}"], ["--arg", "x", "1", ".[] | [., $x]"], [".[] | error"],
    ["limit(2; .[])"], ["-j", ".[]"], ["-c", ".rows[] | .a"], ["first(.[] | .a)"],
    [".[] | if type == \"object\" then error else . end"], ["-c", ".[] | halt_error"],
    ["-c", ".[] | debug | .a?"], ["-S", "-C", ".[]"], ["[.[] | .a?] | add"],
])
@pytest.mark.parametrize("name", sorted(ODD_FILES))
@dropin.needs_oracle
def test_the_streaming_pass_answers_as_libjq_here_does(tmp_path, monkeypatch, argv, name):
    """Every file streamed as a big one would be: stdout, stderr and status are those of
    libjq run here (stdout and status jq 1.8.2's, stderr in jq's order); a file the pass
    cannot answer exactly (several documents, damaged, jq's leniencies) is not streamed."""
    (tmp_path / name).write_text(ODD_FILES[name], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    streamed = _answer([*argv, name], 0, monkeypatch)
    assert streamed == _answer([*argv, name], 1 << 62, monkeypatch)
    expected = dropin.jq([*argv, name], "")
    assert (streamed.stdout, streamed.status) == (expected.stdout, expected.status)
    dropin.assert_stderr_as_jq(streamed, expected)


def test_only_one_array_or_object_that_jq_parses_streams(tmp_path, monkeypatch):
    from jqmagic import flags
    from jqmagic.cli import jqcli

    parser = commands.build_parser("query")[1]["query"]
    monkeypatch.setattr(here, "STREAM_FROM", 0)
    for name, text in ODD_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    streams = {name for name in ODD_FILES
               if here.streams_in_worker(jqcli.parse(parser, [".[]", str(tmp_path / name)]),
                                         ".[]")}
    assert streams == {"mixed.json", "paired.json", "rows.json"}
    args = jqcli.parse(parser, [".[]", str(tmp_path / "mixed.json"), str(tmp_path / "rows.json")])
    assert here.route(args, ".[]") == "whole"  # several files: read as jq reads them
    args = jqcli.parse(parser, [".[]", str(tmp_path / "two.json")])
    assert here.runs_here(args, flags.named_source(args, args.files), False, ".[]")


def test_past_the_budget_a_file_that_cannot_stream_exactly(tmp_path, monkeypatch):
    """Many small documents: libjq here, one at a time, as jq; a damaged document or
    several files: TOO_LARGE, saying why."""
    from jqmagic import flags
    from jqmagic.cli import jqcli
    from jqmagic.core.errors import JqMagicError

    parser = commands.build_parser("query")[1]["query"]
    many = tmp_path / "many.json"
    many.write_text('{"a": [1, 2]}\n' * 200)
    bad = tmp_path / "bad.json"
    bad.write_text("[" + '{"a": 1}, ' * 200 + '{"a": nul]')
    monkeypatch.setattr(settings, "doc_cache_bytes", 1000)
    args = jqcli.parse(parser, [".a[]", str(many)])
    assert here.runs_here(args, flags.named_source(args, args.files), False, ".a[]")
    with pytest.raises(JqMagicError) as caught:
        here.route(jqcli.parse(parser, [".[]", str(bad)]), ".[]")
    assert caught.value.code == "TOO_LARGE"
    assert "not JSON this pass vouches for at byte 2,010" in caught.value.raw_message
    with pytest.raises(JqMagicError, match="several files"):
        here.route(jqcli.parse(parser, [".[]", str(bad), str(many)]), ".[]")
