"""Bounded tool responses: what is shown instead of a value kept in the payload store.

:func:`bounded` keeps a jqmagic tool's response that is over the bound of one answer and answers
with its size, a cut shape and preview, and ``payload_id`` / ``payload_path`` (the one
spelling of every tool); :func:`kept` does the same for one value inside a response.
:func:`summary` is the jqschema middleware's answer (``queryID``, ``payloadPath``, ...:
the spelling of that spec), used by :mod:`jqmagic.tools.middleware`.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core import payloads
from jqmagic.core.settings import estimate_tokens
from jqmagic.core.shape import jq_schema
from jqmagic.core.words import json_text
from jqmagic.tools.transport import ENVELOPE_CHARS, limit, wire_size

__all__ = ["ENVELOPE_CHARS", "bounded", "cut_value", "kept", "payload_step", "summary"]

PREVIEW_CHARS = 500
SCHEMA_CHARS = 4_000  # a schema longer than this is cut by depth and width
_NO_VALUE = object()


def summary(ref: payloads.PayloadRef, text: str, value: Any = _NO_VALUE) -> dict:
    """What is shown instead of a stored result: preview, jqschema shape, id, path, size."""
    out: dict[str, Any] = {"queryID": ref.id, "payloadPath": str(ref.path),
                           "preview": text[:PREVIEW_CHARS]}  # escaped: 6 x 500 at most
    if value is not _NO_VALUE:
        out["schema"] = schema_of(value)
    out.update(originalSize=ref.size, truncated=len(text) > PREVIEW_CHARS)
    return out


def schema_of(value: Any) -> Any:
    """``value``'s jqschema, cut by depth and width (``"… N more keys"``) when it is long:
    the schema of a map with thousands of distinct keys is as big as the map."""
    schema = jq_schema(value)
    if len(json_text(schema)) <= SCHEMA_CHARS:
        return schema
    return cut_value(schema)


def kept(value: Any) -> dict[str, Any]:
    """Store ``value`` (JSON-able) in the payload store; what a tool shows instead:
    ``{"payload_id", "payload_path", "size", "shape", "preview"}`` (shape and preview cut)."""
    text = json_text(value, separators=(",", ":"))
    ref = payloads.store(text)
    return {"payload_id": ref.id, "payload_path": str(ref.path), "size": len(text),
            "shape": schema_of(value), "preview": cut_value(value, depth=3, width=5)}


def payload_step(payload_id: str, several: bool = False) -> str:
    """The call that reads a kept payload in parts: the jq tool's ``payload`` parameter
    (``slurp`` when it holds several results, one a line)."""
    slurp = ", slurp=true" if several else ""
    return (f'Query it with the jq tool: payload="{payload_id}"{slurp}, query="keys" (or '
            '"length", ".[0:20]", ".field").')


def bounded(response: dict[str, Any], advice: str = "") -> dict[str, Any]:
    """``response`` itself when the JSON an agent receives (escaping included) fits the token
    bound; else it is not sent: the answer says how big it was, shows its shape and a short
    preview (both valid JSON, cut by depth and width), and names the payload holding it and
    the calls that read it (``advice``: the tool's own; the jq tool's ``payload``)."""
    if wire_size(response) <= limit():
        return response
    text = json_text(response)
    ref = payloads.store(text)
    message = (f"Not sent: the answer is {len(text):,} characters (about "
               f"{estimate_tokens(text):,} tokens), over the {limit():,}-byte bound of one "
               f"answer. It is kept as payload {ref.id}; its shape and a preview follow. "
               f"{advice} {payload_step(ref.id)}").replace("  ", " ")
    return {"success": True, "truncated": True, "message": message, "size": len(text),
            "payload_id": ref.id, "payload_path": str(ref.path),
            "next_call": {"tool": "jq", "arguments": {"payload": ref.id, "query": "keys"}},
            "shape": schema_of(response), "preview": cut_value(response)}


def cut_value(value: Any, depth: int = 4, width: int = 8, chars: int = 200) -> Any:
    """A small copy of ``value``: at most ``depth`` levels, ``width`` members of each
    container and ``chars`` characters of each string (keys too); what was cut says so
    (``"… 353 more"``), so the copy stays valid JSON and honest."""
    if isinstance(value, str):
        return value if len(value) <= chars else f"{value[:chars]}… ({len(value) - chars:,} " \
            "more characters)"
    if not isinstance(value, (dict, list)):
        return value
    if depth == 0:
        return f"… ({'object' if isinstance(value, dict) else 'array'} of {len(value):,})"
    if isinstance(value, list):
        kept = [cut_value(v, depth - 1, width, chars) for v in value[:width]]
        return kept + ([f"… {len(value) - width:,} more"] if len(value) > width else [])
    items = list(value.items())
    out = {}
    for key, item in items[:width]:
        name = cut_value(key, depth, width, chars)
        out[name if name not in out else f"{name} ({len(out)})"] = \
            cut_value(item, depth - 1, width, chars)
    if len(items) > width:
        out["…"] = f"{len(items) - width:,} more keys"
    return out
