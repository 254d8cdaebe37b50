"""A fleet of big JSON Lines files on a real local Dask cluster (a ``dask scheduler`` and
``dask worker`` processes started apart, as a user starts them), beside the serial run,
``--parallel`` and the jq 1.8.2 command line: the command line's wall time per question,
the answers compared byte for byte. A reduction runs as ``-s 'map(M) | R'`` in one process
(jq, serial) and as ``--reduce R M`` on the fan-outs.

    flock /tmp/jqmagic-bench.lock .venv/bin/python bench/cluster.py \
        [--files 10] [--mb 100] [--folder /tmp/jqmagic-cluster]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import signal
import socket
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = ROOT / ".venv" / "bin"
JQ = str(BIN / "jq-1.8.2")
JQMAGIC = str(BIN / "jqmagic")
KINDS = ("a", "b", "c", "d")

# (name, jqmagic's words, jq's words): a map that keeps a third of the records, and
# reductions the cluster answers with partial reductions.
QUESTIONS = (
    ("map: select | .v", ["-c", 'select(.kind == "a") | .v'], ["-c", 'select(.kind == "a") | .v']),
    ("reduce add", ["-c", "--reduce", "add", "[.v] | add"], ["-c", "-s", "map(.v) | add"]),
    ("reduce length", ["-c", "--reduce", "length", 'select(.kind == "b")'],
     ["-c", "-s", 'map(select(.kind == "b")) | length']),
    ("reduce max_by", ["-c", "--reduce", "max_by(.v)", "{id, v}"],
     ["-c", "-s", "map({id, v}) | max_by(.v)"]),
    ("reduce counts", ["-c", "--reduce", "group_by(.) | map({key: .[0], value: length}) | "
                       "from_entries", ".kind"],
     ["-c", "-s", "map(.kind) | group_by(.) | map({key: .[0], value: length}) | from_entries"]),
)


def make_files(folder: Path, files: int, megabytes: int) -> list[Path]:
    """``files`` JSON Lines files of about ``megabytes`` MB each (kept between runs)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in range(files):
        path = folder / f"part-{f:02d}.jsonl"
        paths.append(path)
        if path.exists() and path.stat().st_size >= megabytes << 20:
            continue
        rng = random.Random(f)
        with open(path.with_suffix(".tmp"), "w") as out:
            written, i = 0, 0
            while written < megabytes << 20:
                lines = []
                for _ in range(10000):
                    lines.append(
                        f'{{"id":{f * 10**7 + i},"kind":"{rng.choice(KINDS)}",'
                        f'"v":{rng.randrange(1000)},"ms":{rng.randrange(100000) / 8},'
                        f'"user":{{"name":"user{rng.randrange(5000)}","team":'
                        f'"t{rng.randrange(40)}"}},"path":"/api/v1/items/{rng.randrange(997)}",'
                        f'"tags":["x{rng.randrange(9)}","y{rng.randrange(9)}"]}}\n')
                    i += 1
                block = "".join(lines)
                out.write(block)
                written += len(block)
        path.with_suffix(".tmp").rename(path)
    return paths


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A scheduler and ``workers`` worker processes (one thread each) on 127.0.0.1."""

    def __init__(self, workers: int):
        self.address = f"tcp://127.0.0.1:{free_port()}"
        port = self.address.rsplit(":", 1)[1]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                 "start_new_session": True}
        self.procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host",
                                        "127.0.0.1", "--port", port, "--dashboard-address",
                                        ":0"], **quiet)]
        self.procs += [subprocess.Popen([str(BIN / "dask"), "worker", self.address,
                                         "--nworkers", "1", "--nthreads", "1",
                                         "--dashboard-address", ":0", "--memory-limit", "0"],
                                        **quiet) for _ in range(workers)]
        self._wait(workers)

    def _wait(self, workers: int) -> None:
        import distributed

        with distributed.Client(self.address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)

    def close(self) -> None:
        for proc in reversed(self.procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            proc.wait(timeout=30)


def timed(argv: list[str]) -> tuple[float, str, float]:
    """Wall seconds, the digest of stdout and the child's peak RSS (MB) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode:
        print(f"  failed ({done.returncode}): {done.stderr.decode()[-300:]}", flush=True)
        return seconds, "failed", 0.0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    digest = hashlib.sha1(done.stdout).hexdigest()[:10]
    return seconds, digest, max(peak, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--folder", default="/tmp/jqmagic-cluster")
    parser.add_argument("--only", help="run the questions whose name holds this text")
    parser.add_argument("--no-jq", action="store_true", help="leave jq out (a quick run)")
    options = parser.parse_args()
    started = time.perf_counter()
    files = [str(p) for p in make_files(Path(options.folder), options.files, options.mb)]
    total = sum(os.path.getsize(f) for f in files) / 2**20
    print(f"# {options.files} files, {total:,.0f} MB in all "
          f"(made or checked in {time.perf_counter() - started:.0f} s), "
          f"{os.cpu_count()} cores", flush=True)
    questions = [q for q in QUESTIONS if not options.only or options.only in q[0]]
    rows: dict[str, dict[str, tuple[float, str]]] = {q[0]: {} for q in questions}

    def measure(column: str, extra: list[str]) -> None:
        for name, words, jq_words in questions:
            if column in ("jq", "serial"):  # one process, a reduction as -s
                argv = [JQ if column == "jq" else JQMAGIC, *(["query"] if column == "serial"
                                                             else []), *jq_words, *files]
            else:
                argv = [JQMAGIC, "query", *extra, *words, *files]
            seconds, digest, _ = timed(argv)
            rows[name][column] = (seconds, digest)
            print(f"{name:16} {column:14} {seconds:7.2f} s  {digest}", flush=True)

    if not options.no_jq:
        measure("jq", [])
    measure("serial", [])
    measure("--parallel", ["--parallel"])
    for workers in (1, 2):
        cluster = Cluster(workers)
        try:
            timed([JQMAGIC, "query", "--dask", cluster.address, "-c", ".id", files[0]])  # warm
            measure(f"--dask {workers}w", ["--dask", cluster.address])
        finally:
            cluster.close()
    columns = [c for c in ("jq", "serial", "--parallel", "--dask 1w", "--dask 2w")
               if any(c in r for r in rows.values())]
    print("\n| question | " + " | ".join(columns) + " | same bytes |")
    print("|---|" + "---:|" * len(columns) + "---|")
    for name, cells in rows.items():
        digests = {d for _, d in cells.values() if d != "failed"}
        print(f"| {name} | " + " | ".join(
            "-" if c not in cells else "failed" if cells[c][1] == "failed" else
            f"{cells[c][0]:.2f} s" for c in columns)
              + f" | {'yes' if len(digests) == 1 else 'NO'} |")


if __name__ == "__main__":
    main()
