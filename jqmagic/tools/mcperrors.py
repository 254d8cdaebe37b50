"""The JSON-RPC error ``jqmagic mcp`` answers a request it cannot take with (invalid params,
``data``: jqmagic's error code), its text cut so an echoed input stays small: raised by the
server, the clients' rooms and the prompts and completions alike."""

from __future__ import annotations


def protocol_error(message: str, hint: str, code: str = "NOT_FOUND") -> Exception:
    """A JSON-RPC invalid-params error (``data``: jqmagic's ``error_code``), its text cut
    so an echoed input stays small."""
    from mcp import types
    from mcp.shared.exceptions import MCPError

    from jqmagic.core.words import cut
    from jqmagic.tools.transport import ERROR_CHARS

    text = f"{cut(message, ERROR_CHARS)} {cut(hint, ERROR_CHARS)}".strip()
    return MCPError(types.INVALID_PARAMS, text, {"error_code": code})
