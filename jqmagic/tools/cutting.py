"""Small, honest copies of big values: cut by depth, width and string length, each cut
saying what it left out (the previews and shapes every bounded answer shows)."""

from __future__ import annotations

from typing import Any

from jqmagic.core.shape import jq_schema
from jqmagic.core.words import json_text

SCHEMA_CHARS = 4_000  # a schema longer than this is cut by depth and width


def schema_of(value: Any) -> Any:
    """``value``'s jqschema, cut by depth and width (``"… N more keys"``) when it is long:
    the schema of a map with thousands of distinct keys is as big as the map."""
    schema = jq_schema(value)
    if len(json_text(schema)) <= SCHEMA_CHARS:
        return schema
    return cut_value(schema)


def cut_value(value: Any, depth: int = 4, width: int = 8, chars: int = 200) -> Any:
    """A small copy of ``value``: at most ``depth`` levels, ``width`` members of each
    container and ``chars`` characters of each string (keys too); what was cut says so
    (``"… 353 more"``), so the copy stays valid JSON and honest."""
    if isinstance(value, str):
        return value if len(value) <= chars else f"{value[:chars]}… ({len(value) - chars:,} " \
            "more characters)"
    if not isinstance(value, (dict, list)):
        return value
    if depth == 0:
        return f"… ({'object' if isinstance(value, dict) else 'array'} of {len(value):,})"
    if isinstance(value, list):
        kept = [cut_value(v, depth - 1, width, chars) for v in value[:width]]
        return kept + ([f"… {len(value) - width:,} more"] if len(value) > width else [])
    items = list(value.items())
    out = {}
    for key, item in items[:width]:
        name = cut_value(key, depth, width, chars)
        out[name if name not in out else f"{name} ({len(out)})"] = \
            cut_value(item, depth - 1, width, chars)
    if len(items) > width:
        out["…"] = f"{len(items) - width:,} more keys"
    return out
