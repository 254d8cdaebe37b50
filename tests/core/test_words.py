"""Small words every message uses (core/words.py)."""

from __future__ import annotations

import pytest

from jqmagic.core.words import (
    a,
    cut,
    for_face,
    json_equal,
    json_text,
    preview,
    term,
    terms,
    type_name,
    without_lone_surrogates,
)


def test_type_names_and_articles():
    assert [type_name(v) for v in (None, True, 1, 1.5, "", [], {})] == [
        "null", "boolean", "number", "number", "string", "array", "object"]
    assert (a("array"), a("string")) == ("an array", "a string")


def test_previews_and_cuts_are_bounded():
    assert preview({"k": "v"}) == '{"k": "v"}'
    assert preview("x" * 10_000_000, 10) == '"xxxxxx...'
    assert cut("abcdef", 4, "bytes") == "abcd… (2 more bytes)" and cut("ab", 4) == "ab"


def test_json_equality_is_json_s():
    assert json_equal(1, 1.0) and json_equal({"a": [1]}, {"a": [1.0]})
    assert not json_equal(True, 1) and not json_equal("1", 1) and not json_equal([1], [1, 2])


def test_lone_surrogates_stay_escapes_or_become_replacement_characters():
    assert json_text(["\ud800é"]) == '["\\ud800é"]'
    assert without_lone_surrogates({"\udc00": ["a\ud800"]}) == {"\ufffd": ["a\ufffd"]}


def test_terms_are_named_once_and_said_by_each_face():
    text = f"Use {term('inspect', '/a')}. Or {term('jsonc')}."
    assert terms(text) == {"inspect", "jsonc"}
    assert for_face(text, "terminal") == "Use jqmagic inspect FILE --path '/a'. Or --jsonc."
    assert for_face(text, "agent") == 'Use json_inspect with path "/a".'  # no jsonc there
    assert for_face("no terms", "nobody") == "no terms"
    with pytest.raises(ValueError):
        for_face(text, "nobody")
