"""What ``jqmagic mcp`` offers beside tools and resources: the client's roots as the
sandbox's roots, prompts, completions and the logging capability (the ``mcp`` extra).

Roots: when the client declares the roots capability (protocols before 2026-07-28, which
deprecates it with logging), its ``roots/list`` answer (file URIs)
become the allowed roots of every call, in place of the working directory (the face's own
``--allow-root`` folders stay); a ``roots/list_changed`` notification makes the next call
ask again. Completions: file paths under the roots for a prompt's ``file`` argument, and
this session's payload ids for the payload resource template.
"""

from __future__ import annotations

import dataclasses
import glob
import os
from typing import Any
from urllib.parse import unquote, urlsplit

COMPLETIONS = 100  # values in one completion, at most (the spec's cap)

PROMPTS = {
    "explore_file": (
        "Explore a JSON or YAML file",
        "Find out what a data file holds before querying it.",
        [("file", "The file's path", True)],
        "Explore the file {file}. Start with json_inspect (filePath={file}, depth 2) to see "
        "its structure; then use the jq tool (file={file}) to count and sample what matters "
        "(e.g. 'length', '.[0:5]', 'keys'). Summarise what the file holds, its main lists "
        "and fields, and anything odd (nulls, mixed types)."),
    "fix_config_value": (
        "Find and fix a config value",
        "Locate a setting in a JSON or YAML file and change it safely.",
        [("file", "The config file's path", True),
         ("change", "What to change, e.g. 'set the timeout to 30'", True)],
        "In {file}: {change}. Find the setting first (json_inspect, then the jq tool with a "
        "query such as 'paths(..) | map(tostring) | join(\"/\")' to locate keys). Then "
        "call json_patch with dryRun=true and check the diff; apply it only when the diff "
        "changes exactly that setting."),
}


class ClientRoots:
    """The roots the client offered this session (asked once, again after a change)."""

    def __init__(self) -> None:
        self.paths: list[str] | None = None

    async def current(self, ctx: Any) -> list[str]:
        """The client's roots as folders; [] when it offers none."""
        from mcp import types
        from mcp.shared.exceptions import MCPError

        if self.paths is None:
            self.paths = []
            asked = types.ClientCapabilities(roots=types.RootsCapability())
            if ctx.session.check_client_capability(asked):
                try:
                    listed = await ctx.session.list_roots()
                except MCPError:  # protocol 2026-07-28 on: no server-initiated requests
                    return self.paths
                self.paths = [p for p in (folder_of(str(r.uri)) for r in listed.roots) if p]
        return self.paths

    async def changed(self, ctx: Any, params: Any) -> None:
        self.paths = None


def folder_of(uri: str) -> str | None:
    """The local path a ``file://`` root names (None for any other scheme)."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return unquote(parts.path) or None


def openings(roots: list[str]) -> dict[str, Any]:
    """The keywords of :func:`jqmagic.tools.call` that add the client's ``roots`` to the
    face's policy (nothing when the client offered none)."""
    from jqmagic.tools import policy

    if not roots:
        return {}
    face = policy.in_force() or policy.Policy()
    return {**dataclasses.asdict(face), "allow_root": [*face.allow_root, *roots]}


async def list_prompts(ctx: Any, params: Any) -> Any:
    from mcp import types

    return types.ListPromptsResult(prompts=[
        types.Prompt(name=name, title=title, description=text, arguments=[
            types.PromptArgument(name=a, description=d, required=r) for a, d, r in args])
        for name, (title, text, args, _) in PROMPTS.items()])


async def get_prompt(ctx: Any, params: Any) -> Any:
    from mcp import types

    from jqmagic.mcp import protocol_error

    found = PROMPTS.get(params.name)
    if found is None:
        raise protocol_error(f"Unknown prompt: {params.name}",
                             f"Prompts: {', '.join(PROMPTS)}.")
    title, _, args, template = found
    given = params.arguments or {}
    missing = [a for a, _, required in args if required and not given.get(a)]
    if missing:
        raise protocol_error(f"The prompt {params.name} needs {', '.join(missing)}.",
                             "Give every required argument.", "INVALID_ARGUMENT")
    text = template.format(**{a: str(given.get(a, ""))[:2_000] for a, _, _ in args})
    return types.GetPromptResult(description=title, messages=[types.PromptMessage(
        role="user", content=types.TextContent(type="text", text=text))])


def complete_path(prefix: str, roots: list[str]) -> list[str]:
    """Files and folders under ``roots`` whose path starts with ``prefix`` (relative to
    the first root when it is not absolute); folders end with ``/``."""
    base = roots[0] if roots else os.getcwd()
    full = prefix if os.path.isabs(prefix) else os.path.join(base, prefix)
    inside = [r.rstrip(os.sep) + os.sep for r in roots or [base]]
    out = []
    for found in sorted(glob.iglob(glob.escape(full) + "*")):
        real = os.path.realpath(found)
        if not any(real + os.sep == r or real.startswith(r) for r in inside):
            continue
        shown = found if os.path.isabs(prefix) else os.path.relpath(found, base)
        out.append(shown + ("/" if os.path.isdir(found) else ""))
        if len(out) > COMPLETIONS:
            break
    return out


def completer(roots: ClientRoots, kept: Any) -> Any:
    """The ``completion/complete`` handler: paths for a prompt's ``file``, payload ids for
    the payload template."""

    async def complete(ctx: Any, params: Any) -> Any:
        from mcp import types

        from jqmagic.core.sandbox import roots as sandbox_roots

        value = params.argument.value or ""
        if params.ref.type == "ref/resource" and params.argument.name == "payload_id":
            values = [p for p in reversed(list(kept.ids)) if p.startswith(value)]
        elif params.ref.type == "ref/prompt" and params.argument.name == "file":
            folders = await roots.current(ctx) or sandbox_roots()
            values = complete_path(value, folders)
        else:
            values = []
        return types.CompleteResult(completion=types.Completion(
            values=values[:COMPLETIONS], total=len(values),
            has_more=len(values) > COMPLETIONS))

    return complete


class Logging:
    """The logging capability: the level the client set (messages below it are not sent)."""

    LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert",
              "emergency")

    def __init__(self) -> None:
        self.level = "info"

    async def set_level(self, ctx: Any, params: Any) -> Any:
        from mcp import types

        self.level = params.level
        return types.EmptyResult()

    async def tell(self, ctx: Any, level: str, data: Any) -> None:
        """Send a log message when ``level`` is at or above the client's."""
        if self.LEVELS.index(level) >= self.LEVELS.index(self.level):
            await ctx.session.send_log_message(level=level, data=data, logger="jqmagic",
                                               related_request_id=ctx.request_id)
