"""Bounded tool responses: the payload store, a preview and the shape (jqschema middleware).

:func:`wrap` applies the gh-aw jqschema middleware to any tool handler: the whole response
is stored on disk under a random id, and the caller gets a 500-character preview, the
response's jqschema, the id and the path. :func:`bounded` does the same for a jqmagic tool's
response only when it is over the token bound.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, TypeVar

from jqmagic.core import payloads
from jqmagic.core.settings import estimate_tokens, settings
from jqmagic.core.shape import jq_schema
from jqmagic.core.words import json_text

Handler = TypeVar("Handler", bound=Callable[..., Any])
PREVIEW_CHARS = 500
ENVELOPE_CHARS = 4_000  # an answer's own fields (message, ids) beyond its bounded content
_NO_VALUE = object()


def summary(ref: payloads.PayloadRef, text: str, value: Any = _NO_VALUE) -> dict:
    """What is shown instead of a stored result: preview, jqschema shape, id, path, size."""
    out: dict[str, Any] = {"queryID": ref.id, "payloadPath": str(ref.path),
                           "preview": text[:PREVIEW_CHARS]}
    if value is not _NO_VALUE:
        out["schema"] = jq_schema(value)
    out.update(originalSize=ref.size, truncated=len(text) > PREVIEW_CHARS)
    return out


def _text(value: Any) -> str:
    return json_text(value, separators=(",", ":"))


def spill(value: Any, text: str | None = None) -> dict[str, Any]:
    """Store ``value`` (JSON-able) in the payload store; its summary to show instead.

    The summary is ``{"queryID", "payloadPath", "preview", "schema", "originalSize",
    "truncated"}``, as the jqschema middleware returns.
    """
    text = _text(value) if text is None else text
    return summary(payloads.store(text), text, value)


def bounded(response: dict[str, Any], advice: str = "") -> dict[str, Any]:
    """``response`` itself when the JSON an agent receives (escaping included) fits the token
    bound; else it is not sent: the answer says how big it was, shows its shape and a short
    preview (both valid JSON, cut by depth and width), and names the payload holding it."""
    text = json_text(response)
    if len(text) <= settings.max_tokens * 4 + ENVELOPE_CHARS:
        return response
    ref = payloads.store(text)
    message = (f"Not sent: the answer is {len(text):,} characters (about "
               f"{estimate_tokens(text):,} tokens), over the {settings.max_tokens:,}-token "
               f"bound. It is kept as payload {ref.id}; its shape and a preview follow. "
               f"{advice or 'Ask for a part of it.'}").rstrip()
    return {"success": True, "truncated": True, "message": message, "size": len(text),
            "payload_id": ref.id, "payload_path": str(ref.path),
            "shape": cut_value(jq_schema(response)), "preview": cut_value(response)}


def cut_value(value: Any, depth: int = 4, width: int = 8, chars: int = 200) -> Any:
    """A small copy of ``value``: at most ``depth`` levels, ``width`` members of each
    container and ``chars`` characters of each string; what was cut says so
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
    out = {k: cut_value(v, depth - 1, width, chars) for k, v in items[:width]}
    if len(items) > width:
        out["…"] = f"{len(items) - width:,} more keys"
    return out


def rewrite(response: Any) -> Any:
    """One response through the jqschema middleware (JSON text in, JSON text out)."""
    if isinstance(response, (str, bytes)):
        text = response.decode() if isinstance(response, bytes) else response
        try:
            value = json.loads(text)
        except ValueError:  # not JSON: stored and previewed, without a schema
            return json.dumps(summary(payloads.store(text), text))
        return json.dumps(spill(value, text))
    return spill(response)


def wrap(handler: Handler, *, threshold: int = 0) -> Handler:
    """``handler`` with its responses stored on disk and replaced by preview + schema + id.

    Works for plain and ``async`` handlers returning a JSON-able value or JSON text. A
    response of at most ``threshold`` characters of JSON is returned unchanged.

    >>> import jqmagic.tools
    >>> users = jqmagic.tools.wrap(lambda: {"users": [{"id": 1, "name": "ada"}]})
    >>> out = users()
    >>> out["schema"], out["preview"]
    ({'users': [{'id': 'number', 'name': 'string'}]}, '{"users":[{"id":1,"name":"ada"}]}')
    """

    def apply(response: Any) -> Any:
        size = len(response) if isinstance(response, (str, bytes)) else len(_text(response))
        return response if size <= threshold else rewrite(response)

    if inspect.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
            return apply(await handler(*args, **kwargs))

        return wrapped_async  # type: ignore[return-value]

    @functools.wraps(handler)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return apply(handler(*args, **kwargs))

    return wrapped  # type: ignore[return-value]
