"""A soak: 10,000 mixed operations in one process with steady memory, no leaked file
descriptors and no leaked threads."""

from __future__ import annotations

import gc
import json
import os
import random
import threading
import time

import psutil
import pytest

from jqmagic import patch, query, shape
from jqmagic.core.sources import load_values
from jqmagic.core.web.fetch import fetch
from tests.reliability.faces import OK, core

OPERATIONS = 10_000
WARM_UP = 500
RSS_GROWTH = 40 * 2**20  # bytes the process may grow between warm-up and the end


def snapshot() -> tuple[int, int, int]:
    """(RSS bytes, open descriptors, threads), after letting finished threads go."""
    gc.collect()
    time.sleep(0.2)
    process = psutil.Process()
    return process.memory_info().rss, len(os.listdir("/proc/self/fd")), threading.active_count()


@pytest.mark.soak
def test_ten_thousand_mixed_operations(tmp_path, web):
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"items": [{"id": i, "tags": ["a", "b"]} for i in range(300)]},
                               indent=2))
    target = tmp_path / "target.json"
    target.write_text('{"n": 0, "log": []}\n')
    page = web.add("/page", "<html><body><main><h1>T</h1><p>text</p></main></body></html>")
    api = web.add("/api", json.dumps({"a": [1, 2, 3]}), "application/json")
    rng = random.Random(7)
    mix = [
        lambda i: query(".items[] | select(.id == $n) | .tags", data, args={"n": i % 300}),
        lambda i: query("[.items[].id] | add", text=json.dumps({"items": [{"id": i}]})),
        lambda i: query("range($n)", null_input=True, args={"n": i % 250}),  # may spill
        lambda i: core(query, ".items[", data),  # an invalid program
        lambda i: core(query, ".", text="{bad json"),
        lambda i: shape(file=str(data), stats=i % 2 == 0),
        lambda i: shape(value={"k": list(range(i % 50))}),
        lambda i: load_values(file=str(data)),
        lambda i: patch(str(target), "set", "/n", i),
        lambda i: core(patch, str(target), "remove", "/missing"),
        lambda i: fetch(page),
        lambda i: fetch(api, jq=".a | length"),
        lambda i: core(fetch, web.url("/nothing")),
    ]
    counts = [0] * len(mix)
    last_patch = 0
    started = time.monotonic()
    for i in range(OPERATIONS):
        if i == WARM_UP:
            rss0, fds0, threads0 = snapshot()
        n = rng.randrange(len(mix))
        outcome = mix[n](i)
        assert not isinstance(outcome, tuple) or outcome[0] != OK or n == 12
        counts[n] += 1
        last_patch = i if n == 8 else last_patch
    elapsed = time.monotonic() - started
    rss1, fds1, threads1 = snapshot()
    assert json.loads(target.read_text())["n"] == last_patch  # no update lost
    assert rss1 - rss0 < RSS_GROWTH, (rss0 >> 20, rss1 >> 20)
    assert fds1 <= fds0 and threads1 <= threads0, (fds0, fds1, threads0, threads1)
    assert min(counts) > 500 and elapsed < 150, (counts, elapsed)
