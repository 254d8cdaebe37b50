"""jqlang.lexer: tokens as jq 1.8.2's lexer cuts them; NotMine for what the subset lacks."""

from __future__ import annotations

import pytest

from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.lexer import (
    Token,
    decode,
    interpolation_at,
    interpolation_end,
    tokenize,
)


def kinds(program: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(program)]


@pytest.mark.parametrize(("program", "expected"), [
    (".", [("op", ".")]),
    ("..", [("op", "..")]),
    (".a.b", [("field", ".a"), ("field", ".b")]),
    ('."a b"', [("op", "."), ("string", '"a b"')]),
    ("$x", [("var", "$x")]),
    ("$__loc__", [("var", "$__loc__")]),
    ("@csv", [("format", "@csv")]),
    ("map(.)", [("ident", "map"), ("op", "("), ("op", "."), ("op", ")")]),
    ("if . then 1 end", [("keyword", "if"), ("op", "."), ("keyword", "then"), ("number", "1"),
                         ("keyword", "end")]),
    ("1.50 1E+2 .5 3.", [("number", "1.50"), ("number", "1E+2"), ("number", ".5"),
                         ("number", "3.")]),
    ("a//=b", [("ident", "a"), ("op", "//="), ("ident", "b")]),
    ("?//", [("op", "?//")]),
    ("a|=b+=c", [("ident", "a"), ("op", "|="), ("ident", "b"), ("op", "+="), ("ident", "c")]),
    ("!= == <= >= < >", [("op", "!="), ("op", "=="), ("op", "<="), ("op", ">="), ("op", "<"),
                         ("op", ">")]),
    ("1 # a comment\n, 2", [("number", "1"), ("op", ","), ("number", "2")]),
    ('"a\\(1 + "\\(2)")b"', [("string", '"a\\(1 + "\\(2)")b"')]),
])
def test_tokens(program, expected):
    tokens = tokenize(program)
    assert kinds(program) == [*expected, ("end", "")]
    assert tokens[-1] == Token("end", "", len(program))


def test_positions_are_offsets_in_the_text():
    assert [t.pos for t in tokenize(" .a |  $x")] == [1, 4, 7, 9]


@pytest.mark.parametrize("program", [
    "a::b",                 # modules
    '"unterminated',
    '"\\(1"',               # unterminated interpolation
    '"\\(1 # c\n)"',        # a comment inside an interpolation
    "1 # a \\ continued",   # jq 1.8 continues a comment after a backslash
    "`",
])
def test_not_mine(program):
    with pytest.raises(NotMine):
        tokenize(program)


def test_decode_keeps_escapes_and_raw_control_characters():
    assert decode("a\\n\\u00e9\\\"") == 'a\né"'
    assert decode("tab\there") == "tab\there"


@pytest.mark.parametrize("raw", ["\\ud800", "\\x"])
def test_decode_declines_surrogates_and_bad_escapes(raw):
    with pytest.raises(NotMine):
        decode(raw)


def test_interpolations_are_found_past_escaped_backslashes():
    assert interpolation_at("a\\\\(b\\(c)", 0) == 5
    assert interpolation_at("plain", 0) == -1
    assert interpolation_end("(1 + (2)) rest", 1) == len("(1 + (2))")
