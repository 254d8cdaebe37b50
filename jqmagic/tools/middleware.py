"""The jqschema middleware (gh-aw's, see the spec): a big tool answer is stored on disk under
a random id, and the caller gets a 500-character preview, its jqschema, the id and the path.

:func:`wrap` applies it to one tool handler (plain or ``async``), or to a whole server of the
official ``mcp`` SDK (``MCPServer`` or the low-level ``Server``: anything with a
``middleware`` list), with a size threshold and a tool filter (the spec's
``ShouldApplyMiddleware``). Writing a payload never blocks an event loop: it runs in a thread.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
from collections.abc import Callable
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.words import json_text
from jqmagic.tools.results import summary

THRESHOLD = 4_000
"""Answers of at most this many characters of JSON pass unchanged (rewriting a small answer
would make it bigger)."""


def default_filter(name: str) -> bool:
    """The spec's ``ShouldApplyMiddleware``: every tool but the gateway's own ``sys___*``."""
    return not name.startswith("sys___")


def wrap(target: Any, *, threshold: int = THRESHOLD,
         applies: Callable[[str], bool] = default_filter) -> Any:
    """``target`` with the jqschema middleware: a handler whose big answers are stored and
    replaced by preview + schema + id, or an SDK server (returned after its middleware list
    gained :class:`JqSchemaMiddleware`; ``applies(tool_name)`` says which tools it rewrites).

    A handler's answer may be JSON text or any value pydantic can make JSON of (models,
    dataclasses, dates); other text is stored and previewed without a schema. The wrapped
    handler returns its own type or the summary, and says so in its return annotation, so an
    SDK server derives an output schema that both validate.

    >>> import jqmagic.tools
    >>> users = jqmagic.tools.wrap(lambda: {"users": [{"id": 1, "name": "ada"}]}, threshold=0)
    >>> out = users()
    >>> out["schema"], out["preview"]
    ({'users': [{'id': 'number', 'name': 'string'}]}, '{"users":[{"id":1,"name":"ada"}]}')
    """
    if isinstance(getattr(target, "middleware", None), list):
        target.middleware.append(JqSchemaMiddleware(threshold, applies))
        return target
    return _wrap_handler(target, threshold)


def rewrite(response: Any, threshold: int = 0) -> Any:
    """One answer through the middleware: JSON text in, JSON text out; a value in, the
    summary out; an answer of at most ``threshold`` characters unchanged."""
    if isinstance(response, (str, bytes)):
        text = response.decode() if isinstance(response, bytes) else response
        if len(text) <= threshold:
            return response
        try:
            value = json.loads(text)
        except ValueError:  # not JSON: stored and previewed, without a schema
            return json.dumps(summary(payloads.store(text), text))
        return json.dumps(summary(payloads.store(text), text, value))
    value = _jsonable(response)
    text = json_text(value, separators=(",", ":"))
    if len(text) <= threshold:
        return response
    return summary(payloads.store(text), text, value)


def _jsonable(value: Any) -> Any:
    """``value`` as JSON data: pydantic's conversion (models, dataclasses, dates) when the
    SDK's pydantic is there, else the value; what neither knows becomes its ``str``."""
    try:
        from pydantic_core import to_jsonable_python
    except ImportError:
        return json.loads(json.dumps(value, default=str))
    return to_jsonable_python(value, fallback=str)


async def _off_the_loop(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a worker thread (anyio's when the SDK brought it)."""
    try:
        import anyio
    except ImportError:
        return await asyncio.to_thread(function, *args)
    return await anyio.to_thread.run_sync(function, *args)


def _wrap_handler(handler: Callable[..., Any], threshold: int) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
            return await _off_the_loop(rewrite, await handler(*args, **kwargs), threshold)

        wrapped: Callable[..., Any] = wrapped_async
    else:

        @functools.wraps(handler)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            return rewrite(handler(*args, **kwargs), threshold)

    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):  # a builtin without one: nothing to copy
        return wrapped
    returns = _answer_or_summary(handler)
    wrapped.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=returns)
    wrapped.__annotations__ = {k: v for k, v in getattr(handler, "__annotations__", {}).items()
                               if k != "return"}
    if returns is not inspect.Signature.empty:
        wrapped.__annotations__["return"] = returns
    return wrapped


