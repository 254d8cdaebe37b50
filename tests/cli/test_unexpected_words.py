"""An unexpected argument is said as it was given (argparse joins the words by spaces: a
JSON request given to ``jqmagic tool jq`` as an argument was said as 'Unexpected argument
{"query":'), and to ``jqmagic tool`` the hint says the request goes on stdin."""

from __future__ import annotations

import subprocess
import sys


def jqmagic(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "jqmagic", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL).stderr


def test_a_request_given_as_an_argument_is_sent_to_stdin():
    said = jqmagic("tool", "jq", '{"query": ".info", "file": "x.json"}')
    assert said.splitlines() == [
        'error INVALID_ARGUMENT: Unexpected argument {"query": ".info", "file": "x.json"}',
        "hint: The request goes on stdin: echo '{...}' | jqmagic tool NAME. See jqmagic "
        "tool --help."]


def test_other_commands_say_the_words_and_options_keep_their_guess():
    assert jqmagic("inspect", "a.json", "b c").splitlines()[0] == \
        "error INVALID_ARGUMENT: Unexpected argument b c"
    assert "The request goes on stdin" not in jqmagic("inspect", "a.json", '{"a": 1}')
    assert jqmagic("inspect", "--dpth", "1", "a.json").splitlines()[1] == \
        "hint: Did you mean --depth? See jqmagic inspect --help."
