"""Rich, bounded display of results in notebooks (``_repr_mimebundle_`` bundles).

Results hold data; this module renders it. Every mime type is bounded the same way, so a
saved notebook never holds megabytes of output: the whole result lives in the payload
store or in the variable named by ``-o``.
"""

from __future__ import annotations

import json
from typing import Any

from jqmagic.core.query import QueryResult
from jqmagic.core.settings import settings


def _max_chars() -> int:
    return settings.max_tokens * 4


def bounded_text(text: str, message: str = "") -> str:
    """The text form: ``text`` cut to the token bound, then the one-line message."""
    from jqmagic.core.bounds import cut_text

    shown = cut_text(text, _max_chars())
    if len(shown) < len(text) and not message:
        message = f"Truncated: showing {len(shown):,} of {len(text):,} characters."
    return f"{shown}\n{message}" if message and shown else shown or message


def json_bundle(data: Any) -> tuple[dict, dict]:
    """``application/json`` for JupyterLab's collapsible tree, when the data fits the bound."""
    if not isinstance(data, (dict, list)):
        return {}, {}
    if len(json.dumps(data, default=str)) > _max_chars():
        return {}, {}
    return {"application/json": data}, {"application/json": {"expanded": False, "root": "root"}}


def query_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.query.QueryResult`."""
    bundle = {"text/plain": bounded_text(result.text, result.message)}
    if result.raw or not result.values:
        return bundle, {}
    data = result.values[0] if len(result.values) == 1 else result.values
    mime, metadata = json_bundle(data)
    bundle.update(mime)
    return bundle, metadata


# Result type -> the function that renders it; the faces add theirs here.
RENDERERS = {QueryResult: query_bundle}


def register(ipython) -> None:
    """Teach IPython's display machinery to render jqmagic's result types."""
    formatter = ipython.display_formatter.mimebundle_formatter
    for result_type, render in RENDERERS.items():
        formatter.for_type(result_type, render)
