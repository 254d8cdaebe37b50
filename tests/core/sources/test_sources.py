"""Sources: choosing one, reading formats safely, and real-world files."""

from __future__ import annotations

import json

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core import jsonc, sources
from tests.shared import CORPUS_JSON

CORPUS = CORPUS_JSON
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True))


def test_positional_string_that_is_both_file_and_json_is_ambiguous(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "1").write_text("2")
    with pytest.raises(JqMagicError) as info:
        query(".", "1")
    assert info.value.code == "AMBIGUOUS_SOURCE" and "file=" in info.value.hint


def test_alias_bomb_is_refused_quickly(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    with pytest.raises(JqMagicError) as info:
        query("keys", path)
    assert info.value.code == "INVALID_YAML" and "alias bomb" in info.value.message


def test_recursive_alias_is_refused_and_plain_aliases_work(tmp_path):
    with pytest.raises(JqMagicError) as info:
        sources.parse_yaml("a: &a [1, *a]\n")
    assert "cycle" in info.value.message
    assert sources.parse_yaml("x: &x {a: 1}\ny: *x\n") == [{"x": {"a": 1}, "y": {"a": 1}}]


def test_yaml_dates_become_iso_text():
    assert query(".when", text="when: 2024-05-01", yaml=True).values == ["2024-05-01"]


@pytest.mark.parametrize("content, expected", [
    ("", []), ("  \n ", []), ('\ufeff{"a": 1}', [{"a": 1}]),
    ('{"a": 1, "a": 2}', [{"a": 2}]), ("[NaN]", [[None]]),
])
def test_odd_but_valid_inputs(tmp_path, content, expected):
    path = tmp_path / "odd.json"
    path.write_text(content, encoding="utf-8")
    assert query(".", path).values == expected


def test_binary_file_is_invalid_json_with_a_bounded_excerpt(tmp_path):
    path = tmp_path / "blob.json"
    path.write_bytes(bytes(range(256)) * 100)
    with pytest.raises(JqMagicError) as info:
        query(".", path)
    assert info.value.code in {"INVALID_JSON", "FILE_ERROR"}
    assert len(info.value.render()) < 1000


def test_jsonc_keeps_positions_and_strings():
    text = '{"url": "http://x//y", /* c */ "a": [1,],\n}'
    assert json.loads(jsonc.to_json(text)) == {"url": "http://x//y", "a": [1]}
    assert len(jsonc.to_json(text)) == len(text)


def test_load_values_for_python_engines(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"n": 1}\n{"n": 2}\n')
    assert sources.load_values(file=str(tmp_path / "a.jsonl")) == [{"n": 1}, {"n": 2}]
    assert sources.load_values(text="k: v", yaml=True) == [{"k": "v"}]
    with pytest.raises(JqMagicError) as info:
        sources.load_values(text='{"a": }')
    assert info.value.code == "INVALID_JSON" and "line 1, column 7" in info.value.message


needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(),
                                  reason=f"real-world corpus not found at {CORPUS}")


@needs_corpus
def test_kubernetes_multi_document_manifest():
    manifest = next((CORPUS / "k8s").glob("argo-cd*.yaml"))
    kinds = query(".kind", manifest, passthrough=True).values
    assert len(kinds) > 10 and "CustomResourceDefinition" in kinds


@needs_corpus
def test_openapi_and_json_lines_corpus():
    spec = next((CORPUS / "openapi").glob("*.json"))
    paths = query(".paths | keys | length", spec).values[0]
    assert paths > 100
    lines = next((CORPUS / "jsonl").glob("*.jsonl"))
    assert query("input_filename | length > 0", lines, limit=1).total > 1000


def test_an_unknown_source_keyword_is_a_programming_error():
    import pytest

    from jqmagic import query

    with pytest.raises(TypeError):
        query(".", url="https://example.com/a.json")  # URLs are fetched by the magic
