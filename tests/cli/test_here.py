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

from jqmagic import cli
from jqmagic.cli import here
from jqmagic.core.query import mainloop

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
    parser = cli.build_parser("query")[1]["query"]

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
    parser = cli.build_parser("query")[1]["query"]
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
    parser = cli.build_parser("query")[1]["query"]

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
