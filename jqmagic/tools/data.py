"""The data tools: jq, query_json, query_yaml, json_inspect, json_patch and read_file.

Each handler's signature is its parameter schema and its docstring is the description a
model reads, so both are written for weak models: what, when, examples, how to slice.
"""

from __future__ import annotations

import glob
import json
import os
from typing import Annotated, Any, Literal, TypedDict

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.core.words import terms
from jqmagic.tools import transport
from jqmagic.tools.answers import Caller, answer
from jqmagic.tools.registry import tool
from jqmagic.tools.schema import JsonValue, Param

READ_MAX_TOKENS = 100_000
PATCH_VALUE_CHARS = 10_000
_TIMEOUT = Param("Seconds the query may run before it is stopped.", minimum=1, maximum=600)
_SLURP = Param("Read every document (YAML ---) or line (JSON Lines) into one array first, "
               "to count, sort or group across them (jq's slurp).")
_ARGS = Param("Values for $names in the expression, e.g. {\"min\": 10} for "
              "'.[] | select(.n > $min)'.")
_PASSTHROUGH = Param("Return every result, not only the first 100 (still within one answer's "
                     "bound of about 25,000 tokens; past it the rest is kept as a payload).")


_COMMANDS = ("A source may also be `exec`, a shell command whose JSON output is queried, "
             'e.g. exec="curl -s https://api.example.com/data".')


@tool(open_world=True, bounds_itself=True, runs_commands=True, commands_note=_COMMANDS)
def jq(
    query: Annotated[str, Param("The jq filter, e.g. '.items[] | .name'.", min_length=1)],
    file: Annotated[str | None, Param(
        "Path of the JSON file to query (JSON Lines and YAML files work too).")] = None,
    input: Annotated[str | None, Param(  # noqa: A002 - the spec's name
        "Inline JSON text to query.")] = None,
    exec: Annotated[str | None, Param(  # noqa: A002 - the spec's name
        "A shell command whose output (JSON) is queried, e.g. 'curl -s "
        "https://api.example.com'.")] = None,
    payload: Annotated[str | None, Param(
        "The payload_id of an earlier answer that was too big to send: query what it "
        "kept (several results are one a line: add slurp=true to get them as one array).")
    ] = None,
    null_input: Annotated[bool, Param(
        "Run the query once on null, with no source (jq -n): e.g. query='[range(5)]', or "
        "query='[inputs]' with a source to read its values yourself.")] = False,
    slurp: Annotated[bool, _SLURP] = False,
    args: Annotated[dict[str, Any] | None, _ARGS] = None,
    raw: Annotated[bool, Param("Print strings without quotes (jq's raw output).")] = False,
    compact: Annotated[bool, Param(
        "One line per result, no indentation (jq's compact output).")] = False,
    timeout: Annotated[float, _TIMEOUT] = 30,
    explain: Annotated[bool, Param(
        "Instead of the results, run the query stage by stage and return each stage's "
        "counts in and out, a few values, the inputs a select dropped and where a null or "
        "an error came from (a bounded explanation).")] = False,
) -> dict[str, Any]:
    r"""Query and transform JSON with jq syntax, from a file, inline JSON or a kept payload.

    Use it to pull values out of JSON too big to read, to count, filter or reshape it.
    Give `query` and one source: `file`, `input` or `payload` (none with null_input).
    Returns `output` (one result a line), `count`, and a `message` when the output was
    cut (naming the call for the next results) or nothing matched.

    Examples:
    - Names of all jobs: query=".jobs[] | .name", file="cron/jobs.json"
    - Filter: query=".jobs[] | select(.enabled) | {name, id}", file="jobs.json"
    - A bare string: query=".name", input="{\"name\": \"x\"}", raw=true  -> x
    - Count JSON Lines: query="length", file="log.jsonl", slurp=true

    Limits: 100 results and about 25,000 tokens an answer; the rest is kept as a payload.
    Count first (`.items | length`), then slice (`.items[0:50]`) and pick fields.
    """
    from jqmagic.core.query import query as run_query

    given = {name: spec for name, spec in (("file", file), ("input", input), ("exec", exec),
                                            ("payload", payload)) if spec}
    if len(given) > 1:
        raise JqMagicError("AMBIGUOUS_SOURCE", "Cannot specify multiple input sources (file, "
                           f"input, exec, payload): got {' and '.join(given)}.",
                           "Give exactly one of them.")
    if not given and not null_input:
        raise JqMagicError("AMBIGUOUS_SOURCE", "Must specify one of: 'file', 'input', 'exec' "
                           "or 'payload' (or null_input=true).",
                           'e.g. {"query": ".name", "file": "data.json"}.')
    source = {"text" if name == "input" else name: spec for name, spec in given.items()}
    if explain:
        from jqmagic.core.explain import explain as explained

        return {"success": True, "explanation": explained(
            query, slurp=slurp, null_input=null_input, args=args, timeout=timeout,
            **source).to_dict()}
    several = bool(payload or exec or input or not _single_json(file)) and not null_input
    caller = Caller("jq", "query", query, slurp, several)
    return answer(with_comments(run_query, query, raw=raw, compact=compact, timeout=timeout,
                                slurp=slurp, null_input=null_input, args=args,
                                **_bounds(False), **source), caller)


