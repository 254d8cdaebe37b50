"""libjq's inputs leave no file open when the reading stops before a file's end (a parse
error, a program that answers early): the worker lives on, and a file it holds open
refuses the write lease `-i` and patch take on it."""

from __future__ import annotations

import os

import pytest

from jqmagic.core.query import libjq, libjqinput


def _open_on(path) -> int:
    """How many of this process's descriptors are open on ``path``."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except FileNotFoundError:  # the listing's own descriptor, closed since
            continue
    return count


pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"),
                                reason="counts descriptors through /proc (Linux)")


def test_a_file_that_does_not_parse_is_closed(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1, // c\n "b": 2}\n' + " " * 9000 + "1\n")  # past one buffer
    for _ in range(3):
        with pytest.raises(libjq.InputError):
            libjqinput.parse_inputs([str(bad)])
    assert _open_on(bad) == 0


def test_a_program_that_stops_reading_early_closes_the_file(tmp_path):
    many = tmp_path / "many.json"
    many.write_text("".join(f'{{"n": {i}}}\n' for i in range(2000)))  # over one buffer
    program = libjq.compile_program("first(inputs) | .n")
    for _ in range(3):
        assert list(libjqinput.run(program, [str(many)], null_input=True)) == ["0"]
    assert _open_on(many) == 0
