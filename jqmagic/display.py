"""Rich, bounded display of results in notebooks (``_repr_mimebundle_`` bundles).

Results hold data; this module renders it. Every mime type is bounded the same way, so a
saved notebook never holds megabytes of output: the whole result lives in the payload
store or in the variable named by ``-o``.
"""

from __future__ import annotations

import html
import json
from typing import Any

from jqmagic.core.query import QueryResult, progress
from jqmagic.core.settings import settings
from jqmagic.core.shape import ShapeResult
from jqmagic.core.web.fetch import FetchResult
from jqmagic.core.web.search import SearchResults


def escape_html(text: str) -> str:
    """Text for an HTML output: escaped, and ``$`` kept from MathJax (``$5 ... $20`` is
    money, not mathematics)."""
    return html.escape(text).replace("$", "&#36;")


def escape_markdown(text: str) -> str:
    """Text for a markdown output with every ``$`` literal (JupyterLab typesets ``$...$``)."""
    return text.replace("\\$", "$").replace("$", "\\$")


def _max_chars() -> int:
    return settings.max_tokens * 4


def bounded_text(text: str, message: str = "") -> str:
    """The text form: ``text`` cut to the token bound, then the one-line message."""
    from jqmagic.core.query.bounds import cut_text

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


TREE_LINES = 300


def shape_tree(result) -> str:
    """A shape as an indented text tree: names, types, array lengths and key presence."""
    if result.node is None or result.format != "shape":
        return result.text
    lines: list[str] = []
    _tree_lines(result.node, result.jq_path, result.depth, 0, 0, lines)
    if len(lines) > TREE_LINES:
        lines[TREE_LINES:] = [f"... {len(lines) - TREE_LINES:,} more lines: inspect a deeper "
                              "--path or lower --depth"]
    profiles = result.value.get("profiles") if isinstance(result.value, dict) else None
    if profiles:
        lines += ["", "Profiles:"] + [_profile_line(p, s) for p, s in profiles.items()]
    return "\n".join(lines)


def _tree_lines(node, name: str, depth: int, indent: int, of: int, lines: list[str]) -> None:
    if len(lines) > TREE_LINES:
        return
    label = f"{'  ' * indent}{name}  {node.type_str()}"
    if node.len_max is not None:
        low, high = node.len_min, node.len_max
        label += f" [{high}]" if low == high else f" [{low}..{high}]"
    if node.keys is not None:
        n = len(node.keys) + node.extra_count
        label += f" {{{n} key{'s' * (n != 1)}}}"
    if of and node.count < of:
        label += f"  ({node.count}/{of})"
    lines.append(label)
    if node.keys and depth > 0:
        for key, child in list(node.keys.items())[:100]:
            _tree_lines(child, key, depth - 1, indent + 1, node.objects, lines)
        if len(node.keys) > 100 or node.extra is not None:
            more = len(node.keys) - 100 + node.extra_count
            lines.append(f"{'  ' * (indent + 1)}... {max(more, node.extra_count):,} more keys")
    if node.items is not None and node.items.count:
        _tree_lines(node.items, "[]", depth, indent + 1, 0, lines)


def _profile_line(path: str, stats: dict) -> str:
    parts = [path, stats.get("types", "")]
    for name in ("count", "missing", "null", "distinct", "min", "max"):
        if name in stats:
            parts.append(f"{name} {json.dumps(stats[name])}")
    if "minLength" in stats:
        parts.append(f"length {stats['minLength']}..{stats['maxLength']}")
    if stats.get("samples"):
        parts.append("samples " + ", ".join(json.dumps(s, ensure_ascii=False)
                                            for s in stats["samples"]))
    return "  ".join(parts)


def shape_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.shape.ShapeResult`: a text tree, JSON for Lab."""
    bundle = {"text/plain": bounded_text(shape_tree(result))}
    mime, metadata = json_bundle(result.value)
    bundle.update(mime)
    return bundle, metadata


def fetch_note(result) -> str:
    """One line saying which lines of a fetched page are shown and how to read on."""
    if result.next_offset is None:
        return ""
    last = result.next_offset - 1
    return (f"Lines {result.offset:,}-{last:,} of {result.total_lines:,}. Read on with "
            f"--offset {result.next_offset}.")


def fetch_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.fetch.FetchResult`: markdown, or JSON for Lab."""
    note = fetch_note(result)
    if len(result.content) > _max_chars() and not note:
        note = (f"Truncated: the page has {result.total_lines:,} lines. Read it in parts "
                "with --offset N --limit M.")
    bundle = {"text/plain": bounded_text(result.content, note)}
    if result.value is not None:
        mime, metadata = json_bundle(result.value)
        bundle.update(mime)
        return bundle, metadata
    if result.content_type in ("text/html", "application/xhtml+xml"):
        head = f"**{result.title}** <{result.final_url}>\n\n" if result.title else ""
        bundle["text/markdown"] = escape_markdown(head + bounded_text(result.content, note))
    return bundle, {}


def search_bundle(result) -> tuple[dict, dict]:
    """The bundle of :class:`jqmagic.core.web.search.SearchResults`: a list of markdown links."""
    text = bounded_text(result.to_markdown())
    return {"text/plain": text, "text/markdown": escape_markdown(text)}, {}


# Result type -> the function that renders it; the faces add theirs here.
RENDERERS = {QueryResult: query_bundle, ShapeResult: shape_bundle, FetchResult: fetch_bundle,
             SearchResults: search_bundle}


class NotebookProgress(progress.Reporter):
    """Parsing progress as one output line that updates in place in the notebook."""

    def __init__(self) -> None:
        super().__init__()
        self._handle = None

    def show(self, text: str, done: bool) -> None:
        from IPython.display import display

        if self._handle is None:
            self._handle = display({"text/plain": text}, raw=True, display_id=True)
        else:
            self._handle.update({"text/plain": text}, raw=True)
        if done:
            self._handle = None


def register(ipython) -> None:
    """Teach IPython's display machinery to render jqmagic's result types, and show the
    parsing of big files as it happens."""
    formatter = ipython.display_formatter.mimebundle_formatter
    for result_type, render in RENDERERS.items():
        formatter.for_type(result_type, render)
    progress.reporter = NotebookProgress()