def _bounds(passthrough: bool) -> dict[str, Any]:
    """The agent face's own bound, passed to the query core (complete by default): 100
    results, or with passthrough as many as one answer can hold (two escaped characters a
    result at least); the core keeps the rest in the payload store."""
    most = transport.content_budget() // 2 if passthrough else settings.max_results
    return {"limit": most, "max_tokens": transport.content_budget() // 4}


def _single_json(path: str | None) -> bool:
    """Whether ``path`` names one plain JSON file (one input), not a stream or a glob."""
    return bool(path) and not glob.has_magic(path) and \
        os.path.splitext(path)[1].lower() in (".json", ".jsonc", ".geojson")


def with_comments(operation: Any, *args: Any, **keywords: Any) -> Any:
    """Run ``operation`` on a file; a ``.json`` file that fails as JSON because it has
    comments or trailing commas (tsconfig.json, settings.json) is read as JSONC instead."""
    try:
        return operation(*args, **keywords)
    except JqMagicError as exc:
        if exc.code != "INVALID_JSON" or keywords.get("jsonc") is not None or \
                "jsonc" not in terms(exc.raw_hint):
            raise
        first = exc
    try:
        return operation(*args, **keywords, jsonc=True)
    except JqMagicError:
        raise first from None


def _query_file(tool: str, param: str, expression: str, file_path: str,
                options: dict[str, Any]) -> dict[str, Any]:
    from jqmagic.core.query import query as run_query

    several = options.get("yaml", False) or not _single_json(file_path)
    caller = Caller(tool, param, expression, options["slurp"], several)
    passthrough = options.pop("passthrough")
    return answer(with_comments(run_query, expression, file=file_path, compact=True,
                                **_bounds(passthrough), **options), caller)


@tool(bounds_itself=True)
def query_json(
    file_path: Annotated[str, Param("Path of the JSON (or JSON Lines) file.", min_length=1)],
    jq_expression: Annotated[str, Param("The jq expression, e.g. '.paths | keys'.",
                                        min_length=1)],
    timeout: Annotated[float, _TIMEOUT] = 30,
    large_result_passthrough: Annotated[bool, _PASSTHROUGH] = False,
    slurp: Annotated[bool, _SLURP] = False,
    args: Annotated[dict[str, Any] | None, _ARGS] = None,
) -> dict[str, Any]:
    """Query a large JSON file with a jq expression and get compact JSON back.

    Use it instead of reading a big JSON file (API specs, package-lock.json, dbt
    manifest.json, logs): ask for just the part you need. Call json_inspect first if you
    do not know the structure. Returns `output` (one compact JSON value per line), `count`,
    and a `message` when results were cut or when the query returned no results.

    Examples:
    - Top-level keys: jq_expression="keys"
    - All endpoint paths of an OpenAPI spec: jq_expression=".paths | keys"
    - One field of every element: jq_expression=".users[] | .email"
    - Filter: jq_expression=".users[] | select(.active == true) | {id, name}"
    - Count: jq_expression=".users | length"

    Limits: at most 100 results and about 25,000 tokens. When cut, the message names the
    next slice to ask for, e.g. `.items[100:200]`, and where the full result was saved.
    Work in slices (`.items[0:100]`, `.items[100:200]`) and select only needed fields.
    """
    return _query_file("query_json", "jq_expression", jq_expression, file_path, {
        "timeout": timeout, "passthrough": large_result_passthrough, "slurp": slurp,
        "args": args})


@tool(bounds_itself=True)
def query_yaml(
    file_path: Annotated[str, Param("Path of the YAML file.", min_length=1)],
    yq_expression: Annotated[str, Param(
        "The query, in jq syntax (yq's syntax for reading), e.g. '.services | keys'.",
        min_length=1)],
    timeout: Annotated[float, _TIMEOUT] = 30,
    large_result_passthrough: Annotated[bool, _PASSTHROUGH] = False,
    slurp: Annotated[bool, _SLURP] = False,
    args: Annotated[dict[str, Any] | None, _ARGS] = None,
) -> dict[str, Any]:
    """Query a large YAML file with a jq-style expression and get compact JSON back.

    Use it instead of reading a big YAML file (Kubernetes manifests, docker-compose, CI
    configs, OpenAPI in YAML). The YAML is read as JSON data, so write jq syntax:
    `.a.b`, `.[0]`, `.items[] | .name`, `select(...)`, `keys`, `length`. A file with
    several YAML documents (---) is queried one document at a time; slurp=true
    gives them all as one array.
    Returns `output` (one compact JSON value per line), `count` and a `message` when
    results were cut or when the query returned no results.

    Examples:
    - Service names in docker-compose.yml: yq_expression=".services | keys"
    - Image of each service: yq_expression=".services[] | .image"
    - Kinds of all documents in a manifest: yq_expression=".kind"
    - Jobs of a GitHub workflow: yq_expression=".jobs | keys"

    Limits: at most 100 results and about 25,000 tokens; slice big lists
    (`.items[0:100]`) and select only the fields you need.
    """
    return _query_file("query_yaml", "yq_expression", yq_expression, file_path, {
        "timeout": timeout, "passthrough": large_result_passthrough, "slurp": slurp,
        "args": args, "yaml": True})


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
    Returns for an object: `keys` (at most 100, 20 in nested objects; `keyCount` and a
    `message` say how to list the rest) and `children` (nested structure down to `depth`);
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
        return {"path": path, "format": format, "schema": value}
    value = _summarised(value)
    return {**value, **_more_keys(value, filePath)}


NESTED_KEYS = 20  # keys listed for each object below the one inspected


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


class Example(TypedDict):
    """One input and the output wanted from it."""

    input: Annotated[str | JsonValue | None, Param("A JSON value the program reads.")]
    output: Annotated[str | JsonValue | None, Param("The JSON value it should give.")]


@tool()
def jq_suggest(
    examples: Annotated[list[Example], Param(
        "One or more examples; the program must turn each input into its output.")],
    timeout: Annotated[float, Param("Seconds to search.", minimum=1, maximum=30)] = 5,
) -> dict[str, Any]:
    """Find the shortest jq programs that turn each example input into its output.

    A search over jq's grammar (no guessing): every program returned was run by jq on
    every example. Use it when you know the output you want but not the filter; then
    run the program with the jq tool. Nothing found: give another example or more time.

    Examples:
    - A field: examples=[{"input": {"user": {"name": "ada"}}, "output": "ada"}]
    - Sort: examples=[{"input": [3, 1, 2], "output": [1, 2, 3]}]
    """
    from jqmagic.core.suggest import suggest

    return {"success": True, **suggest(examples=examples, timeout=timeout).to_dict()}


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
        if len(json.dumps(result[key], ensure_ascii=False)) > PATCH_VALUE_CHARS:
            result[key] = kept(result[key])
    return result


def _keys_at(file: str, pointer: str) -> list[str]:
    """The keys of the object at ``pointer`` in ``file`` (none when it is no object)."""
    from jqmagic.core.shape import shape

    try:
        found = with_comments(shape, file=file, path=pointer, depth=0).value
    except JqMagicError:
        return []
    return list(found.get("keys") or [])


@tool(bounds_itself=True)
def read_file(
    file_path: Annotated[str, Param("Path of the text file to read.", min_length=1)],
    offset: Annotated[int | None, Param("First line to return (1-based).", minimum=1)] = None,
    limit: Annotated[int | None, Param("Most lines to return.", minimum=1)] = None,
    large_file_passthrough: Annotated[bool, Param(
        "Read a file over about 100,000 tokens anyway (one answer at a time: the answer "
        "says the offset to read on from). Prefer json_inspect, query_json or query_yaml "
        "for JSON and YAML.")] = False,
) -> dict[str, Any]:
    """Read a text file (or some of its lines). Refuses files over about 100,000 tokens.

    Use it for small files and for parts of big ones (`offset`, `limit`). For big JSON
    use json_inspect (structure) and query_json (parts); for big YAML use query_yaml.
    Returns `content`, `total_lines` and `next_offset` (the line to read on from, when
    lines are left; an answer stops at about 25,000 tokens and says so).

    Examples:
    - Whole file: file_path="README.md"
    - Lines 100-199: file_path="app.log", offset=100, limit=100
    """
    from jqmagic.core import sources

    files = sources.resolve_files(file_path)
    if len(files) != 1:
        raise JqMagicError("INVALID_ARGUMENT", f"{file_path} names {len(files)} files.",
                           "Name one file.")
    path = files[0]
    whole = offset is None and limit is None
    if whole and not large_file_passthrough:
        _refuse_large(path, (os.path.getsize(path) + 3) // 4)
    start = (offset or 1) - 1
    window, total, long_line = _line_window(path, start, limit, transport.content_budget())
    end = start + len(window)
    out: dict[str, Any] = {"path": path, "content": "\n".join(window), "total_lines": total,
                           "offset": start + 1,
                           "next_offset": end + 1 if end < total else None}
    if long_line:
        out.update(_long_line(path, end, long_line))
    elif end < total and (limit is None or end < start + limit):
        more = f", limit={limit - len(window)}" if limit else ""
        step = {"offset": end + 1, **({"limit": limit - len(window)} if limit else {})}
        out.update(truncated=True, next_arguments=step,
                   message=f"Showing lines {start + 1:,}-{end:,} of {total:,} (one answer "
                           f"holds about {transport.tokens():,} tokens). Read on with "
                           f"offset={end + 1}{more}.")
    if not window and start >= total:
        out["message"] = f"No lines at offset {start + 1}: the file has {total:,} lines."
    if out["next_offset"] and "next_arguments" not in out:  # the caller's window
        out["next_arguments"] = {"offset": out["next_offset"]}
    return out


def _line_window(path: str, start: int, limit: int | None,
                 budget: int) -> tuple[list[str], int, str]:
    """Lines ``start`` to ``start + limit`` of a UTF-8 file, as many as fit in ``budget``
    characters (escaped, as the answer carries them), and how many lines it has, read a
    line at a time: a window of a 2 GB file costs the window, not the file. The third item
    is the start of the line that did not fit, when it alone is over the budget."""
    from jqmagic.core import sources

    kept: list[str] = []
    total, size, full, long_line = 0, 0, False, ""
    with open(sources.open_file(path), "rb") as handle:
        for total, raw in enumerate(handle, 1):
            if full or total <= start or (limit is not None and total > start + limit):
                continue
            if total == 1:
                sources.check_encoding(path, raw[:4])
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                raise JqMagicError("FILE_ERROR", f"{path} is not UTF-8 text (line "
                                   f"{total}).", "Convert it to UTF-8 first (iconv).") from exc
            size += transport.escaped_size(line) + 2
            if size > budget:
                full = True
                if not kept:
                    long_line = transport.text_page(line, 0, budget)
                continue
            kept.append(line)
    return kept, total, long_line


def _long_line(path: str, number: int, start: str) -> dict[str, Any]:
    """Line ``number`` (0-based) is alone over one answer: its start, and what reads it."""
    kind = os.path.splitext(path)[1].lower()
    instead = "json_inspect and query_json" if kind in (".json", ".jsonl", ".ndjson") else \
        "query_yaml" if kind in (".yaml", ".yml") else "the jq tool (raw=true)"
    return {"content": start, "truncated": True, "next_offset": number + 2,
            "next_arguments": {"offset": number + 2},
            "message": f"Line {number + 1:,} alone is over one answer (about "
                       f"{transport.tokens():,} tokens): its first {len(start):,} characters "
                       f"are shown. Read its data with {instead}; read on from the next line "
                       f"with offset={number + 2}."}


def _refuse_large(path: str, tokens: int) -> None:
    if tokens <= READ_MAX_TOKENS:
        return
    kind = os.path.splitext(path)[1].lower()
    if kind in (".json", ".jsonl", ".ndjson", ".jsonc"):
        instead = "Use json_inspect to see its structure, then query_json to read parts."
    elif kind in (".yaml", ".yml"):
        instead = "Use query_yaml to read parts of it."
    else:
        instead = "For JSON or YAML data use json_inspect, query_json or query_yaml instead."
    raise JqMagicError(
        "TOO_LARGE", f"{path} is about {tokens:,} tokens, over the {READ_MAX_TOKENS:,}-token "
        "limit of read_file.",
        f"{instead} Or read fewer lines with offset and limit (e.g. offset=1, limit=200), or "
        "set large_file_passthrough=true to read it anyway.")
