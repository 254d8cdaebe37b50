"""Tokens of a jq program, as jq 1.8.2's lexer cuts them (the subset the parser knows)."""

from __future__ import annotations

import re
from typing import NamedTuple

from jqmagic.core.jqlang.errors import NotMine

KEYWORDS = frozenset({"as", "def", "if", "then", "elif", "else", "end", "and", "or", "reduce",
                      "foreach", "try", "catch", "label", "import", "include", "__loc__"})
_TOKEN = re.compile(r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<field>\.[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<var>\$[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<ident>[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<op>\.\.|!=|==|<=|>=|//|\?//|\|=|\+=|-=|\*=|/=|%=|//=|[.\[\]{}()|,:;=<>+\-*/%?$@])
""", re.X | re.S)


class Token(NamedTuple):
    kind: str  # string, number, field, var, ident, keyword, op, end
    text: str
    pos: int


def tokenize(program: str) -> list[Token]:
    """The program's tokens, ending with an ``end`` token; NotMine for anything unusual."""
    tokens, pos = [], 0
    while pos < len(program):
        match = _TOKEN.match(program, pos)
        if match is None:
            raise NotMine(f"unknown character at {pos}")
        kind, text = match.lastgroup, match.group()
        if kind == "space":
            if "\\" in text or "\r" in text:  # jq 1.8 continues comments after a backslash
                raise NotMine("comment with a backslash")
        elif kind == "ident":
            if program.startswith("::", match.end()):
                raise NotMine("module syntax")
            tokens.append(Token("keyword" if text in KEYWORDS else "ident", text, pos))
        else:
            tokens.append(Token(kind, text, pos))
        pos = match.end()
    tokens.append(Token("end", "", pos))
    return tokens
