"""A file name with a space, typed unquoted in a shell, reaches jqmagic as two operands that
name no file: each is told the name it is part of, quoted as a shell needs it (it was
"Check the path; ~ and globs are expanded"). stdout and the exit status stay jq's."""

from __future__ import annotations

import subprocess
import sys


def test_a_name_split_by_the_shell_is_shown_quoted(tmp_path):
    (tmp_path / "my data.json").write_text('{"a": 1}\n')
    done = subprocess.run([sys.executable, "-m", "jqmagic", "query", ".a", "my", "data.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    hints = [line for line in done.stderr.splitlines() if line.startswith("hint:")]
    assert len(hints) == 2 and all("'my data.json'" in h for h in hints), done.stderr
    quoted = subprocess.run(f"{sys.executable} -m jqmagic query .a 'my data.json'", shell=True,
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert quoted.stdout == "1\n"
