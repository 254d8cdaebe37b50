"""--parallel on one big JSON Lines file: cut into byte ranges at line starts, one per
worker, and the answer is still byte for byte, in order, what one worker gives (errors in
the middle of the file included)."""

from __future__ import annotations

import json

import pytest

from jqmagic import JqMagicError, payload, query
from jqmagic.core.query.fanout import lines as linerange
from jqmagic.core.settings import settings


@pytest.fixture
def big(tmp_path, monkeypatch):
    """One JSON Lines file, and pieces small enough that it is cut in several."""
    monkeypatch.setattr(linerange, "MIN_PIECE", 1000)
    cuts: list[int] = []
    real = linerange.cut

    def counting(path, pieces):
        found = real(path, pieces)
        cuts.append(len(found))
        return found

    monkeypatch.setattr(linerange, "cut", counting)
    path = tmp_path / "big.jsonl"
    with open(path, "w") as out:
        for i in range(3000):
            out.write(json.dumps({"i": i, "level": "error" if i % 11 == 0 else "info",
                                  "ms": i * 0.25, "n": 10**20 if i == 7 else i}) + "\n")
    return str(path), cuts


def _answer(program, path, **options):
    try:
        result = query(program, path, compact=True, limit=100, **options)
        return "ok", result.text, result.total, payload(result.payload_id)
    except JqMagicError as exc:
        return "error", exc.code, exc.message, exc.result.values


@pytest.mark.parametrize("program", ['select(.level == "error") | [.i, .ms]', ".n",
                                     'label $out | .i | tostring'])
@pytest.mark.parametrize("fast", [True, False])
def test_one_big_file_on_every_worker(big, program, fast, monkeypatch):
    path, cuts = big
    monkeypatch.setattr(settings, "fast_path", fast)
    serial = _answer(program, path)
    spread = _answer(program, path, parallel=3)
    assert cuts and cuts[0] == 3
    assert spread == serial and spread[0] == "ok"


@pytest.mark.parametrize("bad, code", [('{"i": 1500, "level": \n', "INVALID_JSON"),
                                       ('{"i": "x"}\n', "QUERY_ERROR")])
def test_an_error_in_the_middle_reads_as_the_serial_run(big, bad, code):
    path, _ = big
    with open(path) as text:
        lines = text.readlines()
    lines[1500] = bad
    with open(path, "w") as out:
        out.writelines(lines)
    program = ".i + 1"
    serial = _answer(program, path, passthrough=True)
    spread = _answer(program, path, passthrough=True, parallel=2)
    assert spread == serial and serial[:2] == ("error", code)
