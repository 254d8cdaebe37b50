"""A call's cost: `echo 1 | X .` (best of N) and a shell loop of 200 calls, for jq 1.8.2, jaq
and the `jqmagic query` command line, beside this machine's Python floor
(`python -I -S -c pass`) and what the command imports (-X importtime), in one run.

The command line is timed twice: through this venv's script (a developer's
editable install: setuptools' finder runs at every start, importing pathlib and re), and as a
plain `pip install` lays it out (the package on sys.path, no finder: a throwaway venv in
/tmp whose one .pth names this venv's site-packages and a folder holding only the
package). The issue's goal: best of 20 at most 0.035 s and within 4x the floor; the loop
within 8x jq's.

Run: .venv/bin/python bench/startup.py [--runs 20] [--loop 200]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import site
import subprocess
import sys
import time
from pathlib import Path

PY = sys.executable
BIN = Path(PY).parent
ROOT = Path(__file__).resolve().parent.parent
PLAIN = Path("/tmp/jqmagic-startup-venv")
LAUNCHER = ROOT / "bin" / "jqmagic"  # the script setup.py installs (pip rewrites its #!python)


def plain_install() -> Path:
    """The `jqmagic` command of a venv laid out as a plain install: the package found on
    sys.path (no editable finder), the dependencies this venv's."""
    if not (PLAIN / "bin" / "python").exists():
        subprocess.run([PY, "-m", "venv", "--without-pip", str(PLAIN)], check=True)
    package = PLAIN / "package"
    package.mkdir(exist_ok=True)
    if not (package / "jqmagic").exists():
        (package / "jqmagic").symlink_to(ROOT / "jqmagic")
    purelib = next(PLAIN.glob("lib/python3*/site-packages"))
    (purelib / "jqmagic-plain.pth").write_text(f"{package}\n{site.getsitepackages()[0]}\n")
    command = PLAIN / "bin" / "jqmagic"
    script = LAUNCHER.read_text().split("\n", 1)[1]
    command.write_text(f"#!{PLAIN / 'bin' / 'python'}\n{script}")
    command.chmod(0o755)
    return command


def best(command: list[str], runs: int) -> tuple[float, float]:
    """The best wall and CPU seconds (user + system) of ``runs`` runs of `echo 1 | command`."""
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, input=b"1\n", stdout=subprocess.PIPE)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert done.returncode == 0 and done.stdout in (b"", b"1\n"), done
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def loop(command: list[str], calls: int) -> float:
    """Wall seconds of a shell loop of ``calls`` calls, each `echo 1 | command`."""
    quoted = " ".join(f"'{word}'" for word in command)
    started = time.perf_counter()
    subprocess.run(["bash", "-c", f"for i in $(seq {calls}); do echo 1 | {quoted} >/dev/null;"
                    " done"], check=True)
    return time.perf_counter() - started


def imports(command: Path) -> list[tuple[str, float]]:
    """The command's imports by cumulative milliseconds (-X importtime), top level only."""
    done = subprocess.run([str(PLAIN / "bin" / "python"), "-X", "importtime", str(command),
                           "query", "."], input="1\n", capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)", line)
        if found and not found[2].startswith(" "):
            rows.append((found[2], int(found[1]) / 1000))
    return sorted(rows, key=lambda r: -r[1])


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=20)
    options.add_argument("--loop", type=int, default=200)
    given = options.parse_args()
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "jqmagic")], check=True)
    plain = plain_install()
    jq = [str(BIN / "jq-1.8.2"), "."]
    jaq = shutil.which("jaq", path=str(BIN)) or shutil.which("jaq")
    floor = [PY, "-I", "-S", "-c", "pass"]
    rows = [("python -I -S -c pass (the floor)", floor, False),
            ("python -c pass (this venv's site)", [PY, "-c", "pass"], False),
            ("python -c pass (the plain venv's site)",
             [str(PLAIN / "bin" / "python"), "-c", "pass"], False),
            ("jq 1.8.2", jq, True),
            *([("jaq", [jaq, "."], True)] if jaq else []),
            ("jqmagic query . (plain install)", [str(plain), "query", "."], True),
            ("jqmagic query . (this venv: editable)", [str(BIN / "jqmagic"), "query", "."],
             True)]
    measured = {name: best(command, given.runs) for name, command, _ in rows}
    floor_wall = measured[rows[0][0]][0]
    jq_loop = loop(jq, given.loop)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; Python {sys.version.split()[0]}\n")
    print(f"| `echo 1 \\| X` | best of {given.runs}: wall | CPU | x floor | "
          f"loop of {given.loop} calls | x jq's loop |\n|---|---:|---:|---:|---:|---:|")
    for name, command, looped in rows:
        wall, cpu = measured[name]
        seconds = (jq_loop if command is jq else loop(command, given.loop)) if looped else None
        said = f"{seconds:.2f} s | {seconds / jq_loop:.2f}x" if seconds else "- | -"
        print(f"| {name} | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms | "
              f"{wall / floor_wall:.2f}x | {said} |")
    print("\nThe plain install's imports, cumulative ms under -X importtime (which slows "
          "them), top level:\n")
    for module, ms in imports(plain)[:12]:
        print(f"- {module}: {ms:.1f} ms")


if __name__ == "__main__":
    main()
