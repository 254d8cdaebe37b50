"""Tokens of a jq program, as jq 1.8.2's lexer cuts them (the subset the parser knows)."""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from jqmagic.core.jqlang.errors import NotMine

KEYWORDS = frozenset({"as", "def", "if", "then", "elif", "else", "end", "and", "or", "reduce",
                      "foreach", "try", "catch", "label", "import", "include", "__loc__"})
_TOKEN = re.compile(r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<format>@[a-zA-Z0-9_]+)
  | (?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<field>\.[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<var>\$[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<ident>[a-zA-Z_][a-zA-Z_0-9]*)
  | (?P<op>\.\.|!=|==|<=|>=|\?//|//=|//|\|=|\+=|-=|\*=|/=|%=|[.\[\]{}()|,:;=<>+\-*/%?$@])
""", re.X | re.S)


class Token(NamedTuple):
    kind: str  # string, number, field, var, ident, keyword, op, end
    text: str
    pos: int


def tokenize(program: str) -> list[Token]:
    """The program's tokens, ending with an ``end`` token; NotMine for anything unusual."""
    tokens, pos = [], 0
    while pos < len(program):
        if program[pos] == '"':
            end = _string_end(program, pos)
            tokens.append(Token("string", program[pos:end], pos))
            pos = end
            continue
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


def _string_end(program: str, pos: int) -> int:
    """Where the string literal opening at ``pos`` ends, past any ``\\(...)`` in it."""
    i = pos + 1
    while i < len(program):
        c = program[i]
        if c == '"':
            return i + 1
        if c == "\\":
            i = interpolation_end(program, i + 2) if program.startswith("(", i + 1) else i + 2
        else:
            i += 1
    raise NotMine("unterminated string")


def interpolation_end(program: str, i: int) -> int:
    """Where the interpolation whose body starts at ``i`` ends (past its ``)``)."""
    depth = 1
    while i < len(program):
        c = program[i]
        if c == '"':
            i = _string_end(program, i)
            continue
        if c == "#":
            raise NotMine("a comment inside an interpolation")
        depth += (c == "(") - (c == ")")
        i += 1
        if depth == 0:
            return i
    raise NotMine("unterminated interpolation")


def decode(raw: str) -> str:
    """The text of a piece of a string literal (JSON's escapes; jq keeps raw control
    characters such as a newline as they are)."""
    try:
        text = json.loads(f'"{raw}"', strict=False)
    except ValueError as exc:
        raise NotMine("string escape") from exc
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise NotMine("surrogate escape")
    return text


def interpolation_at(body: str, start: int) -> int:
    """Where the next ``\\(`` of a string body is, or -1."""
    i = start
    while (i := body.find("\\", i)) >= 0:
        if body.startswith("(", i + 1):
            return i
        i += 2
    return -1


def interpolation_length(rest: str) -> int:
    """The length of ``(...)`` in ``rest`` (which starts with a backslash)."""
    return interpolation_end(rest, 2) - 2
