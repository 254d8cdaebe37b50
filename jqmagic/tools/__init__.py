"""Tools for agents: JSON Schema definitions, validation, a dispatcher and the jqschema wrap.

>>> import jqmagic.tools
>>> jqmagic.tools.call("jq", {"query": ".a", "input": '{"a": 1}'})["output"]
'1'

The tools: ``jq``, ``query_json``, ``query_yaml``, ``json_inspect``, ``json_patch``,
``read_file``, ``web_fetch``, ``web_search_brave``, ``web_search_google``. The same tools
are served by ``jqmagic tool NAME`` (one JSON request on stdin), the spec's executables
(``web-fetch-tool``, ...) and ``jqmagic mcp``.
"""

from jqmagic.core.errors import JqMagicError
from jqmagic.tools.middleware import wrap
from jqmagic.tools.registry import OUTPUT_SCHEMA, Tool, call, failure, get, tools


def definitions(format: str = "plain", *, strict: bool = False) -> list[dict]:  # noqa: A002
    """Every tool's definition, in the shape an agent host reads: ``plain``
    (``{"name", "description", "parameters"}``), ``openai`` (``{"type": "function",
    "function": {...}}``), ``anthropic`` (``input_schema``) or ``mcp`` (``inputSchema``,
    title, output schema and annotations, as ``jqmagic mcp`` lists them). ``strict=True``
    gives schemas strict mode takes (OpenAI's, Anthropic's ``strict``): every property
    required, optional ones nullable, objects closed (:func:`jqmagic.tools.schema.strict`);
    the tools read those answers as they are."""
    from jqmagic.tools.schema import strict as strict_form

    def params(t: Tool) -> dict:
        return strict_form(t.parameters) if strict else t.parameters

    flag = {"strict": True} if strict else {}
    shapes = {
        "plain": lambda t: {"name": t.name, "description": t.description,
                            "parameters": params(t)},
        "openai": lambda t: {"type": "function", "function": {
            "name": t.name, "description": t.description, "parameters": params(t), **flag}},
        "anthropic": lambda t: {"name": t.name, "description": t.description,
                                "input_schema": params(t), **flag},
        "mcp": lambda t: {"name": t.name, "title": t.title, "description": t.description,
                          "inputSchema": params(t), "outputSchema": OUTPUT_SCHEMA,
                          "annotations": t.annotations},
    }
    if format not in shapes:
        raise JqMagicError("INVALID_ARGUMENT", f"Unknown definitions format {format!r}.",
                           f"Use one of: {', '.join(shapes)}.")
    return [shapes[format](t) for t in tools().values()]


__all__ = ["Tool", "call", "definitions", "failure", "get", "tools", "wrap"]
