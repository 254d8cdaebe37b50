"""Fixtures for the query tests."""

from __future__ import annotations

import json
import os

import pytest

from jqmagic.core.query import fastpath, libjqinput, worker
from tests.core.query.inline import inline_worker


@pytest.fixture
def parses(monkeypatch):
    """The files libjq parses for its cache, counted, with the worker's code run in this
    process and both caches empty before and after."""
    worker.jv_documents.clear()
    fastpath.documents.clear()
    seen: list[str] = []
    real = libjqinput.parse_inputs

    def counting(files):
        seen.extend(os.path.basename(f) for f in files)
        return real(files)

    monkeypatch.setattr(libjqinput, "parse_inputs", counting)
    with inline_worker(monkeypatch):
        yield seen
    worker.jv_documents.clear()
    fastpath.documents.clear()


@pytest.fixture
def write_logs(tmp_path):
    """Makes five JSON Lines logs of ``records`` records each ({f, i, level, ms}, every
    seventh an error) and returns their glob."""
    def write(records: int) -> str:
        for f in range(5):
            with open(tmp_path / f"log{f}.jsonl", "w") as out:
                for i in range(records):
                    out.write(json.dumps({"f": f, "i": i, "level": "error" if i % 7 == 0
                                          else "info", "ms": i * 0.5}) + "\n")
        return str(tmp_path / "log*.jsonl")

    return write
