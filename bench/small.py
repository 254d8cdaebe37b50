"""Many small things, in one run: a call's start-up, an agent tool call, lines on stdin,
many results, the Python API's values, a notebook's `-o`, and 20 concurrent MCP calls
beside a slow one. Each command-line row runs jq 1.8.2, jaq (when installed), jqmagic
from a plain `pip install .` (no extras; its own libjq, built with -O2 from
vendor/jq-1.8.2 by the install), the same install on the PyPI binding's libjq
(`JQMAGIC_LIBJQ=binding`, built without optimisation: what an install without a C compiler
runs) and the venv running this script (the dev install: editable, every extra): the
median wall seconds of N runs, the ratio to jq 1.8.2 and peak RSS (GNU time). Python's own
floor (`python -I -S -c pass`) is the start-up row's last column. The MCP row runs the dev
install's server (a plain install has no `mcp` extra).

    .venv/bin/python bench/small.py [--runs N] [--quick] [--big]   -> bench/RESULTS-small.md

--big adds `-c '.[]'` over a 1 GB array (made once in bench/data, 1 GB of disk).
--only WORDS runs only the command-line rows whose question holds WORDS, and prints them
(no Python API, MCP rows or results file). --forms adds rows for the other forms the
command line streams (`[.[] | select(..)] | length`, `length`, `first`, `limit`) over the
100 MB array, e.g. `--forms --only "(100 MB array)"`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = Path(sys.executable)
ORACLE = PY.parent / "jq-1.8.2"
JAQ = shutil.which("jaq", path=str(PY.parent)) or shutil.which("jaq")
PLAIN = ROOT / "build" / "bench-plain"  # a venv with `pip install .` of this tree
BINDING = {**os.environ, "JQMAGIC_LIBJQ": "binding"}  # the PyPI binding's unoptimised libjq
DEV = PY.parent / "jqmagic"  # the install running this script (the dev venv's)
DATA = HERE / "data" / "small"
TIME = "/usr/bin/time"


def plain_venv() -> Path:
    """The plain install's `jqmagic`: a venv and a non-editable install of this tree, no
    extras, made again when the tree's commit is not the one installed."""
    jqmagic = PLAIN / "bin" / "jqmagic"
    stamp = PLAIN / ".installed"
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], text=True,
                            capture_output=True).stdout.strip()
    if not stamp.exists() or stamp.read_text() != f"{commit} no extras":
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(PLAIN)], check=True)
        pip = [str(PLAIN / "bin" / "python"), "-m", "pip", "install", "-q"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        started = time.perf_counter()
        subprocess.run([*pip, str(ROOT)], check=True)
        (PLAIN / ".install-seconds").write_text(f"{time.perf_counter() - started:.0f}")
        stamp.write_text(f"{commit} no extras")
    return jqmagic


def make_data(quick: bool, big: bool = False) -> dict[str, Path]:
    """Deterministic inputs: JSON Lines of 100k and 1M short lines, a 10 MB and a 100 MB
    array of records (and a 1 GB one when ``big``)."""
    DATA.mkdir(parents=True, exist_ok=True)
    scale = 10 if quick else 1
    files = {}
    for lines in (100_000, 1_000_000):
        path = files[f"lines{lines}"] = DATA / f"a{lines // scale}.jsonl"
        if not path.exists():
            path.write_text('{"a":1}\n' * (lines // scale))
    for megabytes in (10, 100, *((1000,) if big else ())):
        path = files[f"array{megabytes}"] = DATA / f"array{megabytes // scale}.json"
        if not path.exists():
            _records(path, megabytes * 1024 * 1024 // scale)
    return files


def _records(path: Path, size: int) -> None:
    with path.open("w") as out:
        out.write("[")
        i, written = 0, 1
        while written < size:
            text = json.dumps({"id": i, "name": f"user{i}", "tags": ["a", "b", "c"][: i % 4],
                               "score": round((i * 7919 % 10007) / 100.0, 2),
                               "active": i % 3 == 0, "nested": {"x": i, "y": "z" * (i % 20)}})
            out.write(("," if i else "") + text)
            written += len(text) + 1
            i += 1
        out.write("]")


def timed(argv: list[str], stdin: Path | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, the processes it waited for included) and
    peak RSS (MB) of one run, its output thrown away (an argv starting with ``binding``
    runs on the binding's libjq). On a shared machine the CPU seconds are the fairer
    ratio: they do not count the time other work held the cores."""
    env = BINDING if argv[0] == "binding" else None
    argv = argv[1:] if env else argv
    started = time.perf_counter()
    with open(stdin or os.devnull, "rb") as source:
        done = subprocess.run([TIME, "-f", "%U %S %M", *argv], stdin=source, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{argv}: {done.stderr.decode()[-500:]}")
    user, system, peak = done.stderr.split()[-3:]
    return wall, float(user) + float(system), int(peak) / 1024


def measured_row(what: str, tools: dict[str, list[str] | None], runs: int,
                 stdin: Path | None = None, best: bool = False) -> dict:
    cells = {}
    for name, argv in tools.items():
        if argv is None:
            cells[name] = None
            continue
        try:
            measured = [timed(argv, stdin) for _ in range(runs)]
        except RuntimeError:
            if name.startswith("jqmagic"):
                raise
            cells[name] = None  # a peer without the flag (jaq has no --stream)
            continue
        pick = min if best else statistics.median
        cells[name] = (pick(m[0] for m in measured), pick(m[1] for m in measured),
                       max(m[2] for m in measured))
    return {"what": what, "cells": cells}


def command_rows(files: dict[str, Path], plain: Path, runs: int,
                 only: str | None = None, forms: bool = False) -> list[dict]:
    def tools(*args: str) -> dict[str, list[str] | None]:
        return {"jq 1.8.2": [str(ORACLE), *args], "jaq": [JAQ, *args] if JAQ else None,
                "jqmagic plain": [str(plain), "query", *args],
                "jqmagic, binding's libjq": ["binding", str(plain), "query", *args],
                "jqmagic dev": [str(DEV), "query", *args]}

    def row(what: str, *args, **kwargs) -> dict | None:
        return measured_row(what, *args, **kwargs) if only is None or only in what else None

    def loop(command: str) -> list[str]:  # 200 calls from a shell script
        return ["bash", "-c", f"for i in $(seq 200); do {command} . < {one} >/dev/null; done"]

    request = json.dumps({"query": ".a", "input": '{"a": 1}'})
    tool_file = DATA / "tool-request.json"
    tool_file.write_text(request)
    one = DATA / "one.json"
    one.write_text("1\n")
    startup = tools(".")
    startup["python -I -S -c pass"] = [sys.executable, "-I", "-S", "-c", "pass"]
    rows = [
        row("start-up: echo 1 | X . (best of 20)", startup, max(runs, 20), one, best=True),
        row("a shell loop of 200 calls: X . (best)",
            {"jq 1.8.2": loop(str(ORACLE)), "jaq": loop(JAQ) if JAQ else None,
             "jqmagic plain": loop(f"{plain} query"),
             "jqmagic, binding's libjq": loop(f"JQMAGIC_LIBJQ=binding {plain} query"),
             "jqmagic dev": loop(f"{DEV} query")},
            max(runs, 3), best=True),
        row("agent call: jqmagic tool jq (best)",
            {"jq 1.8.2": None, "jaq": None,
             "jqmagic plain": [str(plain), "tool", "jq"],
             "jqmagic, binding's libjq": ["binding", str(plain), "tool", "jq"],
             "jqmagic dev": [str(DEV), "tool", "jq"]},
            max(runs, 10), tool_file, best=True),
        row("stdin: 100k lines | X -c .a", tools("-c", ".a"), runs, files["lines100000"]),
        row("stdin: 1M lines | X -c .a", tools("-c", ".a"), runs, files["lines1000000"]),
        row("X -n 'range(1e6)'", tools("-n", "range(1000000)"), runs),
        row("X -nc 'range(300000) | {a: ., b: [.]}'",
            tools("-nc", "range(300000) | {a: ., b: [.]}"), runs),
        row("X -c --stream . (10 MB)", tools("-c", "--stream", ".", str(files["array10"])),
            runs),
        row("X -c '.[]' (100 MB array)", tools("-c", ".[]", str(files["array100"])), runs),
        row("X -c . (1M JSON Lines, a file)", tools("-c", ".", str(files["lines1000000"])),
            runs),
    ]
    if forms:  # the other forms the streaming pass answers (here.STREAM_FROM)
        for program in ("[.[] | select(.score > 50)] | length", "length", "first(.[])",
                        "limit(3; .[])"):
            rows.append(row(f"X '{program}' (100 MB array)",
                            tools("-c", program, str(files["array100"])), runs))
    if "array1000" in files:  # jaq would need about 21 GB here (1.5x jq's 14): not run
        big = {**tools("-c", ".[]", str(files["array1000"])), "jaq": None,
               "jqmagic, binding's libjq": None, "jqmagic dev": None}
        rows.append(row("X -c '.[]' (1 GB array)", big, 1))
    return [r for r in rows if r is not None]


_API = """
import json, sys, time
import jqmagic
lines = open(sys.argv[1]).read()
recs = [{"id": i, "name": f"n{i}", "tags": ["a", "b"], "score": i / 7} for i in range(300_000)]
out = {}
t = time.perf_counter(); n = len(jqmagic.query(".a", text=lines).values)
out["query('.a', text=1M lines).values"] = time.perf_counter() - t
t = time.perf_counter(); n = len(jqmagic.query(".[]", value=recs).values)
out["query('.[]', value=300k dicts).values"] = time.perf_counter() - t
from IPython.core.interactiveshell import InteractiveShell
ip = InteractiveShell.instance(); ip.run_line_magic("load_ext", "jqmagic")
ip.user_ns["recs"] = recs
ip.run_line_magic("jq", "-o ids '.[].id' recs")
t = time.perf_counter(); ip.run_line_magic("jq", "-o ids '.[].id' recs")
out["%jq -o ids '.[].id' recs (after the first)"] = time.perf_counter() - t
assert len(ip.user_ns["ids"]) == 300_000
print(json.dumps(out))
"""


def api_rows(files: dict[str, Path], plain: Path) -> list[tuple[str, float, float, float]]:
    """(what, plain seconds, binding's libjq seconds, dev seconds) of the Python API and a
    notebook's -o."""
    found = {}
    for name, python, env in (("plain", plain.parent / "python", None),
                              ("binding", plain.parent / "python", BINDING),
                              ("dev", PY, None)):
        done = subprocess.run([str(python), "-c", _API, str(files["lines1000000"])], env=env,
                              capture_output=True, text=True, check=True)
        found[name] = json.loads(done.stdout.strip().splitlines()[-1])
    return [(what, *(found[name][what] for name in ("plain", "binding", "dev")))
            for what in found["plain"]]


_MCP = """
import json, sys, time, anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
SLOW = "reduce range(3e9) as $x (0; . + $x)"

async def main():
    server = StdioServerParameters(command=sys.argv[1], args=["mcp"])
    async with Client(server, read_timeout_seconds=300) as client:
        await client.call_tool("jq", {"query": "1", "input": "null"})  # started
        took = []
        async def quick(i):
            started = time.monotonic()
            answer = await client.call_tool("jq", {"query": f"{i} + 1", "input": "null"})
            assert answer.structured_content["output"] == str(i + 1)
            took.append(time.monotonic() - started)
        async with anyio.create_task_group() as group:
            slow_scope = anyio.CancelScope()
            async def slow():
                with slow_scope:
                    await client.call_tool("jq", {"query": SLOW, "input": "null",
                                                  "timeout": 600})
            group.start_soon(slow)
            await anyio.sleep(0.5)
            async with anyio.create_task_group() as quick_ones:
                for i in range(19):
                    quick_ones.start_soon(quick, i)
            slow_scope.cancel()
        started = time.monotonic()
        await client.call_tool("jq", {"query": "2", "input": "null"})
        print(json.dumps({"slowest quick call": max(took), "median quick call":
                          sorted(took)[len(took) // 2], "a call after the cancel":
                          time.monotonic() - started}))

anyio.run(main)
"""


def mcp_row(command: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", _MCP, str(command)], capture_output=True,
                          text=True, timeout=600)
    if done.returncode != 0:
        return {"error": done.stderr[-300:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: list[dict]) -> str:
    names = list(dict.fromkeys(name for r in rows for name in r["cells"]))
    lines = ["| question | " + " | ".join(names) + " |",
             "|---|" + "---:|" * len(names)]
    for r in rows:
        base = r["cells"].get("jq 1.8.2")
        cells = []
        for name in names:
            cell = r["cells"].get(name)
            if cell is None:
                cells.append("-")
                continue
            ratio = f" ({cell[0] / base[0]:.2f}x)" if base and name != "jq 1.8.2" else ""
            cpu = f" ({cell[1] / base[1]:.2f}x)" if base and base[1] and name != "jq 1.8.2" \
                else ""
            cells.append(f"{cell[0]:.3f} s{ratio}; CPU {cell[1]:.2f} s{cpu}; {cell[2]:.0f} MB")
        lines.append(f"| {r['what']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a tenth of the data, one run")
    parser.add_argument("--big", action="store_true", help="add a 1 GB array's row")
    parser.add_argument("--only", help="only the command-line rows whose question holds it")
    parser.add_argument("--forms", action="store_true",
                        help="add the streaming forms' rows over the 100 MB array")
    options = parser.parse_args()
    runs = 1 if options.quick else options.runs
    plain = plain_venv()
    files = make_data(options.quick, options.big)
    load = os.getloadavg()[0]
    rows = command_rows(files, plain, runs, options.only, options.forms)
    if options.only is not None:
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {load:.1f} at the "
              f"start; median of {runs} run(s)\n\n{table(rows)}")
        return
    api = api_rows(files, plain)
    mcp = mcp_row(DEV)
    report = [
        "# Many small things (bench/small.py)", "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
        f"load {load:.1f} at the start; median of {runs} run(s) (start-up: best of 20, the "
        "tool call: best of 10). Ratios to jq 1.8.2 in the same run, of wall time and of CPU "
        "time (user + system). The plain install "
        f"took {(PLAIN / '.install-seconds').read_text()} s (`pip install .`, no extras, "
        "libjq compiled); dev: the venv that ran the script.", "",
        table(rows), "",
        "| Python API / notebook | plain install | binding's libjq | dev |",
        "|---|---:|---:|---:|",
        *[f"| {what} | {p:.2f} s | {o:.2f} s | {d:.2f} s |" for what, p, o, d in api], "",
        "MCP (the dev install's jqmagic mcp, the official client): 19 quick `jq` calls sent "
        "at once beside a slow one (`reduce range(3e9) ...`), then the slow one cancelled:",
        "",
        *[f"- {k}: {v:.2f} s" if isinstance(v, float) else f"- {k}: {v}"
          for k, v in mcp.items()],
    ]
    text = "\n".join(report) + "\n"
    print(text)
    if not options.quick:
        (HERE / "RESULTS-small.md").write_text(text)


if __name__ == "__main__":
    main()
