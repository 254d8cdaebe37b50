"""patch(), shape() and fetch() spell every option as a typed keyword-only parameter, so
help() and an IDE show them; an unknown keyword is a TypeError before any work."""

from __future__ import annotations

import inspect

import pytest

from jqmagic.core.patch import patch
from jqmagic.core.shape import shape
from jqmagic.core.web.fetch import fetch

CALLS = {patch: lambda **bad: patch({}, "set", "/a", 1, **bad),
         shape: lambda **bad: shape(value={}, **bad),
         fetch: lambda **bad: fetch("http://127.0.0.1:9/", **bad)}


@pytest.mark.parametrize("function", list(CALLS), ids=lambda f: f.__name__)
def test_every_option_is_a_typed_keyword(function):
    parameters = list(inspect.signature(function).parameters.values())
    assert not [p for p in parameters if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    assert not [p.name for p in parameters if p.annotation is p.empty]
    keyword_only = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    assert len(keyword_only) >= 4, keyword_only
    documented = inspect.getdoc(function)
    assert all(name in documented for name in keyword_only if name != "value_given")


@pytest.mark.parametrize("function", list(CALLS), ids=lambda f: f.__name__)
def test_an_unknown_keyword_is_a_type_error(function):
    with pytest.raises(TypeError, match="no_such_option"):
        CALLS[function](no_such_option=1)