def _answer_or_summary(handler: Callable[..., Any]) -> Any:
    """The wrapped handler's return type: its own or the summary (an SDK server derives an
    output schema both validate), or none when its own cannot be resolved."""
    import typing

    try:
        own = typing.get_type_hints(handler).get("return")
        from typing_extensions import NotRequired, TypedDict  # noqa: UP035 (pydantic's, the SDK)
    except Exception:  # unresolvable names, no typing_extensions: no schema, as before
        return inspect.Signature.empty
    if own is None:
        return inspect.Signature.empty

    # the functional form: real types, where the class form's would be strings here
    summary = TypedDict("JqSchemaSummary", {  # noqa: UP013
        "queryID": str, "payloadPath": str, "preview": str, "schema": NotRequired[Any],
        "originalSize": int, "truncated": bool})
    return own | summary


SUMMARY_SCHEMA = {
    "type": "object", "description": "A big answer, kept whole on disk: its preview and shape.",
    "properties": {"queryID": {"type": "string"}, "payloadPath": {"type": "string"},
                   "preview": {"type": "string"}, "schema": {},
                   "originalSize": {"type": "integer"}, "truncated": {"type": "boolean"}},
    "required": ["queryID", "payloadPath", "preview", "originalSize", "truncated"],
    "additionalProperties": False}
"""The summary an answer over the threshold becomes (:func:`jqmagic.tools.results.summary`)."""


class JqSchemaMiddleware:
    """An SDK server middleware: ``tools/call`` answers over ``threshold`` characters from
    tools that ``applies`` to are stored and summarised; ``tools/list`` keeps those tools'
    output schemas, as either the answer or its summary (``anyOf``). An error's text is cut
    to the bound of one agent message."""

    def __init__(self, threshold: int = THRESHOLD,
                 applies: Callable[[str], bool] = default_filter) -> None:
        self.threshold = threshold
        self.applies = applies

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Any]) -> Any:
        result = await call_next(ctx)
        if ctx.method == "tools/list" and result is not None:
            return self._listed(_as_dict(result))
        if ctx.method != "tools/call" or result is None or \
                not self.applies(str((ctx.params or {}).get("name", ""))):
            return result
        answer = _as_dict(result)
        if answer.get("isError"):
            return _cut_error(answer, result)
        if "content" not in answer:
            return result
        stored = await _off_the_loop(self._summarise, answer)
        return result if stored is None else {
            **answer, "content": [{"type": "text", "text": json_text(stored)}],
            "structuredContent": stored}

    def _listed(self, listed: dict[str, Any]) -> dict[str, Any]:
        for tool in listed.get("tools", []):
            if self.applies(tool.get("name", "")) and tool.get("outputSchema"):
                own = dict(tool["outputSchema"])
                defs = own.pop("$defs", None)  # references stay resolvable from the root
                tool["outputSchema"] = {"type": "object", "anyOf": [own, SUMMARY_SCHEMA],
                                        **({"$defs": defs} if defs else {})}
        return listed

    def _summarise(self, answer: dict[str, Any]) -> dict[str, Any] | None:
        """The summary of a tool's answer (its structured content, else its text), or None
        when it is small enough to pass."""
        if answer.get("structuredContent") is not None:
            value = answer["structuredContent"]
            text = json_text(value, separators=(",", ":"))
        else:
            blocks = answer["content"]
            if not all(block.get("type") == "text" for block in blocks):
                return None  # images, audio, resources: not the middleware's to rewrite
            text = "\n".join(block["text"] for block in blocks)
            try:
                value = json.loads(text)
            except ValueError:
                value = None
        if len(text) <= self.threshold:
            return None
        ref = payloads.store(text)
        return summary(ref, text) if value is None else summary(ref, text, value)


def _cut_error(answer: dict[str, Any], result: Any) -> Any:
    """An error answer whose text blocks are cut to the bound of one agent message."""
    from jqmagic.core.words import cut
    from jqmagic.tools.transport import ERROR_CHARS, limit

    if len(json_text(answer)) <= limit():
        return result
    blocks = [{**b, "text": cut(b["text"], ERROR_CHARS)} for b in answer.get("content", [])
              if b.get("type") == "text"]
    out = {**answer, "content": blocks or [{"type": "text", "text": "The tool failed."}]}
    out.pop("structuredContent", None)
    return out


def _as_dict(result: Any) -> dict[str, Any]:
    """A handler's result (a pydantic model or a dict) as the JSON-RPC result dict."""
    if isinstance(result, dict):
        return result
    return result.model_dump(by_alias=True, exclude_none=True, mode="json")
