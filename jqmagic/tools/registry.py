"""The tool registry and dispatcher: definitions, validation, one call, one JSON response."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core import sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.tools import schema
from jqmagic.tools.results import bounded

_TOOLS: dict[str, Tool] = {}
_TITLE_WORDS = {"json": "JSON", "yaml": "YAML", "brave": "Brave", "google": "Google"}
PASSTHROUGH = ("large_result_passthrough", "large_file_passthrough")
OUTPUT_SCHEMA = {"type": "object", "properties": {  # every answer: success, then its fields
    "success": {"type": "boolean"}, "error": {"type": "string"},
    "error_code": {"type": "string"}, "hint": {"type": "string"}},
    "required": ["success"]}


@dataclass(frozen=True)
class Tool:
    """One tool: its handler (signature = parameters, docstring = description) and hints.

    ``bounds_itself`` tools keep their own output within bounds (the query core, line
    windows); the dispatcher bounds the others' responses. ``config_required`` gives the
    setup event to show a user when credentials are missing.
    """

    name: str
    handler: Callable[..., dict[str, Any]]
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False
    bounds_itself: bool = False
    runs_commands: bool = False
    advice: str = ""
    config_required: Callable[[], dict[str, str]] | None = None
    parameters: dict[str, Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", schema.parameters(self.handler))

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.handler.__doc__ or "")

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
        commands = self.runs_commands and sandbox.exec_allowed()
        return {"readOnlyHint": self.read_only and not commands,
                "destructiveHint": self.destructive or commands,
                "idempotentHint": self.idempotent and not commands,
                "openWorldHint": self.open_world or commands}

    def definition(self) -> dict[str, Any]:
        """``{"name", "description", "parameters"}``, as agent hosts read it."""
        return {"name": self.name, "description": self.description,
                "parameters": self.parameters}


def tool(**options: Any) -> Callable[[Callable[..., dict]], Callable[..., dict]]:
    """Register the decorated handler as a tool named after it."""

    def register(handler: Callable[..., dict]) -> Callable[..., dict]:
        _TOOLS[handler.__name__] = Tool(handler.__name__, handler, **options)
        return handler

    return register


def tools() -> dict[str, Tool]:
    """Every tool, by name, in definition order."""
    from jqmagic.tools import data, web  # noqa: F401 - importing registers them

    return _TOOLS


def get(name: str) -> Tool:
    """The tool ``name``; NOT_FOUND lists the others."""
    found = tools().get(name)
    if found is None:
        raise JqMagicError("NOT_FOUND", f"Unknown tool {name!r}.",
                           f"Tools: {', '.join(tools())}.")
    return found


def call(name: str, request: Any) -> dict[str, Any]:
    """Validate ``request``, run tool ``name``, return its bounded JSON response.

    Success is ``{"success": true, ...}``; a failure is ``{"success": false, "error",
    "error_code", "hint"}`` (never an exception for what a caller got wrong).
    """
    try:
        found = get(name)
        response = {"success": True, **found.handler(**schema.validate(found.parameters,
                                                                       request))}
    except JqMagicError as exc:
        return failure(exc)
    if isinstance(request, dict) and any(request.get(k) for k in PASSTHROUGH):
        return response  # the agent asked for everything, by the tool's own parameter
    return bounded(response, found.advice)  # every answer, whoever bounded it before


def failure(exc: JqMagicError) -> dict[str, Any]:
    """The failure response of an error, in an agent's words (:meth:`JqMagicError.to_dict`):
    the one place the tools name options and operations as tools and parameters. What a
    program printed before it failed comes too (``output``, ``count``), as jq prints it."""
    answer = exc.to_dict("agent")
    before = getattr(exc, "result", None)
    if before is not None and before.total:
        answer.update(output=before.text, count=before.total)
    return answer
