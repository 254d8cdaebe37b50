"""``jqmagic query`` into a pipe or a file is jq: every result, every byte, written as it
comes; what came before a timeout, an error or a halt is written too."""

from __future__ import annotations

import io
import json
import random
import resource
import subprocess
import sys
import time

import pytest

from tests.cli.dropin import ORACLE, needs_oracle

JQMAGIC = [sys.executable, "-m", "jqmagic", "query"]


def test_a_pipe_closed_early_ends_the_run():
    """``| head -3`` over an endless program: the run ends when the reader goes."""
    started = time.monotonic()
    run = subprocess.run(f"{' '.join(JQMAGIC)} -n 'range(1e9)' | head -3", shell=True,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout == "0\n1\n2\n"
    assert time.monotonic() - started < 60  # liveness, not speed: range(1e9) whole is hours


def test_results_before_a_timeout_reach_the_pipe():
    run = subprocess.run([*JQMAGIC, "-n", "--timeout", "2", "range(1e12)"],
                         capture_output=True, text=True, timeout=120)
    lines = run.stdout.splitlines()
    assert run.returncode == 5 and "TIMEOUT" in run.stderr
    assert len(lines) > 1000 and lines[:3] == ["0", "1", "2"]
    assert lines == [str(i) for i in range(len(lines))]  # in order, none lost between


def test_results_before_a_halt_reach_the_pipe():
    run = subprocess.run([*JQMAGIC, "-n", '1, 2, ("bye\\n" | halt_error(3)), 4'],
                         capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (3, "1\n2\n") and "bye" in run.stderr


def test_unbuffered_shows_the_first_result_before_the_last_is_made():
    slow = "range(3) | ., (reduce range(1000000) as $i (0; . + 1) | empty)"
    with subprocess.Popen([*JQMAGIC, "-n", "--unbuffered", slow], stdout=subprocess.PIPE,
                          text=True) as process:
        assert process.stdout.readline() == "0\n"
        assert process.poll() is None  # still working on the rest
        assert process.stdout.read() == "1\n2\n"


def _document(path, mb: float) -> None:
    """A JSON document of about ``mb`` megabytes written by json.dumps (json.dump's bytes,
    2.5x faster), with numbers of every kind jq prints its own way: 1.0, 1e-7, big
    integers, unicode."""
    rng = random.Random(7)
    items, size = [], 0
    while size < mb * 1e6:
        item = {"id": len(items), "price": rng.choice([1.0, 0.1, 2.5, 1e-7, 12.0]),
                "big": 2**63 + len(items), "name": f"n\u00e9{rng.random()}",
                "tags": [rng.random() for _ in range(3)], "ok": len(items) % 3 == 0}
        items.append(item)
        size += 150
    path.write_text(json.dumps({"items": items}))


@needs_oracle
@pytest.mark.parametrize("mb", [0.001, 3])
def test_the_whole_document_into_a_file_is_jqs_byte_for_byte(tmp_path, mb):
    doc = tmp_path / "doc.json"
    _document(doc, mb)
    for args in (["."], ["-c", ".items[]"], ["-r", ".items[].name"]):
        with open(tmp_path / "ours", "wb") as ours, open(tmp_path / "theirs", "wb") as theirs:
            assert subprocess.run([*JQMAGIC, *args, str(doc)], stdout=ours,
                                  timeout=300).returncode == 0
            subprocess.run([str(ORACLE), *args, str(doc)], stdout=theirs, timeout=300, check=True)
        assert (tmp_path / "ours").read_bytes() == (tmp_path / "theirs").read_bytes(), args


def test_every_result_reaches_wc(tmp_path):
    doc = tmp_path / "geo.json"
    doc.write_text(json.dumps({"features": [{"id": i} for i in range(180)]}))
    run = subprocess.run(f"{' '.join(JQMAGIC)} -r '.features[].id' {doc} | wc -l",
                         shell=True, capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "180"


@pytest.mark.slow
@needs_oracle
def test_a_300_mb_document_into_a_file_is_jqs_byte_for_byte(tmp_path):
    """The promise at scale: identical bytes; peak memory printed for the note."""
    doc = tmp_path / "big.json"
    _document(doc, 300)
    peaks = {}
    for name, command in (("jqmagic", JQMAGIC), ("jq", [str(ORACLE)])):
        with open(tmp_path / name, "wb") as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            subprocess.run([*command, "-c", ".", str(doc)], stdout=out, timeout=1200,
                           check=True)
            peaks[name] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before
    print(f"peak RSS of any child so far, KiB: {peaks}")
    assert (tmp_path / "jqmagic").read_bytes() == (tmp_path / "jq").read_bytes()


def test_a_file_over_the_budget_is_read_as_jq_reads_it(tmp_path, monkeypatch, capsys):
    """A program no streamed form answers: the command line reads the file whole (as jq
    does) where the notebook and the agents get TOO_LARGE."""
    from jqmagic.cli import main
    from jqmagic.core.settings import settings

    doc = tmp_path / "big.json"
    doc.write_text(json.dumps({"rows": [{"v": i} for i in range(2000)]}))
    monkeypatch.setattr(settings, "doc_cache_bytes", 100)
    assert main(["query", "-c", ".rows | map(.v) | add", str(doc)]) == 0
    assert capsys.readouterr().out == f"{sum(range(2000))}\n"
    assert main(["query", "-c", ".rows[:2][]", str(doc)]) == 0  # a streamed form
    assert capsys.readouterr().out == '{"v":0}\n{"v":1}\n'


class _Writes(io.RawIOBase):
    """A raw stdout that counts the writes it is given."""

    calls = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.calls += 1
        return len(data)


def test_results_are_buffered_as_jq_buffers_them_under_python_u(tmp_path, monkeypatch):
    """python -u (PYTHONUNBUFFERED) makes stdout write through; a pipe still gets the
    results in blocks, as from jq (each result written alone: a million took 0.5 s more)."""
    from jqmagic.cli import main

    doc = tmp_path / "numbers.json"
    doc.write_text(json.dumps(list(range(10_000))))
    raw = _Writes()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, write_through=True))
    assert main(["query", "-c", ".[]", str(doc)]) == 0
    sys.stdout.flush()
    assert raw.calls < 100  # 10,000 results
