"""Result bounds: how many results and tokens are shown, and the one-line messages."""

from __future__ import annotations

import re

NO_RESULTS = "Query returned no results"

_ITERATED = re.compile(r"^(?P<head>.*?)\[\]\s*$", re.S)


def slice_suggestion(program: str, start: int, end: int, several_inputs: bool = False) -> str:
    """A jq program that shows results ``start`` to ``end`` of ``program`` (over every input
    at once when the program ran on ``several_inputs``: JSON Lines, a YAML stream, files;
    it then reads them itself, so it runs with null input, as jq -n).

    >>> slice_suggestion(".items[]", 100, 200)
    '.items[100:200][]'
    >>> slice_suggestion(".a[] | .b", 100, 200)
    '[.a[] | .b][100:200][]'
    >>> slice_suggestion(".answer", 100, 200, several_inputs=True)
    '[inputs | .answer][100:200][]'
    """
    program = program.strip()
    if several_inputs:
        return f"[inputs | {program}][{start}:{end}][]"
    match = _ITERATED.match(program)
    if match and "|" not in program and "," not in program:
        return f"{match['head']}[{start}:{end}][]"
    return f"[{program}][{start}:{end}][]"


def truncation_message(program: str, shown: int, total: int, payload: str | None = None,
                       several_inputs: bool = False, nulls: bool = False) -> str:
    """The line shown when only ``shown`` of ``total`` results appear, in sentences (a
    program between backquotes); with ``nulls`` (every result shown is null) no paging on.

    >>> truncation_message(".items[]", 100, 150)
    'Truncated. Showing 100 of 150 results. Refine the query, or run `.items[100:200][]` \
for the next 50.'
    """
    where = f" The full result is in {payload}, one result a line." if payload else ""
    if nulls:
        return (f"Truncated. Showing {shown:,} of {total:,} results.{where} The {shown:,} "
                "shown are all null: refine the query.")
    end = shown + max(shown, 100)
    step = slice_suggestion(program, shown, end, several_inputs)
    how = " with null input (as jq -n)" if several_inputs else ""
    return (f"Truncated. Showing {shown:,} of {total:,} results.{where} Refine the query, "
            f"or run `{step}`{how} for the next {min(end, total) - shown:,}.")


def and_then(message: str, sentence: str) -> str:
    """``message`` with ``sentence`` after its own sentences and before its hint (a hint
    ends the line, whatever a face adds).

    >>> and_then("Truncated. Showing 1 of 2 results. Hint: a.", "Use --all.")
    'Truncated. Showing 1 of 2 results. Use --all. Hint: a.'
    """
    head, found, hint = message.partition(" Hint: ")
    return f"{head} {sentence}{found}{hint}"


def token_message(tokens: int, max_tokens: int, payload: str | None = None) -> str:
    """The one line shown when the printed text is cut at the token limit."""
    where = f" The full result is in {payload}." if payload else ""
    return (f"Truncated. The output is about {tokens:,} tokens, over the {max_tokens:,}-token "
            f"limit; showing the start.{where} Select fewer fields or slice (.[0:10]).")


def cut_text(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` at a line boundary when one is near."""
    if len(text) <= max_chars:
        return text
    cut = text.rfind("\n", 0, max_chars)
    return text[: cut if cut > max_chars // 2 else max_chars]
