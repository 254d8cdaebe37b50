"""Tools for agents: JSON Schema definitions, validation, a dispatcher and the jqschema wrap.

>>> import jqmagic.tools
>>> jqmagic.tools.call("jq", {"query": ".a", "input": '{"a": 1}'})["output"]
'1'

The tools: ``jq``, ``query_json``, ``query_yaml``, ``json_inspect``, ``json_patch``,
``read_file``, ``web_fetch``, ``web_search_brave``, ``web_search_google``. The same tools
are served by ``jqmagic tool NAME`` (one JSON request on stdin), the spec's executables
(``web-fetch-tool``, ...) and ``jqmagic mcp``.
"""

from jqmagic.tools.registry import Tool, call, failure, get, tools
from jqmagic.tools.results import wrap


def definitions() -> list[dict]:
    """Every tool's ``{"name", "description", "parameters"}``."""
    return [t.definition() for t in tools().values()]


__all__ = ["Tool", "call", "definitions", "failure", "get", "tools", "wrap"]
