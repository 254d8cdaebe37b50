"""An option's near miss by its last words (--root for --allow-root) is offered the option;
the positive form of a --no- option (--sandbox, --cache) is said to be the default, never
offered its opposite (--sandbox was told "Did you mean --no-sandbox?", which turns the
sandbox off)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jqmagic.flagerrors import did_you_mean

OPTIONS = ["--allow-root", "--allow-exec", "--allow-private-addresses", "--no-sandbox",
           "--no-cache", "--help"]


@pytest.mark.parametrize(("word", "said"), [
    ("--root", "Did you mean --allow-root? "),
    ("--exec", "Did you mean --allow-exec? "),
    ("--private-addresses", "Did you mean --allow-private-addresses? "),
    ("--allowed-root", "Did you mean --allow-root? "),
    ("--sandbox", "--sandbox is the default (--no-sandbox turns it off). "),
    ("--cache", "--cache is the default (--no-cache turns it off). "),
    ("--zzz", ""),
])
def test_near_misses(word, said):
    assert did_you_mean(word, OPTIONS) == said


def test_the_command_line_says_it():
    done = subprocess.run([sys.executable, "-m", "jqmagic", "tool", "--sandbox", "jq"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "--no-sandbox turns it off" in done.stderr, done.stderr
    assert "Did you mean --no-sandbox" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "jqmagic", "tool", "--root", ".", "jq"],
                          capture_output=True, text=True, timeout=60)
    assert "Did you mean --allow-root?" in done.stderr, done.stderr
