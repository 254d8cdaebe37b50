"""Two hints a newcomer met on the shared corpus: ``.[0]`` on a YAML stream or a JSON Lines
file (which %inspect shows as an array) says the program runs on each input and that -s
reads them as one array; ``.name`` over values of mixed types (``map(.name)`` on a
package.json) says which types are there, not the keys of the few objects among them."""

from __future__ import annotations

import json

import pytest

from jqmagic import JqMagicError, query
from jqmagic.core.shape.hints import hint_for, hint_for_inputs


def hint_of(program: str, path) -> str:
    with pytest.raises(JqMagicError) as caught:
        query(program, file=str(path))
    return caught.value.hint


@pytest.mark.parametrize("name, text", [
    ("k8s.yaml", "kind: A\n---\nkind: B\n---\nkind: C\n"),
    ("qa.jsonl", '{"q": 1}\n{"q": 2}\n{"q": 3}\n'),
])
def test_an_index_on_a_stream_says_it_runs_on_each_input(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    hint = hint_of(".[0]", tmp_path / name)
    assert hint == ("at . there is an object, not an array; [0] cannot be read: the program "
                    "runs on each of the 3 inputs in turn; -s reads them as one array, "
                    "which .[0] indexes"), hint
    assert query(".[0].kind" if name.endswith("yaml") else ".[0].q", file=str(tmp_path / name),
                 slurp=True).values in (["A"], [1])


def test_one_document_keeps_its_words(tmp_path):
    assert hint_for_inputs(".[0]", [{"a": 1}], error="Cannot index object with number") == \
        "at . there is an object, not an array; [0] cannot be read"


def test_a_key_over_mixed_types_counts_them(tmp_path):
    (tmp_path / "package.json").write_text(json.dumps({
        "name": "x", "version": "1", "private": True, "files": ["a"],
        "exports": {".": "./index.js"}, "scripts": {"test": "jest"}}))
    hint = hint_of("map(.name)", tmp_path / "package.json")
    assert hint == ("at .[] there are 1 array, 1 boolean, 2 objects and 2 strings; .name reads "
                    'objects only: .name? skips the others, or select(type == "object") '
                    "before it"), hint


def test_a_missing_key_among_objects_and_nulls_still_lists_keys():
    hint = hint_for(".[] | .nme", [{"name": 1}, None], error="whatever")
    assert "did you mean" in hint or "keys are: name" in hint, hint
