"""The payload store: ids, layout, pruning, errors, a full disk."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

from jqmagic.core import payloads
from jqmagic.core.errors import JqMagicError
from jqmagic.tools.results import summary


def test_store_and_load_round_trip(tmp_path):
    ref = payloads.store('{"a": [1, 2]}', directory=tmp_path)
    assert re.fullmatch(r"[0-9a-f]{32}", ref.id)
    assert ref.path == tmp_path / ref.id / "payload.json"
    assert ref.size == 13
    assert payloads.load(ref.id, directory=tmp_path) == '{"a": [1, 2]}'
    assert payloads.payload(ref.id, directory=tmp_path) == {"a": [1, 2]}
    assert sorted(p.name for p in (tmp_path / ref.id).iterdir()) == ["payload.json"]


def test_several_values_come_back_as_a_list(tmp_path):
    ref = payloads.store(b'1\n{"b": 2}\n', directory=tmp_path)
    assert payloads.payload(ref.id, directory=tmp_path) == [1, {"b": 2}]


def test_folder_from_environment_then_argument(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "env"))
    ref = payloads.store("1")
    assert ref.path.parent.parent == tmp_path / "env"
    assert payloads.payload(ref.id) == 1
    other = payloads.store("2", directory=tmp_path / "arg")
    assert other.path.parent.parent == tmp_path / "arg"
    monkeypatch.delenv("JQMAGIC_PAYLOAD_DIR")
    assert payloads.payload_dir().parts[-2:] == ("jqmagic", "payloads")


def test_prune_removes_oldest_past_the_budget(tmp_path):
    refs = []
    for n in range(4):
        refs.append(payloads.store("x" * 100, directory=tmp_path, budget=10**6))
        os.utime(refs[-1].path, ns=(n * 10**9, n * 10**9))  # distinct ages
    newest = payloads.store("y" * 100, directory=tmp_path, budget=250)
    left = [r.id for r in payloads.entries(tmp_path)]
    assert left == [refs[3].id, newest.id]
    with pytest.raises(JqMagicError) as exc:
        payloads.load(refs[0].id, directory=tmp_path)
    assert exc.value.code == "NOT_FOUND" and "pruned" in exc.value.hint


def test_the_new_payload_survives_even_over_budget(tmp_path):
    old = payloads.store("o" * 10, directory=tmp_path)
    time.sleep(0.01)
    big = payloads.store("b" * 1000, directory=tmp_path, budget=100)
    assert [r.id for r in payloads.entries(tmp_path)] == [big.id]
    assert old.id not in {r.id for r in payloads.entries(tmp_path)}


def test_budget_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_BUDGET", "150")
    first = payloads.store("a" * 100, directory=tmp_path)
    os.utime(first.path, ns=(0, 0))
    payloads.store("b" * 100, directory=tmp_path)
    assert first.id not in {r.id for r in payloads.entries(tmp_path)}


@pytest.mark.parametrize("bad", ["xyz", "A" * 32, "../" + "a" * 29, 12])
def test_malformed_ids(tmp_path, bad):
    with pytest.raises(JqMagicError) as exc:
        payloads.load(bad, directory=tmp_path)
    assert exc.value.code == "INVALID_ARGUMENT"


def test_full_disk_is_a_clear_error_and_leaves_nothing(tmp_path, monkeypatch):
    def dev_full(fd):
        os.close(fd)
        return open("/dev/full", "wb")  # noqa: SIM115 - the real ENOSPC of the kernel

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    monkeypatch.setattr(payloads, "_open_for_write", dev_full)
    with pytest.raises(JqMagicError) as exc:
        payloads.store("x" * 100_000, directory=tmp_path)
    assert exc.value.code == "FILE_ERROR"
    assert "disk is full" in exc.value.message and "100,000 bytes" in exc.value.message
    assert "JQMAGIC_PAYLOAD_DIR" in exc.value.hint
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JqMagicError) as exc:
        payloads.store("1", directory=blocker)
    assert exc.value.code == "FILE_ERROR"


def test_summary_is_the_middleware_response(tmp_path):
    value = {"total_count": 1000, "items": [{"login": f"user{i}", "id": i} for i in range(100)]}
    text = json.dumps(value)
    ref = payloads.store(text, directory=tmp_path)
    out = summary(ref, text, value)
    assert out["queryID"] == ref.id and out["payloadPath"] == str(ref.path)
    assert out["preview"] == text[:500]
    assert out["schema"] == {"items": [{"id": "number", "login": "string"}],
                             "total_count": "number"}
    assert out["originalSize"] == len(text) and out["truncated"] is True
    assert "schema" not in summary(ref, "1")
    assert summary(ref, "null", None)["schema"] == "null"
