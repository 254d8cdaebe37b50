"""The benchmark harness runs end to end on small files (not a timed test)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[1] / "bench" / "run.py"


@pytest.mark.skipif(shutil.which("jq") is None, reason="the jq CLI is the reference: "
                    "apt-get install -y jq")
@pytest.mark.skipif(not Path("/usr/bin/time").exists(), reason="peak RSS comes from GNU "
                    "time: apt-get install -y time")
def test_quick_benchmark_runs_and_tools_agree(tmp_path):
    done = subprocess.run([sys.executable, str(RUN), "--quick", "--data", str(tmp_path),
                           "--out", str(tmp_path / "RESULTS.md")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = (tmp_path / "RESULTS.md").read_text()
    assert "| 1 MB array, cold: `length` |" in report
    assert "warm (after `length`)" in report and "import jqmagic:" in report
    assert "Disagreements" not in report


@pytest.mark.skipif(shutil.which("jq") is None, reason="the jq CLI is the reference: "
                    "apt-get install -y jq")
@pytest.mark.skipif(not Path("/usr/bin/time").exists(), reason="peak RSS comes from GNU "
                    "time: apt-get install -y time")
def test_quick_analyst_session_answers_as_libjq():
    done = subprocess.run([sys.executable, str(RUN.parent / "analyst.py"), "--quick"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) == 10 and all("| yes |" in row for row in rows), done.stdout
    assert "Session totals:" in done.stdout
