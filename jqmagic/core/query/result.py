"""What a query gave (:class:`QueryResult`), and how its text is bounded."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import orjson

from jqmagic.core import payloads
from jqmagic.core.errors import JqMagicError, too_deep
from jqmagic.core.gcpause import gc_paused
from jqmagic.core.options import Bounds
from jqmagic.core.query import bounds
from jqmagic.core.query.protocol import End
from jqmagic.core.settings import estimate_tokens
from jqmagic.core.words import count


@dataclass
class QueryResult:
    """What a query gave: values, jq's printed text, and how they were bounded."""

    program: str
    values: list[Any]
    text: str
    total: int
    raw: bool = False
    truncated: bool = False
    message: str = ""
    payload_id: str | None = None
    messages: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    engine: str | None = None
    text_cut: bool = False  # the text stops at the token bound (not only at a result)
    printed: list[str] = field(default_factory=list)  # jq's text of each shown result
    halted: bool = False  # the program stopped itself with halt
    # inputs that failed each on its own: [the first message, how many, the last one?]
    run_error: list[Any] | None = None

    @property
    def payload_path(self) -> str | None:
        """Where the whole result is kept on disk, when it was too big to show."""
        return str(payloads.find(self.payload_id).path) if self.payload_id else None

    @property
    def value(self) -> Any:
        """The only value, or the list of values when there are several."""
        return self.values[0] if len(self.values) == 1 else self.values

    def to_dict(self) -> dict:
        data = {"success": True, "output": self.text, "count": self.total,
                "truncated": self.truncated}
        if self.message:
            data["message"] = self.message
        if self.payload_id:
            data["payload_id"] = self.payload_id
            data["payload_path"] = self.payload_path
        return data

    def __repr__(self) -> str:
        return f"<QueryResult {self.program!r}: {count(self.total, 'result')}>"

    def __str__(self) -> str:
        """``print(result)``: the results as jq printed them, cut at ``PRINTED_CHARS``
        (at a line end) with a line saying how much more ``.text`` holds; then the
        result's message (no results, a bound)."""
        text = bounds.cut_text(self.text, PRINTED_CHARS)
        lines = [text] if text else []
        if len(text) < len(self.text):
            lines.append(f"… ({count(len(self.text) - len(text), 'more character')}; "
                         f"{count(self.total, 'result')} in all: .text has them, .values "
                         "their values)")
        return "\n".join(lines + [self.message] if self.message else lines)


PRINTED_CHARS = 20_000  # print(result) shows jq's text up to this many characters


_COLOR = re.compile("\x1b\\[[0-9;]*m")
DEEPEST_RESULT = 10_000  # levels: jq's parser's own limit (MAX_PARSING_DEPTH)
_LONG_DIGITS = re.compile("[0-9]{19}")


def parse_values(texts: list[str]) -> list[Any]:
    """The values of jq's result texts (integers stay exact; colours are not data): read
    in one call by orjson as one array, else (19 digits in a row: maybe an integer past 64
    bits; a lone surrogate, a colour, deep nesting, which orjson refuses) one by one by
    Python's exact parser."""
    whole = "[" + ",".join(texts) + "]"
    if not _LONG_DIGITS.search(whole):  # orjson reads an integer past 64 bits as a double
        try:
            with gc_paused():
                return orjson.loads(whole)
        except orjson.JSONDecodeError:
            pass
    try:
        return [json.loads(_COLOR.sub("", t) if "\x1b" in t else t) for t in texts]
    except RecursionError:
        pass
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, DEEPEST_RESULT + 1_000))  # as deep as jq reads
    try:
        return [json.loads(_COLOR.sub("", t) if "\x1b" in t else t) for t in texts]
    except RecursionError:
        raise too_deep("A result", "Select a part of it, e.g. .a.b, or print it with "
                       "tojson.") from None
    finally:
        sys.setrecursionlimit(limit)


def _store(json_text: str, result: QueryResult) -> str:
    """Keep the whole output in the payload store; say where, or why it could not be kept."""
    try:
        stored = payloads.store(json_text)
    except JqMagicError as exc:  # a full disk must not cost the user the answer
        return f"nowhere: it could not be saved ({exc.message})"
    result.payload_id = stored.id
    return f"payload {stored.id} ({stored.path})"


def bounded(program: str, texts: list[str], end: End, raw: bool, limits: Bounds,
            spilled: payloads.PayloadRef | None, several_inputs: bool = False) -> QueryResult:
    """The result of a run, cut to ``limits`` with one line saying how and where the rest is."""
    values = parse_values(texts)
    printed = [v if raw and isinstance(v, str) else t for v, t in zip(values, texts, strict=True)]
    text = "\n".join(printed)
    total = end.total
    result = QueryResult(program, values, text, total, raw=raw, messages=end.messages,
                         engine=end.engine, printed=printed, halted=end.halted,
                         run_error=end.run_error)
    payload = None
    if spilled is not None:
        result.payload_id, payload = spilled.id, f"payload {spilled.id} ({spilled.path})"
    elif end.spill_error:
        payload = f"nowhere: it could not be saved ({end.spill_error})"
    if total == 0:
        result.message = bounds.NO_RESULTS
    elif not limits.passthrough and total > len(values):
        result.truncated = True
        result.message = bounds.truncation_message(program, len(values), total, payload,
                                                   several_inputs,
                                                   nulls=all(v is None for v in values))
    if not limits.passthrough and len(text) > limits.max_chars:
        if payload is None:
            payload = _store("\n".join(texts) + "\n", result)
        result.text = bounds.cut_text(text, limits.max_chars)
        result.truncated = result.text_cut = True
        result.message = bounds.token_message(estimate_tokens(text), limits.max_tokens, payload)
    return result
