"""-i binds the program's $names as the rest of jq does (--arg, --argjson, --rawfile,
--slurpfile; $ARGS.named): `jqmagic query -i --arg v 2.0 '.version = $v'` said "$v is not
defined" and hinted to use --arg; -n and -s, which -i cannot honour, are refused, not
silently dropped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jqmagic import JqMagicError, patch

JQMAGIC = Path(sys.executable).with_name("jqmagic")


def run(folder: Path, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(JQMAGIC), "query", *words], cwd=folder, capture_output=True,
                          text=True, timeout=60)


def test_the_command_line_binds_them(tmp_path):
    (tmp_path / "p.json").write_text('{\n  "version": "1.0",  "n": 0\n}\n')
    (tmp_path / "notes.txt").write_text("hi\n")
    done = run(tmp_path, "-i", "--arg", "v", "2.0", "--argjson", "n", "5", "--rawfile", "t",
               "notes.txt", '.version = $v | .n = $ARGS.named.n | .t = $t', "p.json")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p.json").read_text() == (
        '{\n  "version": "2.0",  "n": 5,\n  "t": "hi\\n"\n}\n')


@pytest.mark.parametrize("flag", ["-n", "-s"])
def test_what_in_place_cannot_do_is_refused(tmp_path, flag):
    (tmp_path / "p.json").write_text('{"n": 0}\n')
    done = run(tmp_path, "-i", flag, ".n = 1", "p.json")
    assert done.returncode == 2 and f"{flag} does not apply" in done.stderr
    assert (tmp_path / "p.json").read_text() == '{"n": 0}\n'


def test_the_api_and_the_magic_bind_them(tmp_path, ip):
    path = tmp_path / "s.yaml"
    path.write_text("a: 1  # kept\n---\na: 2\n")
    patch(path, jq=".a += $k", args={"k": 10})
    assert path.read_text() == "a: 11  # kept\n---\na: 12\n"
    ip.run_line_magic("jq", f"-i --argjson k 1 '.a -= $k' {path}")
    assert path.read_text() == "a: 10  # kept\n---\na: 11\n"
    with pytest.raises(JqMagicError, match="no jq program"):
        patch(path, "set", "/0/a", 1, args={"k": 1})
