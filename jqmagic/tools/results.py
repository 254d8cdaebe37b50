"""Bounded tool responses: what is shown instead of a value kept in the payload store.

:func:`kept` keeps one value inside a response in the payload store and shows its size,
cut shape and preview, and ``payload_id`` / ``payload_path`` (the one spelling of every
tool; :func:`jqmagic.tools.transport.bounded` does the same for a whole answer).
:func:`summary` is the jqschema middleware's answer (``queryID``, ``payloadPath``, ...:
the spelling of that spec), used by :mod:`jqmagic.tools.middleware`.
"""

from __future__ import annotations

from typing import Any

from jqmagic.core import payloads
from jqmagic.core.words import json_text
from jqmagic.tools.cutting import cut_value, schema_of
from jqmagic.tools.transport import ENVELOPE_CHARS, bounded, payload_step

__all__ = ["ENVELOPE_CHARS", "bounded", "cut_value", "kept", "payload_step", "schema_of",
           "summary"]

PREVIEW_CHARS = 500
_NO_VALUE = object()


def summary(ref: payloads.PayloadRef, text: str, value: Any = _NO_VALUE) -> dict:
    """What is shown instead of a stored result: preview, jqschema shape, id, path, size."""
    out: dict[str, Any] = {"queryID": ref.id, "payloadPath": str(ref.path),
                           "preview": text[:PREVIEW_CHARS]}  # escaped: 6 x 500 at most
    if value is not _NO_VALUE:
        out["schema"] = schema_of(value)
    out.update(originalSize=ref.size, truncated=len(text) > PREVIEW_CHARS)
    return out


def kept(value: Any) -> dict[str, Any]:
    """Store ``value`` (JSON-able) in the payload store; what a tool shows instead:
    ``{"payload_id", "payload_path", "size", "shape", "preview"}`` (shape and preview cut)."""
    text = json_text(value, separators=(",", ":"))
    ref = payloads.store(text)
    return {"payload_id": ref.id, "payload_path": str(ref.path), "size": len(text),
            "shape": schema_of(value), "preview": cut_value(value, depth=3, width=5)}
