"""The query tools: jq (JSON from a file, inline text, a kept payload or a command),
query_json and query_yaml (a file and an expression)."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Annotated, Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import settings
from jqmagic.core.words import json_text, terms
from jqmagic.tools import transport
from jqmagic.tools.answers import Caller, answer
from jqmagic.tools.schema import JsonValue, Param
from jqmagic.tools.spec import tool

_TIMEOUT = Param("Seconds the query may run before it is stopped.", minimum=1, maximum=600)
_SLURP = Param("Read every document (YAML ---) or line (JSON Lines) into one array first, "
               "to count, sort or group across them (jq's slurp).")
_ARGS = Param("Values for $names in the expression, e.g. {\"min\": 10} for "
              "'.[] | select(.n > $min)'.")
_PASSTHROUGH = Param("Return every result, not only the first 100 (still within one answer's "
                     "bound of about 25,000 tokens; past it the rest is kept as a payload).")


_COMMANDS = ("A source may also be `exec`, a shell command whose JSON output is queried, "
             'e.g. exec="curl -s https://api.example.com/data".')


@dataclass(frozen=True)
class JqRequest:
    """What an agent asks the jq tool: the filter, one source, how to read it and how to
    print the results (the tool's parameters, in this order)."""

    query: Annotated[str, Param("The jq filter, e.g. '.items[] | .name'.", min_length=1)]
    file: Annotated[str | None, Param(
        "Path of the JSON file to query (JSON Lines and YAML files work too).")] = None
    input: Annotated[str | JsonValue | None, Param(  # noqa: A003 - the spec's name
        "Inline JSON to query: JSON text (a string, several values allowed) or the JSON "
        "value itself (an object, array, number or boolean).")] = None
    exec: Annotated[str | None, Param(  # noqa: A003 - the spec's name
        "A shell command whose output (JSON) is queried, e.g. 'curl -s "
        "https://api.example.com'.")] = None
    payload: Annotated[str | None, Param(
        "The payload_id of an earlier answer that was too big to send: query what it "
        "kept (several results are one a line: add slurp=true to get them as one array).")
    ] = None
    null_input: Annotated[bool, Param(
        "Run the query once on null, with no source (jq -n): e.g. query='[range(5)]', or "
        "query='[inputs]' with a source to read its values yourself.")] = False
    slurp: Annotated[bool, _SLURP] = False
    args: Annotated[dict[str, Any] | None, _ARGS] = None
    raw: Annotated[bool, Param("Print strings without quotes (jq's raw output).")] = False
    compact: Annotated[bool, Param(
        "One line per result, no indentation (jq's compact output).")] = False
    timeout: Annotated[float, _TIMEOUT] = 30
    explain: Annotated[bool, Param(
        "Instead of the results, run the query stage by stage and return each stage's "
        "counts in and out, a few values, the inputs a select dropped and where a null or "
        "an error came from (a bounded explanation).")] = False

    def sources(self) -> dict[str, str]:
        """The sources given, as the query core names them (``text`` for ``input``, a
        JSON value as its text); AMBIGUOUS_SOURCE when there are several, or none
        without null_input."""
        text = self.input if self.input is None or isinstance(self.input, str) \
            else json_text(self.input)
        given = {name: spec for name, spec in (("file", self.file), ("input", text),
                                                ("exec", self.exec), ("payload", self.payload))
                 if spec}
        if len(given) > 1:
            raise JqMagicError("AMBIGUOUS_SOURCE", "Cannot specify multiple input sources "
                               f"(file, input, exec, payload): got {' and '.join(given)}.",
                               "Give exactly one of them.")
        if not given and not self.null_input:
            raise JqMagicError("AMBIGUOUS_SOURCE", "Must specify one of: 'file', 'input', "
                               "'exec' or 'payload' (or null_input=true).",
                               'e.g. {"query": ".name", "file": "data.json"}.')
        return {"text" if name == "input" else name: spec for name, spec in given.items()}


@tool(open_world=True, bounds_itself=True, runs_commands=True, commands_note=_COMMANDS)
def jq(request: JqRequest) -> dict[str, Any]:
    r"""Query and transform JSON with jq syntax, from a file, inline JSON or a kept payload.

    Use it to pull values out of JSON too big to read, to count, filter or reshape it.
    Give `query` and one source: `file`, `input` or `payload` (none with null_input).
    Returns `output` (results as jq prints them, indented; one a line with compact=true),
    `count`; a cut answer adds `payload_id` and `next_arguments` (change them to get more).

    Examples:
    - Names of all jobs: query=".jobs[] | .name", file="cron/jobs.json"
    - Filter: query=".jobs[] | select(.enabled) | {name, id}", file="jobs.json"
    - A bare string: query=".name", input="{\"name\": \"x\"}", raw=true  -> x
    - Count JSON Lines: query="length", file="log.jsonl", slurp=true

    Limits: 100 results and about 25,000 tokens an answer; the rest is kept as a payload.
    Count first (`.items | length`), then slice (`.items[0:50]`) and pick fields.
    """
    from jqmagic.core.query import query as run_query

    source = request.sources()
    reading = {"slurp": request.slurp, "null_input": request.null_input,
               "args": request.args, "timeout": request.timeout, **source}
    if request.explain:
        from jqmagic.core.explain import explain as explained

        return {"success": True, "explanation": explained(request.query,
                                                          **reading).to_dict()}
    several = bool(source.keys() - {"file"} or not _single_json(request.file)) \
        and not request.null_input
    caller = Caller("jq", "query", request.query, request.slurp, several)
    return answer(with_comments(run_query, request.query, raw=request.raw,
                                compact=request.compact, **reading, **_bounds(False)), caller)


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


@dataclass(frozen=True)
class FileQuery:
    """How query_json and query_yaml run their expression (the last of their parameters)."""

    timeout: Annotated[float, _TIMEOUT] = 30
    large_result_passthrough: Annotated[bool, _PASSTHROUGH] = False
    slurp: Annotated[bool, _SLURP] = False
    args: Annotated[dict[str, Any] | None, _ARGS] = None


def _query_file(tool: str, param: str, expression: str, file_path: str, options: FileQuery,
                yaml: bool | None = None) -> dict[str, Any]:
    from jqmagic.core.query import query as run_query

    several = bool(yaml) or not _single_json(file_path)
    caller = Caller(tool, param, expression, options.slurp, several)
    return answer(with_comments(run_query, expression, file=file_path, compact=True,
                                timeout=options.timeout, slurp=options.slurp,
                                args=options.args, yaml=yaml,
                                **_bounds(options.large_result_passthrough)), caller)


@tool(bounds_itself=True)
def query_json(
    file_path: Annotated[str, Param("Path of the JSON (or JSON Lines) file.", min_length=1)],
    jq_expression: Annotated[str, Param("The jq expression, e.g. '.paths | keys'.",
                                        min_length=1)],
    options: FileQuery,
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
    return _query_file("query_json", "jq_expression", jq_expression, file_path, options)


@tool(bounds_itself=True)
def query_yaml(
    file_path: Annotated[str, Param("Path of the YAML file.", min_length=1)],
    yq_expression: Annotated[str, Param(
        "The query, in jq syntax (yq's syntax for reading), e.g. '.services | keys'.",
        min_length=1)],
    options: FileQuery,
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
    return _query_file("query_yaml", "yq_expression", yq_expression, file_path, options,
                       yaml=True)
