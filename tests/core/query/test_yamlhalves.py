"""A big YAML stream read in two processes gives the documents the whole read gives."""

from __future__ import annotations

import json

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.query import yamlhalves
from jqmagic.core.sources.yamldocs import parse_yaml

DOC = """# service {n}
---
name: svc-{n}
on: yes
when: 2025-01-0{d}
labels: &l {{app: a{n}, tier: web}}
spec:
  <<: *l
  text: |
    ---not a marker inside
    line {n}
  ports: [80, {n}]
"""


@pytest.fixture(autouse=True)
def small_halves(monkeypatch):
    monkeypatch.setattr(yamlhalves, "HALVES_FROM", 0)


def stream(count: int) -> str:
    return "".join(DOC.format(n=n, d=n % 9 + 1) for n in range(count))


def test_same_documents_as_whole():
    text = stream(200)
    halves = yamlhalves.parse_in_halves(text, "s.yaml")
    assert halves is not None
    assert json.dumps(halves) == json.dumps(parse_yaml(text, "s.yaml"))


@pytest.mark.parametrize("text", [
    "%YAML 1.1\n" + stream(20),  # a directive: the whole stream
    stream(10) + "---\nbad: [1, 2\n",  # an error in the second half: said by the whole read
    stream(10) + "---\nbig: 123456789012345678901234567890\n",  # orjson cannot carry it
    "a: 1\n" * 100,  # no marker to cut at
])
def test_unusual_streams_are_read_whole(text):
    assert yamlhalves.parse_in_halves(text, "s.yaml") is None


def test_the_cache_reports_errors_where_the_whole_read_does(tmp_path, monkeypatch):
    from jqmagic.core.query import doccache, literalfacts

    monkeypatch.setattr(literalfacts, "scan_beside", True)
    monkeypatch.setattr(doccache, "idle_core", lambda: True)
    text = stream(10) + "---\nbad: [1, 2\n"
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(JqMagicError) as whole:
        parse_yaml(text, str(path))
    with pytest.raises(JqMagicError) as cached:
        doccache.load_file(str(path), "yaml")
    assert cached.value.message == whole.value.message
    path.write_text(stream(50))
    assert doccache.load_file(str(path), "yaml").values == parse_yaml(stream(50))
