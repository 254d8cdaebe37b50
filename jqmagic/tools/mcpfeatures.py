"""What ``jqmagic mcp`` offers beside the tools' calls and resources: the tools' list fitted
to one message, prompts and completions (the ``mcp`` extra; each client's roots, payloads
and log level: :mod:`jqmagic.tools.mcpclients`).

Completions: file paths within the client's folders (its roots within the operator's) for
a prompt's ``file`` argument, and the payload ids this client's answers kept for the
payload resource template (none under the stateless revision); an unknown prompt, argument
or template is invalid params. A completion holds at most :data:`COMPLETIONS` values of at
most :data:`COMPLETION_BYTES` in all.
"""

from __future__ import annotations

import glob
import os
from typing import Any

COMPLETIONS = 100  # values in one completion, at most (the spec's cap)
COMPLETION_BYTES = 32_000  # the values' UTF-8 bytes in one completion, at most

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
        "query such as 'paths | map(tostring) | join(\"/\")' to list every path). Then "
        "call json_patch with dryRun=true and check the diff; apply it only when the diff "
        "changes exactly that setting."),
}


def listed_tools() -> list[dict]:
    """Every tool's MCP definition, the whole list within one message's bound: when it is
    over, the output schemas lose their fields' descriptions, then their fields (any object
    validates), then each description is cut to its first paragraph."""
    from jqmagic.tools import definitions, transport

    tools = definitions("mcp")
    steps = (lambda t: {**t, "outputSchema": _undescribed(t["outputSchema"])},
             lambda t: {**t, "outputSchema": {"type": "object"}},
             lambda t: {**t, "description": t["description"].split("\n\n")[0]})
    for step in steps:
        if transport.wire_size({"tools": tools}) <= transport.limit():
            break
        tools = [step(t) for t in tools]
    return tools


def _undescribed(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _undescribed(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_undescribed(v) for v in schema]
    return schema


async def list_prompts(ctx: Any, params: Any) -> Any:
    from mcp import types

    return types.ListPromptsResult(prompts=[
        types.Prompt(name=name, title=title, description=text, arguments=[
            types.PromptArgument(name=a, description=d, required=r) for a, d, r in args])
        for name, (title, text, args, _) in PROMPTS.items()])


async def get_prompt(ctx: Any, params: Any) -> Any:
    from mcp import types

    from jqmagic.tools.mcperrors import protocol_error

    found = PROMPTS.get(params.name)
    if found is None:
        raise protocol_error(f"Unknown prompt: {params.name}",
                             f"Prompts: {', '.join(PROMPTS)}.")
    title, _, args, template = found
    given = params.arguments or {}
    unknown = sorted(set(given) - {a for a, _, _ in args})
    if unknown:
        raise protocol_error(f"The prompt {params.name} has no argument {unknown[0]}.",
                             f"Its arguments: {', '.join(a for a, _, _ in args)}.",
                             "INVALID_ARGUMENT")
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


def completer(kept_for: Any, payload_uri: str) -> Any:
    """The ``completion/complete`` handler: paths for a prompt's ``file``, this client's
    payload ids for the payload template (``kept_for(ctx)``: newest first; its resources'
    URIs start with ``payload_uri``)."""

    async def complete(ctx: Any, params: Any) -> Any:
        from mcp import types

        from jqmagic.tools import mcpclients
        from jqmagic.tools.mcperrors import protocol_error

        value = params.argument.value or ""
        ref, name = params.ref, params.argument.name
        if ref.type == "ref/resource" and getattr(ref, "uri", "").startswith(payload_uri) \
                and name == "payload_id":
            values = [p for p in kept_for(ctx) if p.startswith(value)]
        elif ref.type == "ref/prompt" and ref.name in PROMPTS:
            arguments = [a for a, _, _ in PROMPTS[ref.name][2]]
            if name not in arguments:
                raise protocol_error(f"The prompt {ref.name} has no argument {name}.",
                                     f"Its arguments: {', '.join(arguments)}.")
            state = mcpclients.state_of(ctx)
            await mcpclients.declared_roots(ctx, state)
            values = complete_path(value, mcpclients.folders(state)) if name == "file" else []
        elif ref.type == "ref/prompt":
            raise protocol_error(f"Unknown prompt: {ref.name}", f"Prompts: {', '.join(PROMPTS)}.")
        else:
            raise protocol_error(f"Nothing to complete for {getattr(ref, 'uri', ref.type)}.",
                                 f"Completions: a prompt's file, or payload_id of "
                                 f"{payload_uri}{{payload_id}}.")
        shown = bounded(values)
        return types.CompleteResult(completion=types.Completion(
            values=shown, total=len(values), has_more=len(values) > len(shown)))

    return complete


def bounded(values: list[str]) -> list[str]:
    """The first values within :data:`COMPLETIONS` and :data:`COMPLETION_BYTES`; a value
    with a control character is left out (a name that would act on a screen)."""
    out: list[str] = []
    spent = 0
    for value in values[:COMPLETIONS]:
        size = len(value.encode("utf-8", "surrogatepass")) + 4
        if spent + size > COMPLETION_BYTES:
            break
        if not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
            out.append(value)
            spent += size
    return out
