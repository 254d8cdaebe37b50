"""The json_patch tool: one edit of a JSON, JSONC, JSON Lines or YAML file."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypedDict

from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import as_jq_prints, json_text
from jqmagic.tools.query import with_comments
from jqmagic.tools.schema import JsonValue, Param
from jqmagic.tools.spec import tool

PATCH_VALUE_CHARS = 10_000


class Match(TypedDict):
    """Match-based targeting: the array to search and the properties to compare."""

    arrayPath: Annotated[str, Param("JSON Pointer of the array to search, e.g. '/users'.")]
    where: Annotated[dict, Param(
        "Properties a matching element has (shallow equality), e.g. {\"id\": \"user-123\"}.")]


@tool(read_only=False, destructive=True, idempotent=False)
def json_patch(
    filePath: Annotated[str, Param(
        "Path of the file to edit: JSON, JSONC, JSON Lines or YAML.", min_length=1)],  # noqa: N803
    operation: Annotated[Literal["set", "insert", "remove", "merge"], Param(
        "set: add or replace; insert: into an array, shifting elements right; remove: "
        "delete; merge: deep-merge an object (keeps other keys).")],
    path: Annotated[str | None, Param(
        "JSON Pointer of the target, e.g. '/config/timeout', '/users/0', '/items/-' "
        "(append). Use path or match, not both.")] = None,
    match: Annotated[Match | None, Param(
        "Find the target in an array by its properties instead of an index, e.g. "
        "{\"arrayPath\": \"/users\", \"where\": {\"id\": \"123\"}}. Use path or match, "
        "not both.")] = None,
    value: Annotated[str | JsonValue | None, Param(
        "The new value as JSON text: '\"dark\"' for a string, '42', 'true', "
        "'{\"a\": 1}' (a JSON object, array or number given as such works too). Needed "
        "for set, insert and merge.")] = None,
    all: Annotated[bool, Param(  # noqa: A002 - the flag is --all
        "With match: edit every matching element, not only the first.")] = False,
    dryRun: Annotated[bool, Param(  # noqa: N803
        "Change nothing; return the diff the edit would make.")] = False,
    force: Annotated[bool, Param(
        "Make a set that looks like a mistake: replacing an object or array with a smaller "
        "one, or adding a key one typo away from an existing key.")] = False,
    diffStart: Annotated[int, Param(  # noqa: N803
        "With dryRun: the character of the diff to show from (a dry run whose diff was cut "
        "names the next one in next_arguments).", minimum=0)] = 0,
) -> dict[str, Any]:
    r"""Edit a JSON file (or YAML): set, insert, remove or merge one value, keeping formatting.

    Use it to change config or data files without rewriting them. Target with `path` (a
    JSON Pointer) or `match` (an array element found by its properties). A failed edit
    changes nothing. Returns `targetPath`, `previousValue`, `newValue`, `changed`, and
    `replaced` / `added` / `removed` (paths with sizes).

    Paths: "" = whole document, "/users/0" = first element, "/users/-" = append. In a
    YAML stream (---) or JSON Lines, "/0/..." is inside the first document.

    Examples:
    - Set: operation="set", path="/settings/theme", value="\"dark\""
    - Remove: operation="remove", path="/obsoleteConfig"
    - Append: operation="set", path="/items/-", value="{\"name\": \"new\"}"
    - By id: operation="set", match={"arrayPath": "/users", "where": {"id": "1"}},
      value="{\"status\": \"on\"}"  (sets each key given)
    - Deep merge: operation="merge", path="/spec", value="{\"replicas\": 3}"
    """
    from jqmagic.core.patch import parse_json, patch
    from jqmagic.tools import patchcheck
    from jqmagic.tools.results import kept

    if (path is None) == (match is None):
        raise JqMagicError("INVALID_ARGUMENT",
                           "Give either path or match, not both." if match else
                           "Give path or match to say what to edit.",
                           'e.g. "path": "/config/timeout", or "match": {"arrayPath": '
                           '"/users", "where": {"id": "123"}}.')
    options: dict[str, Any] = {"every": all}
    if value is not None:  # JSON text, or (a common mistake, accepted) the value itself
        options["value"] = parse_json(value, "value") if isinstance(value, str) else value
    if match is not None:
        options.update(match=match["arrayPath"], where=match["where"])
    if operation == "set" and not force:
        planned = patch(filePath, operation, path, dry_run=True, **options)
        patchcheck.check(planned, lambda parent: _keys_at(filePath, parent))
    done = patch(filePath, operation, path, dry_run=dryRun, **options)
    result = {**done.to_dict(), **patchcheck.report(done)}
    for key in ("previousValue", "newValue"):
        result[key] = as_jq_prints(result[key])  # JSON has no Infinity or NaN
        if len(json.dumps(result[key], ensure_ascii=False)) > PATCH_VALUE_CHARS:
            result[key] = kept(result[key])
    return _diff_page(result, diffStart) if dryRun else result


def _diff_page(result: dict[str, Any], start: int) -> dict[str, Any]:
    """A dry run's answer with its diff from ``start``, as much as one answer holds; when
    that is not all of it, the rest is one call away (``next_arguments``: diffStart) and
    the whole diff is kept as a payload."""
    from jqmagic.core import payloads
    from jqmagic.tools import transport

    diff = result.get("diff") or ""
    if start and start >= len(diff):
        raise JqMagicError("INVALID_ARGUMENT", "diffStart is past the end of the diff "
                           f"({len(diff):,} characters); nothing was written.",
                           "Leave diffStart out for the diff from its start, or give the "
                           "diffStart a cut answer's next_arguments names.")
    if not start and transport.wire_size({"success": True, **result}) <= transport.limit():
        return result
    rest = {key: v for key, v in result.items() if key != "diff"}
    budget = transport.content_budget() - transport.wire_size(rest)
    shown = transport.text_page(diff, start, max(budget, 1))
    end = start + len(shown)
    ref = payloads.store(json_text(diff))  # a JSON string: jq reads it
    out = {**rest, "diff": shown, "payload_id": ref.id, "payload_path": str(ref.path)}
    where = (f"The diff is {len(diff):,} characters; {start:,}-{end:,} are shown. All of it "
             f"is payload {ref.id}, one JSON string (the jq tool: payload=\"{ref.id}\", "
             f"raw=true, query=\".[{start}:{end}]\").")
    if end < len(diff):
        out.update(truncated=True, next_arguments={"diffStart": end},
                   message=f"{where} The next part: call json_patch again with the same "
                           f"arguments and diffStart={end}.")
    else:
        out["message"] = f"{where} This is its last part."
    return out


def _keys_at(file: str, pointer: str) -> list[str]:
    """The keys of the object at ``pointer`` in ``file`` (none when it is no object)."""
    from jqmagic.core.shape import shape

    try:
        found = with_comments(shape, file=file, path=pointer, depth=0).value
    except JqMagicError:
        return []
    return list(found.get("keys") or [])
