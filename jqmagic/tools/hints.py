"""Hints in one tool's words: a sentence that names a parameter the tool lacks is left out.

The core writes hints with :func:`jqmagic.core.words.term`; the agent face says each term
as a tool parameter ("the timeout parameter"). A tool without that parameter (json_inspect
has no timeout) must not be told to use it, so the sentence goes (its other sentences stay).
"""

from __future__ import annotations

import re
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.words import for_face, terms

PARAMETER_OF = {"timeout": "timeout", "path": "path", "stats": "stats", "format": "format",
                "match": "match", "where": "match", "match_example": "match", "arg": "args",
                "bind": "args", "file": "file", "input": "input", "exec": "exec"}
"""The parameter each term names in an agent's words."""
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=\S)")


def for_tool(raw_hint: str, tool: Any) -> str:
    """``raw_hint`` (with terms) in ``tool``'s words."""
    own = set(tool.parameters["properties"])
    if "exec" in own and not sandbox.exec_allowed():
        own.discard("exec")

    def usable(sentence: str) -> bool:
        return all(PARAMETER_OF.get(name, name) in own or name not in PARAMETER_OF
                   for name in terms(sentence))

    kept = [s for s in _SENTENCE_END.split(raw_hint) if usable(s)]
    return for_face(" ".join(kept), "agent")
