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

Handler = TypeVar("Handler", bound=Callable[..., Any])
PREVIEW_CHARS = 500
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
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def spill(value: Any, text: str | None = None) -> dict[str, Any]:
    """Store ``value`` (JSON-able) in the payload store; its summary to show instead.

    The summary is ``{"queryID", "payloadPath", "preview", "schema", "originalSize",
    "truncated"}``, as the jqschema middleware returns.
    """
    text = _text(value) if text is None else text
    return summary(payloads.store(text), text, value)


def bounded(response: dict[str, Any], advice: str = "") -> dict[str, Any]:
    """``response`` itself when it fits the token bound; else its summary and a message."""
    text = _text(response)
    if len(text) <= settings.max_tokens * 4:
        return response
    summary = spill(response, text)
    message = (f"Truncated. The response is about {estimate_tokens(text):,} tokens, over the "
               f"{settings.max_tokens:,}-token limit. The full response is in payload "
               f"{summary['queryID']} ({summary['payloadPath']}); shown: its start and its "
               f"shape. {advice}").rstrip()
    return {"success": True, "message": message, **summary}


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
