"""Fixtures for the query tests."""

from __future__ import annotations

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
