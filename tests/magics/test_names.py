"""What a magic's SOURCE or TARGET word names in a notebook (names.py), read against a
namespace: a variable (dotted attributes too), a file, inline JSON, or an error that says
which reading failed."""

from __future__ import annotations

import types

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.notebook import names
from jqmagic.notebook.magics import JqMagic


def parsed(magic: str, *words: str):
    return getattr(JqMagic, magic).parser.parse_intermixed_args(list(words))


def keywords(*words: str, namespace: dict | None = None) -> dict:
    args = parsed("jq", ".", *words)
    return names.source_keywords(args, list(args.words[1:]), namespace or {})


def test_a_word_is_a_variable_a_file_or_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.json").write_text("{}")
    space = {"users": [1], "box": types.SimpleNamespace(items=[2])}
    assert keywords("users", namespace=space)["value"] == [1]
    assert keywords("box.items", namespace=space)["value"] == [2]
    assert keywords("data.json", namespace=space)["source"] == "data.json"
    assert keywords('{"a": 1}')["source"] == '{"a": 1}'
    assert keywords("users", "--file", namespace=space)["file"] == "users"
    assert keywords("--input", "[1]", "--yaml")["text"] == "[1]"
    assert keywords("--input", "[1]", "--yaml")["yaml"] is True


def test_a_file_named_after_a_variable_is_read(tmp_path, monkeypatch):
    """customers.json beside a variable customers (a list: no attribute json) is the file;
    an attribute that exists is still the variable's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "customers.json").write_text("[3]")
    (tmp_path / "box.items").write_text("[4]")
    space = {"customers": [1], "box": types.SimpleNamespace(items=[2])}
    assert keywords("customers.json", namespace=space)["source"] == "customers.json"
    assert keywords("box.items", namespace=space)["value"] == [2]
    with pytest.raises(JqMagicError, match="No Python variable named customers.csv"):
        keywords("customers.csv", namespace=space)


def test_a_name_that_is_neither_says_so():
    for words, code in ((["nothing"], "NOT_FOUND"), (["nothing", "--var"], "NOT_FOUND"),
                        (["a.json", "--input", "1"], "AMBIGUOUS_SOURCE")):
        with pytest.raises(JqMagicError) as info:
            keywords(*words)
        assert info.value.code == code, words


def test_a_patch_target_is_a_dict_or_list_variable_or_else_a_file(tmp_path):
    space = {"config": {"a": 1}, "count": 3}
    target = names.patch_target("config", parsed("jsonpatch", "config"), space)
    assert target is space["config"]
    assert names.patch_target("config", parsed("jsonpatch", "config", "--file"),
                              space) == "config"
    assert names.patch_target("missing.json", parsed("jsonpatch", "x"), space) == "missing.json"
    with pytest.raises(JqMagicError) as info:
        names.patch_target("count", parsed("jsonpatch", "count"), space)
    assert info.value.code == "INVALID_ARGUMENT" and "int" in info.value.message
