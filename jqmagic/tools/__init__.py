"""Tools for agents: JSON Schema definitions, validation, a dispatcher and the jqschema wrap.

>>> import jqmagic.tools
>>> jqmagic.tools.call("jq", {"query": ".a", "input": '{"a": 1}'})["output"]
'1'

The tools: ``jq``, ``query_json``, ``query_yaml``, ``json_inspect``, ``json_patch``,
``read_file``, ``web_fetch``, ``web_search_brave``, ``web_search_google``. The same tools
are served by ``jqmagic tool NAME`` (one JSON request on stdin), the spec's executables
(``web-fetch-tool``, ...) and ``jqmagic mcp``.

Every face is sandboxed unless its caller opens it: files under the working directory
only, no shell commands, no private addresses. Here the openings are keywords of
:func:`call` and :func:`definitions`, spelled as the command line's flags:
``call("read_file", {...}, allow_root=["/data"])``, ``allow_exec=True``,
``allow_private_addresses=True``, ``ignore_robots_txt=True``, ``no_sandbox=True``.
"""

from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.tools.registry import Tool, call, failure, get, tools


def __getattr__(name: str) -> Any:
    """``wrap`` on first use: the middleware imports asyncio, which a tool call from the
    command line (``jqmagic tool``) never needs."""
    if name == "wrap":
        from jqmagic.tools.middleware import wrap

        return wrap
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

FORMATS = ("plain", "openai", "openai-responses", "anthropic", "mcp")
ANTHROPIC_STRICT = {"tools": 20, "optional": 24, "unions": 16}
"""Anthropic's documented ceilings over every strict tool of one request."""


def definitions(format: str = "plain", *, strict: bool = False,  # noqa: A002
                names: list[str] | None = None, **openings: Any) -> list[dict]:
    """Every tool's definition (or those ``names``), in the shape an agent host reads:

    - ``plain``: ``{"name", "description", "parameters"}``;
    - ``openai``: Chat Completions (``{"type": "function", "function": {...}}``);
    - ``openai-responses``: the Responses API (``{"type": "function", "name", ...,
      "strict"}``);
    - ``anthropic``: ``{"name", "description", "input_schema"}``;
    - ``mcp``: ``inputSchema``, title, ``outputSchema`` and annotations, as ``jqmagic mcp``
      lists them.

    ``strict=True`` gives schemas strict mode takes: OpenAI's (every property required,
    optional ones nullable, objects closed: :func:`jqmagic.tools.schema.strict`) or
    Anthropic's (objects closed, optional ones left optional:
    :func:`jqmagic.tools.schema.closed`), marked ``strict`` while Anthropic's ceilings on one
    request (:data:`ANTHROPIC_STRICT`) allow; the tools read those answers as they are. A
    tool that runs commands lists ``exec`` only when the sandbox allows commands: asked
    with ``allow_exec=True`` (or ``no_sandbox=True``), the keywords :func:`call` takes.
    """
    from jqmagic.tools import policy

    with policy.scope(policy.in_force(**openings)):
        return _definitions(format, strict, names)


def _definitions(format: str, strict: bool, names: list[str] | None) -> list[dict]:  # noqa: A002
    from jqmagic.tools.outputs import output_schema
    from jqmagic.tools.schema import closed
    from jqmagic.tools.schema import strict as strict_form

    if format not in FORMATS:
        raise JqMagicError("INVALID_ARGUMENT", f"Unknown definitions format {format!r:.80}.",
                           f"Use one of: {', '.join(FORMATS)}.")
    chosen = [get(name) for name in names] if names is not None else list(tools().values())
    out = []
    budget = dict(ANTHROPIC_STRICT)
    for t in chosen:
        params = t.advertised
        if format == "anthropic":
            params = closed(params) if strict else params
            flag = {"strict": True} if strict and _spend(budget, params) else {}
            out.append({"name": t.name, "description": t.description, "input_schema": params,
                        **flag})
            continue
        if strict:
            params = strict_form(params)
        if format == "plain":
            out.append({"name": t.name, "description": t.description, "parameters": params})
        elif format == "openai":
            out.append({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": params,
                **({"strict": True} if strict else {})}})
        elif format == "openai-responses":
            out.append({"type": "function", "name": t.name, "description": t.description,
                        "parameters": params, "strict": strict})
        else:
            out.append({"name": t.name, "title": t.title, "description": t.description,
                        "inputSchema": params, "outputSchema": output_schema(t.name),
                        "annotations": t.annotations})
    return out


def _spend(budget: dict[str, int], params: dict) -> bool:
    """Whether one more strict tool with ``params`` fits Anthropic's ceilings (spent if so)."""
    props = params["properties"].values()
    cost = {"tools": 1,
            "optional": len(params["properties"]) - len(params.get("required", ())),
            "unions": sum(isinstance(p.get("type"), list) or "anyOf" in p for p in props)}
    if any(cost[k] > budget[k] for k in cost):
        return False
    for key in cost:
        budget[key] -= cost[key]
    return True


__all__ = ["FORMATS", "Tool", "call", "definitions", "failure", "get", "tools", "wrap"]
