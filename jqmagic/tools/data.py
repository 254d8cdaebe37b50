"""The data tools: jq, query_json, query_yaml, json_inspect, json_patch and read_file.

Each handler's signature is its parameter schema and its docstring is the description a
model reads, so both are written for weak models: what, when, examples, how to slice.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any, Literal, TypedDict

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.core.shape import jq_schema
from jqmagic.core.words import terms
from jqmagic.tools.registry import tool
from jqmagic.tools.schema import JsonValue, Param

READ_MAX_TOKENS = 100_000
PATCH_VALUE_CHARS = 10_000
_TIMEOUT = Param("Seconds the query may run before it is stopped.", minimum=1, maximum=600)
PASSTHROUGH_NOTE = " Or set large_result_passthrough=true to get the whole result."


@tool(open_world=True, bounds_itself=True, runs_commands=True)
def jq(
    query: Annotated[str, Param("The jq filter, e.g. '.items[] | .name'.", min_length=1)],
    file: Annotated[str | None, Param(
        "Path of the JSON file to query (JSON Lines and YAML files work too). "
        "Use exactly one of file, input, exec.")] = None,
    input: Annotated[str | None, Param(  # noqa: A002 - the spec's name
        "Inline JSON text to query. Use exactly one of file, input, exec.")] = None,
    exec: Annotated[str | None, Param(  # noqa: A002 - the spec's name
        "A shell command whose output (JSON) is queried, e.g. 'curl -s https://api.example.com'. "
        "Use exactly one of file, input, exec.")] = None,
    payload: Annotated[str | None, Param(
        "The payload_id of an earlier answer that was too big to send: query the whole "
        "result it kept. Use exactly one of file, input, exec, payload.")] = None,
    raw: Annotated[bool, Param("Print strings without quotes (jq's raw output).")] = False,
    compact: Annotated[bool, Param(
        "One line per result, no indentation (jq's compact output).")] = False,
    timeout: Annotated[float, _TIMEOUT] = 30,
) -> dict[str, Any]:
    r"""Query and transform JSON with jq syntax, from a file, inline JSON or a command's output.

    Use it to pull a few values out of JSON that is too big to read, to count, filter or
    reshape it. Give `query` and exactly one source: `file`, `input` or `exec`.
    Returns `output` (the results, one per line), `count` (how many there are) and a
    `message` when the output was cut or nothing matched.

    Examples:
    - Names of all jobs: query=".jobs[] | .name", file="cron/jobs.json"
    - Keys of an object: query=".users | keys", input="{\"users\": {\"alice\": 1, \"bob\": 2}}"
    - Filter: query=".jobs[] | select(.enabled == true) | {name, id}", file="jobs.json"
    - From a command: query=".results[0].id", exec="curl -s https://api.example.com/data"
    - A bare string: query=".name", input="{\"name\": \"test\"}", raw=true  -> test

    Limits: at most 100 results and about 50,000 tokens are shown; the full result is saved
    and the message says where. For big arrays, count first (`.items | length`), then
    read slices: `.items[0:50]`, `.items[50:100]`, or select only the fields you need.
    """
    from jqmagic.core.query import query as run_query

    given = {name: spec for name, spec in (("file", file), ("input", input), ("exec", exec),
                                            ("payload", payload)) if spec}
    if len(given) > 1:
        raise JqMagicError("AMBIGUOUS_SOURCE", "Cannot specify multiple input sources (file, "
                           f"input, exec): got {' and '.join(given)}.", "Give exactly one of them.")
    if not given:
        raise JqMagicError("AMBIGUOUS_SOURCE", "Must specify one of: 'file', 'input', or 'exec'.",
                           'e.g. {"query": ".name", "file": "data.json"}.')
    ((name, spec),) = given.items()
    source = {"text" if name == "input" else name: spec}
    return _answer(with_comments(run_query, query, raw=raw, compact=compact, timeout=timeout,
                                 **source))


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


def _answer(result: Any) -> dict[str, Any]:
    """A query's answer for an agent: its output, or, when the output was cut at the token
    bound, nothing cut mid-value: the count, the shape and a preview of the first results,
    and the payload that holds every result."""
    if not result.text_cut:
        return result.to_dict()
    from jqmagic.tools.results import cut_value

    return {"success": True, "truncated": True, "count": result.total,
            "message": f"Not sent: the output is over the {settings.max_tokens:,}-token "
                       f"bound. Every result is kept as payload {result.payload_id}. Ask for "
                       "less: a slice (.items[0:20]), fewer fields ({id, name}), a count "
                       f"(length), or query the payload: {{\"payload\": "
                       f"\"{result.payload_id}\", \"query\": \"...\"}}.",
            "payload_id": result.payload_id, "payload_path": result.payload_path,
            "shape": cut_value(jq_schema(result.values)),
            "preview": cut_value(result.values[:3], depth=3, width=5)}


def _query_file(expression: str, file_path: str, options: dict[str, Any]) -> dict[str, Any]:
    from jqmagic.core.query import query as run_query

    result = _answer(with_comments(run_query, expression, file=file_path, compact=True,
                                   **options))
    if result["truncated"]:
        result["message"] += PASSTHROUGH_NOTE
    return result


_SLURP = Param("Read every document (YAML ---) or line (JSON Lines) into one array first, "
               "to count, sort or group across them (jq's slurp).")
_ARGS = Param("Values for $names in the expression, e.g. {\"min\": 10} for "
              "'.[] | select(.n > $min)'.")
_PASSTHROUGH = Param("Return the whole result even past 100 results / 50,000 tokens. Leave it "
                     "false unless you really need everything.")


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

    Limits: at most 100 results and about 50,000 tokens. When cut, the message names the
    next slice to ask for, e.g. `.items[100:200]`, and where the full result was saved.
    Work in slices (`.items[0:100]`, `.items[100:200]`) and select only needed fields.
    """
    return _query_file(jq_expression, file_path, {
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
    several YAML documents (---) is queried one document at a time.
    Returns `output` (one compact JSON value per line), `count` and a `message` when
    results were cut or when the query returned no results.

    Examples:
    - Service names in docker-compose.yml: yq_expression=".services | keys"
    - Image of each service: yq_expression=".services[] | .image"
    - Kinds of all documents in a manifest: yq_expression=".kind"
    - Jobs of a GitHub workflow: yq_expression=".jobs | keys"

    Limits: at most 100 results and about 50,000 tokens; slice big lists
    (`.items[0:100]`) and select only the fields you need.
    """
    return _query_file(yq_expression, file_path, {
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
    Returns for an object: `keys` and `children` (nested structure down to `depth`);
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

    return with_comments(shape, file=filePath, path=path, depth=depth, format=format,
                         stats=stats).value


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
) -> dict[str, Any]:
    r"""Edit a JSON file (or YAML): set, insert, remove or merge one value, keeping formatting.

    Use it to change config or data files without rewriting them. Target with `path` (a
    JSON Pointer) or with `match` (find an array element by its properties; best for big
    arrays where you do not know the index). Call json_inspect first on an unfamiliar
    file. A failed edit changes nothing.
    Returns `targetPath`, `previousValue` and `newValue` (lists when several values
    changed) and `changed` (false when the file already held the value).

    Path examples: "" = whole document, "/name", "/users/0" = first element,
    "/users/-" = append (set only). In a YAML stream of several documents (---) or a
    JSON Lines file, "/0/..." is inside the first document (line).

    Examples:
    - Set a nested value: operation="set", path="/settings/theme", value="\"dark\""
    - Remove a key: operation="remove", path="/obsoleteConfig"
    - Append to an array: operation="set", path="/items/-", value="{\"name\": \"new\"}"
    - Update by id: operation="set", match={"arrayPath": "/users", "where": {"id": "123"}},
      value="{\"status\": \"active\"}"  (sets each key of the object in the element)
    - Insert at position 2: operation="insert", path="/items/2", value="{\"name\": \"x\"}"
    """
    from jqmagic.core.patch import parse_json, patch
    from jqmagic.tools.results import kept

    if (path is None) == (match is None):
        raise JqMagicError("INVALID_ARGUMENT",
                           "Give either path or match, not both." if match else
                           "Give path or match to say what to edit.",
                           'e.g. "path": "/config/timeout", or "match": {"arrayPath": '
                           '"/users", "where": {"id": "123"}}.')
    options: dict[str, Any] = {"every": all, "dry_run": dryRun}
    if value is not None:  # JSON text, or (a common mistake, accepted) the value itself
        options["value"] = parse_json(value, "value") if isinstance(value, str) else value
    if match is not None:
        options.update(match=match["arrayPath"], where=match["where"])
    result = patch(filePath, operation, path, **options).to_dict()
    for key in ("previousValue", "newValue"):
        if len(json.dumps(result[key], ensure_ascii=False)) > PATCH_VALUE_CHARS:
            result[key] = kept(result[key])
    return result


@tool(bounds_itself=True)
def read_file(
    file_path: Annotated[str, Param("Path of the text file to read.", min_length=1)],
    offset: Annotated[int | None, Param("First line to return (1-based).", minimum=1)] = None,
    limit: Annotated[int | None, Param("Most lines to return.", minimum=1)] = None,
    large_file_passthrough: Annotated[bool, Param(
        "Return the text even past about 100,000 tokens. Prefer json_inspect, query_json "
        "or query_yaml for JSON and YAML.")] = False,
) -> dict[str, Any]:
    """Read a text file (or some of its lines). Refuses files over about 100,000 tokens.

    Use it for small files and for parts of big ones (`offset`, `limit`). For big JSON
    use json_inspect (structure) and query_json (parts); for big YAML use query_yaml.
    Returns `content`, `total_lines` and `next_offset` (the line to read on from, when
    lines are left).

    Examples:
    - Whole file: file_path="README.md"
    - Lines 100-199: file_path="app.log", offset=100, limit=100
    """
    from jqmagic.core import sources
    from jqmagic.core.settings import estimate_tokens

    files = sources.resolve_files(file_path)
    if len(files) != 1:
        raise JqMagicError("INVALID_ARGUMENT", f"{file_path} names {len(files)} files.",
                           "Name one file.")
    path = files[0]
    whole = offset is None and limit is None
    if whole and not large_file_passthrough:
        _refuse_large(path, (os.path.getsize(path) + 3) // 4)
    start = (offset or 1) - 1
    window, total = _line_window(path, start, limit)
    end = start + len(window)
    content = "\n".join(window)
    if not (whole or large_file_passthrough):
        _refuse_large(path, estimate_tokens(content), whole=False)
    out: dict[str, Any] = {"path": path, "content": content, "total_lines": total,
                           "offset": start + 1,
                           "next_offset": end + 1 if end < total else None}
    if not content and start >= total:
        out["message"] = f"No lines at offset {start + 1}: the file has {total:,} lines."
    return out


def _line_window(path: str, start: int, limit: int | None) -> tuple[list[str], int]:
    """Lines ``start`` to ``start + limit`` of a UTF-8 file, and how many lines it has, read
    a line at a time: a window of a 2 GB file costs the window, not the file."""
    from jqmagic.core import sources

    kept: list[str] = []
    total = 0
    with open(sources.open_file(path), "rb") as handle:
        for total, raw in enumerate(handle, 1):
            if start < total and (limit is None or total <= start + limit):
                if total == 1:
                    sources.check_encoding(path, raw[:4])
                    raw = raw.removeprefix(b"\xef\xbb\xbf")
                try:
                    kept.append(raw.decode("utf-8").rstrip("\r\n"))
                except UnicodeDecodeError as exc:
                    raise JqMagicError("FILE_ERROR", f"{path} is not UTF-8 text (line "
                                       f"{total}).", "Convert it to UTF-8 first (iconv).") \
                        from exc
    return kept, total


def _refuse_large(path: str, tokens: int, whole: bool = True) -> None:
    if tokens <= READ_MAX_TOKENS:
        return
    what = f"{path} is" if whole else "These lines are"
    kind = os.path.splitext(path)[1].lower()
    if kind in (".json", ".jsonl", ".ndjson", ".jsonc"):
        instead = "Use json_inspect to see its structure, then query_json to read parts."
    elif kind in (".yaml", ".yml"):
        instead = "Use query_yaml to read parts of it."
    else:
        instead = "For JSON or YAML data use json_inspect, query_json or query_yaml instead."
    raise JqMagicError(
        "TOO_LARGE", f"{what} about {tokens:,} tokens, over the {READ_MAX_TOKENS:,}-token "
        "limit of read_file.",
        f"{instead} Or read fewer lines with offset and limit (e.g. offset=1, limit=200), or "
        "set large_file_passthrough=true to read it anyway.")
