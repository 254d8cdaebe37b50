"""JSONC (JSON with comments and trailing commas) to plain JSON, keeping line numbers."""

from __future__ import annotations

import re

# A string, a comment, or a comma followed only by blanks/comments before a closer (each
# comment there read whole, atomically: a `}` inside `// a } brace` closes nothing).
_TOKENS = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'           # string literal (kept)
    r"|//[^\n]*"                      # line comment
    r"|/\*.*?\*/"                     # block comment
    r"|,(?=(?:\s|//[^\n]*+|(?>/\*.*?\*/))*[\]}])",  # trailing comma
    re.S,
)


def to_json(text: str) -> str:
    """Blank out comments and trailing commas; lines and columns stay where they were.

    >>> to_json('{"a": 1, // one\\n "b": [2,],}')
    '{"a": 1,       \\n "b": [2 ] }'
    """

    def blank(match: re.Match) -> str:
        token = match.group()
        if token.startswith('"'):
            return token
        return re.sub(r"[^\n]", " ", token)

    return _TOKENS.sub(blank, text)
