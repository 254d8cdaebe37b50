"""Golden runs of ``jqmagic inspect``: the shape as JSON on stdout, errors on stderr."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.shared import CORPUS_JSON

CORPUS = CORPUS_JSON


def jqmagic(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jqmagic", "inspect", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "users.json"
    path.write_text(json.dumps({"users": [{"id": 1, "email": None}, {"id": 2, "email": "b"}]}))
    return path


def test_shape_of_a_file(data):
    run = jqmagic(str(data), "--path", "/users", "--depth", "1")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["arrayLength"] == 2
    assert out["elementTemplate"] == {"id": "number", "email": "null|string"}
    assert out["keyPresence"] == {"id": 2, "email": 2}


def test_stdin_compact_and_formats():
    run = jqmagic("-c", "--format", "jqschema", stdin='{"b": [1], "a": "x"}')
    assert run.stdout == '{"a":"string","b":["number"]}\n'
    schema = json.loads(jqmagic("--format", "jsonschema", "--input", "[1, 2.5]").stdout)
    assert schema["items"] == {"type": "number"}


def test_stats_and_stream(data):
    out = json.loads(jqmagic(str(data), "--stats", "--stream").stdout)
    assert out["profiles"][".users[].email"]["null"] == 1


def test_errors_print_code_and_hint(data):
    run = jqmagic(str(data), "--path", "/users/5")
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("error NOT_FOUND: Path '/users/5' not found. Array length is 2")
    assert "hint: Use an index from 0 to 1" in run.stderr
    bad = jqmagic(str(data), "--path", "users")
    assert bad.stderr.startswith("error INVALID_POINTER")


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")
def test_corpus_yaml_stream_of_documents():
    run = jqmagic(str(CORPUS / "k8s/ingress-nginx-cloud-deploy.yaml"), "--depth", "0")
    out = json.loads(run.stdout)
    assert out["arrayLength"] == 19 and out["keyPresence"]["kind"] == 19


def test_a_shape_over_the_bound_goes_to_the_payload_store(tmp_path, monkeypatch):
    monkeypatch.setenv("JQMAGIC_PAYLOAD_DIR", str(tmp_path / "payloads"))
    wide = tmp_path / "wide.json"
    wide.write_text(json.dumps({f"key{i:05}": {"n": i, "s": "x"} for i in range(20_000)}))
    run = jqmagic("--format", "jsonschema", str(wide))
    assert run.returncode == 0 and run.stdout == ""
    assert "over the 200,000 a command prints" in run.stderr and "--all" in run.stderr
    kept = next((tmp_path / "payloads").glob("*/payload.json"))
    whole = jqmagic("--format", "jsonschema", "--all", str(wide))
    assert json.loads(kept.read_text()) == json.loads(whole.stdout)  # the same, kept whole
