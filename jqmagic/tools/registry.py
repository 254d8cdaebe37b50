"""The tool registry and dispatcher: definitions, validation, one call, one JSON response."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import json_text
from jqmagic.tools import schema, transport

_TITLE_WORDS = {"json": "JSON", "yaml": "YAML", "brave": "Brave", "google": "Google"}


@dataclass(frozen=True)
class Tool:
    """One tool: its handler (signature or options dataclass = parameters, docstring =
    description) and hints.

    ``bounds_itself`` tools keep their own output within bounds (the query core, line
    windows); the dispatcher bounds the others' responses. A tool that ``runs_commands``
    advertises its ``exec`` parameter and ``commands_note`` only while the sandbox allows
    commands. ``advice`` is its next step when an answer is too big to send.
    ``config_required`` gives the setup event to show a user when credentials are missing.
    """

    name: str
    handler: Callable[..., dict[str, Any]]
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False
    bounds_itself: bool = False
    runs_commands: bool = False
    commands_note: str = ""
    advice: str = ""
    config_required: Callable[[], dict[str, str]] | None = None
    parameters: dict[str, Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", schema.parameters(self.handler))

    @property
    def commands(self) -> bool:
        """Whether this tool may run shell commands now (the sandbox allows them)."""
        return self.runs_commands and sandbox.exec_allowed()

    @property
    def description(self) -> str:
        text = inspect.cleandoc(self.handler.__doc__ or "")
        return f"{text}\n\n{self.commands_note}" if self.commands and self.commands_note \
            else text

    @property
    def advertised(self) -> dict[str, Any]:
        """The parameters as listed to agents: ``exec`` only while commands are allowed
        (:attr:`parameters`, the whole schema, still validates every request)."""
        if not self.runs_commands or self.commands:
            return self.parameters
        props = {k: v for k, v in self.parameters["properties"].items() if k != "exec"}
        return {**self.parameters, "properties": props}

    @property
    def title(self) -> str:
        """A human title: ``query_json`` -> ``Query JSON``."""
        title = " ".join(_TITLE_WORDS.get(w, w) for w in self.name.split("_"))
        return title if title.startswith("jq") else title[0].upper() + title[1:]

    @property
    def summary(self) -> str:
        return self.description.split("\n", 1)[0]

    @property
    def annotations(self) -> dict[str, Any]:
        """MCP tool annotations, true to the sandbox now in force: a tool that can run
        shell commands is neither read-only nor harmless once commands are allowed."""
        commands = self.commands
        return {"readOnlyHint": self.read_only and not commands,
                "destructiveHint": self.destructive or commands,
                "idempotentHint": self.idempotent and not commands,
                "openWorldHint": self.open_world or commands}

    def definition(self) -> dict[str, Any]:
        """``{"name", "description", "parameters"}``, as agent hosts read it."""
        return {"name": self.name, "description": self.description,
                "parameters": self.advertised}


TABLE = ("query:jq", "query:query_json", "query:query_yaml", "shapetool:json_inspect",
         "suggest:jq_suggest", "patchtool:json_patch", "readfile:read_file", "web:web_fetch",
         "web:web_search_brave", "web:web_search_google")
"""Every tool, as ``module:handler`` under jqmagic.tools, in the order they are listed: one
module per tool (the web tools share theirs), each imported on first use."""

_TOOLS: dict[str, Tool] = {}


def tools() -> dict[str, Tool]:
    """Every tool, by name, in :data:`TABLE`'s order."""
    if not _TOOLS:
        import importlib

        for entry in TABLE:
            module, name = entry.split(":")
            handler = getattr(importlib.import_module(f"jqmagic.tools.{module}"), name)
            _TOOLS[name] = Tool(name, handler, **handler.tool_options)
    return _TOOLS


def get(name: str) -> Tool:
    """The tool ``name``; NOT_FOUND lists the others."""
    found = tools().get(name)
    if found is None:
        raise JqMagicError("NOT_FOUND", f"Unknown tool {name!r}.",
                           f"Tools: {', '.join(tools())}.")
    return found


def call(name: str, request: Any, **openings: Any) -> dict[str, Any]:
    """Validate ``request``, run tool ``name`` in the sandbox, return its JSON response
    within the hard bound of every agent message (:func:`jqmagic.tools.transport.fit`).

    The sandbox is closed unless opened in the call, in the command line's words
    (``allow_root=["data"]``, ``allow_exec=True``, ``allow_private_addresses=True``,
    ``ignore_robots_txt=True``, ``no_sandbox=True``; see :mod:`jqmagic.tools.policy`).
    Success is ``{"success": true, ...}``; a failure is ``{"success": false, "error",
    "error_code", "hint"}`` (never an exception for what a caller got wrong).
    """
    from jqmagic.tools import policy

    found = None
    try:
        chosen = policy.in_force(**openings)
        found = get(name)
        with policy.scope(chosen):
            arguments = schema.validate(found.parameters, request, found.advertised)
            response = {"success": True, **schema.run(found.handler, arguments)}
    except JqMagicError as exc:
        response = failure(exc, found)
    return transport.fit(response, found)


def failure(exc: JqMagicError, found: Tool | None = None) -> dict[str, Any]:
    """The failure response of an error, in an agent's words (:meth:`JqMagicError.to_dict`):
    the one place the tools name options and operations as tools and parameters; a hint's
    sentence naming a parameter tool ``found`` lacks is left out. What a program printed
    before it failed comes too (``output``, ``count``), as jq prints it, and the next call
    an error names (``next_arguments``)."""
    from jqmagic.tools.hints import for_tool

    answer = exc.to_dict("agent")
    if found is not None:
        hint = for_tool(exc.raw_hint, found)
        answer.pop("hint", None)
        if hint:
            answer["hint"] = hint
    step = getattr(exc, "next_arguments", None)  # a refusal that names its next call
    if isinstance(step, dict):
        answer["next_arguments"] = step
    before = getattr(exc, "result", None)
    if before is not None and before.total:  # jq's text of each result, not a cut one
        kept = "\n".join(json_text(v) for v in before.values) if before.raw else None
        answer.update(transport.cut_output("\n".join(before.printed) or before.text, kept),
                      count=before.total)
    return answer
