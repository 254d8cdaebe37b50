"""Each tool's output schema: the fields its answers really have (MCP ``outputSchema``).

Every answer is one object: ``success``, then the tool's fields on success, or the failure
fields (``error``, ``error_code``, ``hint``, ``detail``; a query tool's ``output`` and
``count`` printed before it failed), or, when an answer was too big to send, the
kept-answer fields. The schemas are
closed (``additionalProperties: false``): a test validates every answer the tools give.
"""

from __future__ import annotations

from typing import Any

_STR, _INT, _BOOL = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
_ANY: dict[str, Any] = {}
_NULLABLE_INT = {"type": ["integer", "null"]}


def _described(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {**schema, "description": text}


_PAYLOAD = {
    "payload_id": _described(_STR, "The kept whole result: the jq tool's payload parameter, "
                                   "or the resource jqmagic://payload/<payload_id>."),
    "payload_path": _described(_STR, "Where the kept result is on disk."),
    "truncated": _described(_BOOL, "True when the answer is not the whole result."),
    "message": _described(_STR, "What was cut or found, and the next step."),
}
_FAILURE = {
    "error": _described(_STR, "What was attempted and why it failed."),
    "error_code": _described(_STR, "A stable code, e.g. NOT_FOUND, INVALID_QUERY."),
    "hint": _described(_STR, "The next step."),
    "detail": _described(_STR, "Where it failed (a caret under the column)."),
}
_KEPT = {  # an answer too big to send (results.bounded)
    "size": _described(_INT, "Characters of the answer that was not sent."),
    "shape": _described(_ANY, "The shape of what was not sent (jqschema, cut)."),
    "preview": _described(_ANY, "The start of what was not sent (cut by depth and width)."),
}
_QUERY = {
    "output": _described(_STR, "The results, one a line, as jq prints them."),
    "count": _described(_INT, "How many results the query gave."),
    "shown": _described(_INT, "How many results are in output (when cut)."),
    "explanation": _described({"type": "object"}, "With explain: each stage's counts, "
                              "samples, drops, and where null or an error came from."),
}
_SUGGEST = {
    "programs": {"type": "array", "items": {"type": "object", "properties": {
        "program": _STR, "cost": _INT, "reads_input": _BOOL}}},
    "seconds": {"type": "number"}, "tried": {"type": "object"}, "examples": _INT,
    "timeout": {"type": "number"},
}
_SHAPE = {
    "path": _STR, "type": _STR, "keys": {"type": "array", "items": _STR}, "keyCount": _INT,
    "children": {"type": "object"}, "arrayLength": _INT, "elementType": _STR,
    "elementTypes": {"type": "object"}, "elementTemplate": _ANY,
    "availableKeys": {"type": "array", "items": _STR}, "keyPresence": {"type": "object"},
    "profiles": {"type": "object"}, "format": _STR, "schema": _ANY,
    "mixedTypes": _described({"type": "object"}, "Per jq path whose values are of several "
                             "kinds (the template shows the container): those kinds."),
}
_PATCH = {
    "status": _STR, "operation": _STR, "targetPath": _ANY, "previousValue": _ANY,
    "newValue": _ANY, "matched": _INT, "changed": _BOOL, "dryRun": _BOOL,
    "diff": {"type": ["string", "null"]},
    "replaced": _described({"type": "array"}, "Paths whose value was replaced, with sizes."),
    "added": _described({"type": "array"}, "Paths added, with sizes."),
    "removed": _described({"type": "array"}, "Paths removed, with sizes."),
}
_LINES = {
    "path": _STR, "content": _STR, "total_lines": _INT, "offset": _INT,
    "next_offset": _NULLABLE_INT,
}
_FETCH = {
    "url": _STR, "requested_url": _STR, "title": _STR, "content": _STR, "content_type": _STR,
    "status": _INT, "total_lines": _INT, "offset": _INT, "next_offset": _NULLABLE_INT,
    "start_index": _INT, "next_start_index": _NULLABLE_INT, "total_chars": _INT,
    "byline": _STR, "published": _STR, "comments": _STR,  # an HTML page's, when it says
}
_SEARCH = {
    "results": {"type": "array", "items": {"type": "object", "properties": {
        "title": _STR, "url": _STR, "snippet": _STR}}},
    "count": _INT,
}
_NEXT = {
    "next_arguments": _described({"type": "object"},
                                 "When the answer was cut: the arguments to change in this "
                                 "tool's next call to get what follows."),
    "next_call": _described({"type": "object"}, "Another tool's call that reads more: "
                            "{\"tool\", \"arguments\"}."),
}
FIELDS: dict[str, dict[str, Any]] = {
    "jq": _QUERY, "query_json": _QUERY, "query_yaml": _QUERY, "json_inspect": _SHAPE,
    "json_patch": _PATCH, "read_file": _LINES, "jq_suggest": _SUGGEST, "web_fetch": _FETCH,
    "web_search_brave": _SEARCH, "web_search_google": _SEARCH,
}


def output_schema(tool: str) -> dict[str, Any]:
    """The JSON Schema of every answer ``tool`` gives (success, failure or kept)."""
    properties = {"success": _described(_BOOL, "False when the call failed."),
                  **FIELDS.get(tool, {}), **_PAYLOAD, **_FAILURE, **_KEPT, **_NEXT}
    return {"type": "object", "properties": properties, "required": ["success"],
            "additionalProperties": False}
