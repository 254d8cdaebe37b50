"""The json_inspect tool: the shape of a document or of one part of it."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from jqmagic.core.words import count
from jqmagic.tools.query import with_comments
from jqmagic.tools.schema import Param
from jqmagic.tools.spec import tool


@tool(advice="Inspect a deeper path or lower the depth.")
def json_inspect(
    filePath: Annotated[str, Param("Path of the JSON file (YAML and JSON Lines work too).",  # noqa: N803
                                   min_length=1)],
    path: Annotated[str, Param(
        "JSON Pointer of the part to inspect: '' for the whole document, '/users', "
        "'/config/database', '/users/0'.")] = "",
    depth: Annotated[int, Param("How many levels of nested keys to show.", minimum=0,
                                maximum=10)] = 2,
    format: Annotated[Literal["shape", "jqschema", "jsonschema"], Param(  # noqa: A002
        "shape (merged structure, the default), jqschema (compact types) or jsonschema "
        "(JSON Schema 2020-12).")] = "shape",
    stats: Annotated[bool, Param(
        "With format shape: per-path statistics (counts, nulls, distinct values, min/max, "
        "samples).")] = False,
) -> dict[str, Any]:
    """Show the structure of a JSON file (keys, types, array lengths) without its content.

    Use it first on any unfamiliar or large JSON file, before query_json or json_patch.
    Returns for an object: `keys` (at most 100, fewer when long, 20 in nested objects;
    `keyCount`, a `message` and `next_call` say how to list the rest) and `children`
    (nested structure down to `depth`);
    for an array: `arrayLength`, an `elementTemplate` of the element types and
    `availableKeys` (with `keyPresence`: how many elements have each key); for a value:
    its `type`. Values themselves are never shown.

    Examples:
    - Whole document: path="" (or leave it out), depth=2
    - One subtree: path="/config/database", depth=1
    - Size and element shape of an array: path="/users", depth=1
    - One element: path="/users/0"
    """
    from jqmagic.core.shape import shape

    value = with_comments(shape, file=filePath, path=path, depth=depth, format=format,
                          stats=stats).value
    if format != "shape":
        return _schema(filePath, path, format, value)
    value = _within_bound(_profiles_within(_summarised(value), depth), depth)
    more = _more_keys(value, filePath)
    if "message" in value and "message" in more:
        more["message"] = f"{value['message']} {more['message']}"
    return {**value, **more}


NESTED_KEYS = 20  # keys listed for each object below the one inspected


def _schema(file: str, path: str, format: str, value: Any) -> dict[str, Any]:  # noqa: A002
    """A schema answer. One too big to send is kept whole (the payload) and shown to the
    nesting level that fits, each part cut below it marked with a ``$comment``; its next
    arguments inspect the biggest part cut (a longer path, so following them ends)."""
    from jqmagic.core.pointers import parse_pointer, to_pointer
    from jqmagic.tools import transport

    answer = {"path": path, "format": format, "schema": value}
    if transport.wire_size({"success": True, **answer}) <= transport.limit():
        return answer
    out = transport.bounded(answer, "")
    for levels in range(SCHEMA_LEVELS, -1, -1):
        cuts: list[tuple[int, list[str]]] = []
        shown = _pruned(value, levels, parse_pointer(path), cuts)
        if transport.wire_size({**out, "schema": shown}) <= transport.content_budget():
            break
    else:
        return out
    out["schema"] = shown
    _, tokens = max(cuts, key=lambda c: c[0], default=(0, []))
    part = to_pointer(tokens)
    out["message"] += (f" The schema field holds it to {levels} level"
                       f"{'' if levels == 1 else 's'} of nesting.")
    if part != path:
        out["next_arguments"] = {"path": part}
        out["message"] += (f" The biggest part cut: call json_inspect again with "
                           f"path={json.dumps(part, ensure_ascii=False)}.")
    return out


SCHEMA_LEVELS = 8  # nesting levels of a schema tried when it is too big to send whole
_NESTED = ("properties", "patternProperties")
_ONE = ("items", "additionalProperties", "contains")
_ALTERNATIVES = ("anyOf", "oneOf", "allOf")


def _pruned(schema: Any, levels: int, tokens: list[str],
            cuts: list[tuple[int, list[str]]]) -> Any:
    """``schema`` (JSON Schema) without what is nested more than ``levels`` deep; each cut
    is listed in ``cuts`` as (its size, the document's path to it) and marked in place."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, sub in schema.items():
        nested = key in _NESTED and isinstance(sub, dict) or \
            key in _ONE and isinstance(sub, dict) and sub or key == "prefixItems"
        if nested and levels == 0:
            cuts.append((len(json.dumps(sub)), tokens))
            out["$comment"] = "cut: inspect this path"
        elif key == "required" and levels == 0:
            continue  # names the properties cut
        elif key in _NESTED and isinstance(sub, dict):
            out[key] = {name: _pruned(s, levels - 1, [*tokens, name], cuts)
                        for name, s in sub.items()}
        elif key in _ONE and isinstance(sub, dict):
            out[key] = _pruned(sub, levels - 1, [*tokens, "0"] if key == "items" else tokens,
                               cuts)
        elif key == "prefixItems" and isinstance(sub, list):
            out[key] = [_pruned(s, levels - 1, [*tokens, str(i)], cuts)
                        for i, s in enumerate(sub)]
        elif key in _ALTERNATIVES and isinstance(sub, list):
            out[key] = [_pruned(s, levels, tokens, cuts) for s in sub]
        else:
            out[key] = sub
    return out


def _summarised(node: dict[str, Any], level: int = 0) -> dict[str, Any]:
    """``node`` with the key lists below the inspected object cut to :data:`NESTED_KEYS`
    (``keyCount`` says how many there are): the root of a spec lists its sections, not
    every key of each (42k characters for Kubernetes' at depth 2)."""
    out = dict(node)
    for listed, counts in (("keys", "children"), ("availableKeys", "keyPresence")):
        keys = out.get(listed)
        if level and keys and len(keys) > NESTED_KEYS:
            out["keyCount"] = out.get("keyCount", len(keys))
            out[listed] = keys[:NESTED_KEYS]
            if isinstance(out.get(counts), dict):
                out[counts] = {k: out[counts][k] for k in keys[:NESTED_KEYS] if k in out[counts]}
    if isinstance(out.get("children"), dict):
        out["children"] = {k: _summarised(c, level + 1) if isinstance(c, dict) else c
                           for k, c in out["children"].items()}
    return out


def _within_bound(node: dict[str, Any], depth: int) -> dict[str, Any]:
    """``node`` with its own key list cut to the keys whose names fit in half an answer
    (``keyCount`` says how many there are; the children of the keys left out go too), and
    its children left out when they still do not fit, the next call one level shallower:
    20,000 long keys are listed in part, the rest a jq call away (:func:`_more_keys`)."""
    from jqmagic.tools import transport

    budget = transport.content_budget()
    if transport.wire_size(node) <= budget:
        return node
    out = dict(node)
    for listed, counts in (("keys", "children"), ("availableKeys", "keyPresence")):
        keys = out.get(listed)
        if not keys:
            continue
        spent, kept = 0, []
        for key in keys:
            spent += transport.wire_size(key) + 1
            if spent > budget // 2:
                break
            kept.append(key)
        out["keyCount"] = out.get("keyCount", len(keys))
        out[listed] = kept
        if isinstance(out.get(counts), dict):
            out[counts] = {k: out[counts][k] for k in kept if k in out[counts]}
    if transport.wire_size(out) > budget and out.pop("children", None) is not None:
        out.update(truncated=True, next_arguments={"depth": max(depth - 1, 0)},
                   message=f"The structure below is over one answer, so children are left "
                           f"out: call json_inspect again with depth={max(depth - 1, 0)}, "
                           f"or inspect one key by its path.")
    return out


_STEP = re.compile(r'\[\]|\["(?:[^"\\]|\\.)*"\]|\.(?:[A-Za-z_]\w*|<other keys>)')


def _profiles_within(node: dict[str, Any], depth: int) -> dict[str, Any]:
    """A stats answer over one answer keeps the profiles of the paths down to ``depth``
    levels below the inspected one (the levels it shows), so that a lower depth, or a
    deeper path, is a smaller answer: the profiles (500 paths at most) came whole
    whatever the depth, and lowering it, as the answer advised, changed nothing."""
    from jqmagic.tools import transport

    profiles = node.get("profiles")
    if not profiles or transport.wire_size(node) <= transport.content_budget():
        return node
    paths = [p for p in profiles if p != "…"]
    base = len(_STEP.findall(paths[0]))  # the inspected path's own profile comes first
    kept = {p: profiles[p] for p in paths if len(_STEP.findall(p)) - base <= depth}
    if len(kept) == len(paths):
        return node
    listed = f"more than {len(paths):,}" if "…" in profiles else f"{len(paths):,}"
    said = (f"Profiles of {count(len(kept), 'path')} down to depth {depth} are shown, of "
            f"{listed}")
    out = {**node, "profiles": kept, "truncated": True}
    deeper = _deeper_path(node.get("path", ""), [p for p in paths if p not in kept], base)
    if deeper is None:
        said += ("; the others lie in an array's elements ([]), which no path names: ask "
                 "the jq tool about them.")
    else:
        out["next_arguments"] = {"path": deeper}
        said += (f": call json_inspect again with path={json.dumps(deeper, ensure_ascii=False)}"
                 " (most of those left out), or another deeper path.")
    out["message"] = f"{node['message']} {said}" if node.get("message") else said
    return out


def _deeper_path(path: str, dropped: list[str], base: int) -> str | None:
    """The pointer one key below ``path`` that holds the most of the ``dropped`` profile
    paths (None when they all lie in an array's elements, which no pointer names)."""
    import collections

    from jqmagic.core.pointers import parse_pointer, to_pointer

    below = collections.Counter(steps[base] for steps in map(_STEP.findall, dropped)
                                if len(steps) > base)
    for step, _ in below.most_common():
        if step.startswith(".") and step != ".<other keys>":
            return to_pointer([*parse_pointer(path), step[1:]])
        if step.startswith('["'):
            return to_pointer([*parse_pointer(path), json.loads(step[1:-1])])
    return None


def _more_keys(node: dict[str, Any], file: str) -> dict[str, Any]:
    """How to list the keys a capped key list left out (the first such list found):
    ``message`` and ``next_call`` (the jq tool's arguments)."""
    from jqmagic.core.pointers import parse_pointer, to_pointer

    stack = [(node, parse_pointer(node.get("path", "")))]
    while stack:
        part, tokens = stack.pop(0)
        shown = len(part.get("keys") or part.get("availableKeys") or [])
        if part.get("keyCount", 0) > shown:
            steps = "".join(f"[{t}]" if t.isdigit() else f"[{json.dumps(t, ensure_ascii=False)}]"
                            for t in tokens)
            listed = "keys_unsorted" if "keys" in part else "map(keys) | add | unique"
            arguments = {"file": file, "query": f".{steps} | {listed} | .[{shown}:{2 * shown}]"}
            return {"message": f"{part['keyCount']:,} keys at {to_pointer(tokens) or 'the root'};"
                               f" {shown} are listed. List more with the jq tool: "
                               f"{json.dumps(arguments, ensure_ascii=False)}.",
                    "next_call": {"tool": "jq", "arguments": arguments}}
        stack.extend((child, [*tokens, key]) for key, child in
                     (part.get("children") or {}).items() if isinstance(child, dict))
    return {}
