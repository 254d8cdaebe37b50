"""The one hard bound on every message an agent face sends, counted on the wire.

Every answer of ``jqmagic tool``, the drop-in executables, MCP and ``wrap()`` passes
:func:`fit`: an answer whose JSON text (escaping included) is within :func:`limit` goes out
as it is; a failure has its strings cut (a 5 MB field name, URL or pointer echoed in a
message never comes back whole); a success over the bound is kept in the payload store and
answered with its shape, a preview and the next step. :func:`text_page` cuts a text (a
payload read as a resource, a file's lines) at the bound, counting each character as it
is escaped.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core.settings import settings
from jqmagic.core.words import cut, json_text

ENVELOPE_CHARS = 4_000  # an answer's own fields (message, ids) beyond its bounded content
ERROR_CHARS = 2_000  # each string of a failure (message, hint, detail), at most
_ESCAPED = {'"': 2, "\\": 2, "\n": 2, "\r": 2, "\t": 2, "\b": 2, "\f": 2}


def limit() -> int:
    """Characters of one message's JSON text, at most: the token bound (about 4
    characters a token, an estimate) plus the answer's own fields."""
    return settings.max_tokens * 4 + ENVELOPE_CHARS


def content_budget() -> int:
    """Characters (escaped) one answer may spend on its content: the bound, less room for
    the fields around it."""
    return settings.max_tokens * 4


def wire_size(answer: Any) -> int:
    """Characters of ``answer`` as JSON text, as it is sent."""
    return len(json_text(answer))


def escaped_size(text: str) -> int:
    """Characters ``text`` takes inside a JSON string (quotes not counted)."""
    if text.isascii() and text.isprintable():
        return len(text) + text.count('"') + text.count("\\")
    return len(json_text(text)) - 2


def text_page(text: str, start: int, budget: int) -> str:
    """The longest part of ``text`` from ``start`` whose escaped size is within ``budget``."""
    end = min(len(text), start + budget)
    while end > start and escaped_size(text[start:end]) > budget:
        over = escaped_size(text[start:end]) - budget
        end -= max(1, over // 2)  # an escaped character costs at most 6
    return text[start:end]


def fit(answer: dict[str, Any], tool: Any = None) -> dict[str, Any]:
    """``answer`` of ``tool`` (None: no tool was found) within :func:`limit` (see the
    module's docstring); the tool's ``advice`` is its own next step for a success too big
    to send."""
    if wire_size(answer) <= limit():
        return answer
    if answer.get("success") is False:
        out = cut_failure(answer)
    else:
        from jqmagic.tools.results import bounded

        out = bounded(answer, tool.advice if tool is not None else "")
    return out if wire_size(out) <= limit() else last_resort(out)


def cut_failure(answer: dict[str, Any]) -> dict[str, Any]:
    """A failure with each string cut to :data:`ERROR_CHARS`; the output printed before it
    failed cut at the bound and kept whole in the payload store."""
    from jqmagic.tools.results import cut_value

    out = {key: cut(value, ERROR_CHARS) if isinstance(value, str) else cut_value(value)
           for key, value in answer.items() if key != "output"}
    if isinstance(answer.get("output"), str):
        out.update(cut_output(answer["output"]))
    return out


def cut_output(text: str, kept: str | None = None) -> dict[str, Any]:
    """``{"output"}`` when ``text`` fits; else its start, ``truncated`` and the payload
    holding it whole (``kept``: the results as JSON, one a line, when ``text`` is raw),
    with the way to read it."""
    from jqmagic.core import payloads

    budget = content_budget() - 2 * ERROR_CHARS
    if escaped_size(text) <= budget:
        return {"output": text}
    shown = text_page(text, 0, budget)
    ref = payloads.store(text if kept is None else kept)
    return {"output": shown, "truncated": True, "payload_id": ref.id,
            "payload_path": str(ref.path),
            "message": f"The output is {len(text):,} characters; the first {len(shown):,} are "
                       f"shown. All of it is payload {ref.id}: query it with the jq tool "
                       f'(payload="{ref.id}", slurp=true).'}


def last_resort(answer: dict[str, Any]) -> dict[str, Any]:
    """The few fields that always fit: success, code, cut message and hint, the payload."""
    keep = ("success", "error_code", "truncated", "payload_id", "payload_path", "count")
    out = {key: answer[key] for key in keep if key in answer and wire_size(answer[key]) < 200}
    for key in ("error", "hint", "message"):
        if isinstance(answer.get(key), str):
            out[key] = cut(answer[key], ERROR_CHARS)
    return out
