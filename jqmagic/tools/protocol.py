"""The external-tool protocol: ``--schema``, one JSON request on stdin, one JSON response out.

``jqmagic tool NAME`` and the web tools spec's executables (``web-search-brave-tool``,
``web-search-google-tool``, ``web-fetch-tool``) speak it: the response goes to stdout,
the exit status is non-zero on failure, and a search without credentials also writes a
``config_required`` event as one JSON line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from jqmagic.core.words import json_text
from jqmagic.tools import policy, transport


def serve(name: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Answer one request for tool ``name``; the exit status."""
    from jqmagic.core.errors import JqMagicError, too_deep
    from jqmagic.tools.registry import call, failure, get
    from jqmagic.tools.transport import fit

    text = stdin.read().removeprefix("\ufeff")  # a BOM, as jq takes one (PowerShell's utf8)
    try:
        request: Any = json.loads(text, parse_constant=_not_json) if text.strip() else {}
    except ValueError as exc:
        response = fit(failure(JqMagicError(
            "INVALID_JSON", f"The request is not JSON: {exc}.", _send(name))))
    except RecursionError:  # one JSON answer on stdout still, not the command line's error
        response = fit(failure(too_deep("The request", "Give a deep value as JSON text in "
                                        "a string (input: \"[[...]]\"), or in a file.")))
    else:
        response = call(name, request)
    if response.get("error_code") == "AUTH_MISSING":
        event = get(name).config_required
        if event is not None:
            print(json_text(event()), file=stderr)
    print(json_text(response), file=stdout)
    return 0 if response["success"] else 1


def _send(name: str) -> str:
    """What to send tool ``name`` on stdin (the jq tool's shape when there is no such tool:
    the call says so)."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.tools.registry import get
    from jqmagic.tools.schema import example

    try:
        return f"Send {example(get(name).advertised)} on stdin."
    except JqMagicError:
        return 'Send one JSON object on stdin, e.g. {"query": ".name", "file": "data.json"}.'


def _not_json(word: str) -> Any:
    """Python's json reads NaN and Infinity; a request holding one is no JSON."""
    raise ValueError(f"{word} is no JSON number (write null, or a string)")


def _print(data: Any) -> int:
    print(json_text(data, indent=2))
    return 0


# ---------------------------------------------------------------- jqmagic tool


def tool_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``jqmagic tool``."""
    parser.add_argument("name", nargs="?", help="the tool to run (see --list)")
    parser.add_argument("--list", action="store_true",
                        help="list the tools: name, summary and MCP annotations")
    parser.add_argument("--schema", action="store_true",
                        help='print the tool\'s {"name", "description", "parameters"}')
    policy.add_arguments(parser)
    transport.add_arguments(parser)


def run_tool(args: argparse.Namespace) -> int:
    """``jqmagic tool``: list, print a schema, or answer one request from stdin."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.tools.registry import failure, get, tools
    from jqmagic.tools.transport import fit

    policy.apply(args)
    transport.apply(args)
    if args.list:
        return _print([{"name": t.name, "summary": t.summary, "annotations": t.annotations}
                       for t in tools().values()])
    if args.name is None:
        raise JqMagicError("INVALID_ARGUMENT", "No tool named.",
                           "Give a tool name, e.g. jqmagic tool jq; see jqmagic tool --list.")
    try:
        found = get(args.name)
    except JqMagicError as exc:
        print(json_text(fit(failure(exc))))
        return 1
    if args.schema:
        return _print(found.definition())
    return serve(args.name, sys.stdin, sys.stdout, sys.stderr)


# ---------------------------------------------------------------- the spec's executables


def _executable(name: str) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{name.replace('_', '-')}-tool",
        description=f"The {name} tool: one JSON request on stdin, one JSON response on stdout.")
    parser.add_argument("--schema", action="store_true", help="print the tool's schema")
    policy.add_arguments(parser)
    transport.add_arguments(parser)
    args = parser.parse_args()
    policy.apply(args)
    transport.apply(args)
    if args.schema:
        from jqmagic.tools.registry import get

        return _print(get(name).definition())
    return serve(name, sys.stdin, sys.stdout, sys.stderr)


def web_search_brave_tool() -> int:
    """``web-search-brave-tool``."""
    return _executable("web_search_brave")


def web_search_google_tool() -> int:
    """``web-search-google-tool``."""
    return _executable("web_search_google")


def web_fetch_tool() -> int:
    """``web-fetch-tool``."""
    return _executable("web_fetch")
