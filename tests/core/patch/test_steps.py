"""The steps every edit is made of (patch/steps.py), on a Python value's store."""

from __future__ import annotations

import pytest

from jqmagic.core.errors import JqMagicError
from jqmagic.core.patch.plan import Change
from jqmagic.core.patch.steps import exists, insert_at, remove_at, set_at
from jqmagic.core.patch.stores import TreeStore


def test_exists_says_whether_a_place_holds_a_value():
    store = TreeStore({"a": [1, None]})
    assert exists(store, ["a", "1"]) and exists(store, [])
    assert not exists(store, ["b"]) and not exists(store, ["a", "5"])


def test_set_replaces_or_adds_with_the_missing_parents():
    root = {"a": 1}
    store = TreeStore(root)
    assert set_at(store, ["a"], 2) == Change("/a", 1, 2)
    assert set_at(store, ["b", "c", "-", "d"], True) == Change("/b/c/0/d", None, True)
    assert root == {"a": 2, "b": {"c": [{"d": True}]}}


def test_set_refuses_parents_that_spell_a_key_with_a_slash():
    store = TreeStore({"packages": {"node_modules/x": {"version": "1"}}})
    with pytest.raises(JqMagicError) as info:
        set_at(store, ["packages", "node_modules", "x", "version"], "2")
    assert info.value.code == "PATCH_CONFLICT"
    assert "/packages/node_modules~1x/version" in info.value.hint


def test_insert_goes_before_an_index_of_an_array_only():
    root = {"items": [1, 3], "o": {}}
    store = TreeStore(root)
    assert insert_at(store, ["items", "1"], 2) == Change("/items/1", None, 2)
    assert root["items"] == [1, 2, 3]
    for tokens in (["o", "0"], []):
        with pytest.raises(JqMagicError) as info:
            insert_at(store, tokens, 0)
        assert info.value.code == "INVALID_ARGUMENT"


def test_remove_gives_what_was_there_and_never_the_whole_document():
    root = {"a": {"b": 1}}
    store = TreeStore(root)
    assert remove_at(store, ["a", "b"]) == Change("/a/b", 1, None)
    assert root == {"a": {}}
    with pytest.raises(JqMagicError) as info:
        remove_at(store, [])
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(JqMagicError) as info:
        remove_at(store, ["zz"])
    assert info.value.code == "NOT_FOUND"
