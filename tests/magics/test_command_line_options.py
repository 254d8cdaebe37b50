"""A jq option only the command line has (--rawfile, --slurpfile, --args, -f, -e ...),
typed in %jq by someone coming from jq, is said to be the command line's, with the
notebook's way where it has one; it was "Did you mean --file?" (SOURCE is a file) for
--rawfile and "--slurp?" for --slurpfile, which lead elsewhere."""

from __future__ import annotations

import subprocess

import pytest
from IPython.core.error import UsageError

import jqmagic
from tests.cli.dropin import ORACLE


def refusal(ip, line: str) -> str:
    with pytest.raises(UsageError) as caught:
        ip.run_line_magic("jq", line)
    return str(caught.value)


@pytest.mark.parametrize(("line", "way"), [
    ("-n --rawfile f notes.txt '$f'", "f = jqmagic.query('.', file='notes.txt', "
                                      "raw_input=True, slurp=True).value"),
    ("-n --slurpfile f data.json '$f'", "f = jqmagic.query('.', file='data.json', "
                                        "slurp=True).value"),
    ("-n '$ARGS' --args a b", "--arg NAME VALUE"),
    ("-f prog.jq data.json", "%%jq"),
    ("-e .a data.json", ""),
])
def test_the_command_lines_options_are_said_as_such(ip, line, way):
    said = refusal(ip, line)
    option = line.split()[1] if line.startswith("-n ") and "--args" not in line else \
        ("--args" if "--args" in line else line.split()[0])
    assert said.startswith(f"INVALID_ARGUMENT: Unknown option {option}"), said
    assert "jqmagic query" in said and "Did you mean" not in said, said
    assert way in said


def test_the_way_it_names_gives_jqs_answer(ip, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"one\r\ntwo\xff\nthree")
    ip.user_ns["f"] = jqmagic.query(".", file=notes, raw_input=True, slurp=True).value
    printed = ip.run_line_magic("jq", "-n '$f'").printed
    if ORACLE.exists():
        jq = subprocess.run([str(ORACLE), "-n", "--rawfile", "f", str(notes), "$f"],
                            capture_output=True, text=True, check=True).stdout
        assert printed == jq.splitlines()
    assert printed == ['"one\\r\\ntwo\ufffd\\nthree"']
