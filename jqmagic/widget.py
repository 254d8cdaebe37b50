"""SchemaBrowser: a lazily expanded tree of a document's merged shape (stock ipywidgets only).

The tree is one ``Select`` whose rows are the visible nodes, indented by depth. Selecting a
row shows its JSON Pointer, jq path, types, presence and samples, and opens it; children
come ``page_size`` at a time behind an "N more" row. The filter box narrows keys; the
query box runs jq on the selected node, with bounded results and shape-aware hints.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
from traitlets import Int, Unicode, observe, validate

from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.pointers import jq_path, jq_step, parse_pointer, resolve, to_pointer
from jqmagic.core.shape import STREAM_THRESHOLD, shape
from jqmagic.core.shape.node import Node
from jqmagic.core.shape.source import open_source

MORE = " more"  # suffix of the key of an "N more" row
OTHER_KEYS = "<other keys>"
INDENT = "\u00a0\u00a0\u00a0"


@dataclass
class _Entry:
    """A node of the merged shape and how it is reached."""

    node: Node
    parent: str | None  # jq path of the parent, None for the root
    step: str | None  # key, or None for "[]"
    depth: int


class SchemaBrowser(widgets.VBox):
    """Browse the merged shape of a document; query any node with jq.

    >>> b = SchemaBrowser(value={"users": [{"name": "ada"}]})  # doctest: +SKIP
    >>> b.select(".users[].name")  # doctest: +SKIP
    """

    selected = Unicode("", help="jq path of the selected node").tag(sync=True)
    filter = Unicode("", help="only keys containing this text (case-insensitive)").tag(sync=True)
    query = Unicode("", help="jq filter run on the selected node").tag(sync=True)
    page_size = Int(50, help="children shown per page of a node").tag(sync=True)
    max_results = Int(20, help="query results shown at most").tag(sync=True)

    def __init__(self, source: Any = None, *, value: Any = None, file: Any = None,
                 text: str | None = None, path: str = "", value_given: bool = False,
                 stream: bool | None = None, stream_threshold: int = STREAM_THRESHOLD,
                 **kwargs: Any):
        given = {k: v for k, v in (("file", file), ("text", text)) if v is not None}
        if value is not None or value_given:
            given["value"] = value
        doc = open_source(Source.of(source, **given))
        parts = parse_pointer(path)
        self._doc = doc
        self._value: Any = None
        self._in_memory = not (doc.streamable and (stream or (
            stream is None and doc.size > stream_threshold)))
        if self._in_memory:
            self._value = doc.load()
            target, steps = resolve(self._value, parts)
            result = shape(value=target, stats=True, value_given=True)
            self._root_jq = _steps_jq(steps)
        else:
            result = shape(file=doc.spec, path=path, stats=True, stream=True)
            self._root_jq = "" if result.jq_path == "." else result.jq_path
        self._root_pointer = to_pointer(parts)
        self._root_steps = parts
        assert result.node is not None
        self._entries: dict[str, _Entry] = {self._root_jq or ".": _Entry(result.node, None,
                                                                        None, 0)}
        self._opened: dict[str, int] = {}  # jq path -> children shown
        self._syncing = False

        self.filter_box = widgets.Text(placeholder="filter keys", description="Filter")
        self.tree = widgets.Select(options=[], rows=16, layout=widgets.Layout(width="100%"))
        self.collapse_button = widgets.Button(description="Collapse", icon="minus")
        self.details = widgets.HTML()
        self.query_box = widgets.Text(placeholder="jq filter on the selected node, e.g. .name",
                                      description="jq")
        self.run_button = widgets.Button(description="Run", icon="play")
        self.results = widgets.HTML()
        super().__init__(children=[
            self.filter_box, self.tree, self.collapse_button, self.details,
            widgets.HBox([self.query_box, self.run_button]), self.results], **kwargs)
        widgets.link((self.filter_box, "value"), (self, "filter"))
        widgets.link((self.query_box, "value"), (self, "query"))
        self.tree.observe(self._on_tree, "value")
        self.collapse_button.on_click(lambda _: self.collapse(self.selected))
        self.run_button.on_click(lambda _: self.run_query())
        self.selected = self._root_key

    # -- the model ------------------------------------------------------------------------
    @property
    def _root_key(self) -> str:
        return self._root_jq or "."

    def _children(self, key: str) -> list[str]:
        """The jq paths of the children of ``key`` (registered on first use)."""
        entry = self._entries[key]
        node, base = entry.node, "" if key == "." else key
        found = []
        for k, child in (node.keys or {}).items():
            found.append(self._register(jq_step(base, k), child, key, k, entry.depth + 1))
        if node.extra is not None:
            found.append(self._register(f"{base}.{OTHER_KEYS}", node.extra, key, OTHER_KEYS,
                                        entry.depth + 1))
        if node.items is not None and node.items.count:
            found.append(self._register(jq_step(base, None), node.items, key, None,
                                        entry.depth + 1))
        return found

    def _register(self, key: str, node: Node, parent: str, step: str | None, depth: int
                  ) -> str:
        if key not in self._entries:
            self._entries[key] = _Entry(node, parent, step, depth)
        return key

    def _find(self, key: str) -> str:
        """Register ``key`` by walking down from the root; NOT_FOUND if it is no node."""
        if key in self._entries:
            return key
        queue = [self._root_key]
        while queue:
            here = queue.pop()
            for child in self._children(here):
                if child == key:
                    return key
                if key.startswith(child):
                    queue.append(child)
        raise JqMagicError("NOT_FOUND", f"no node {key} in this shape",
                           f"Nodes are jq paths such as {self._root_key}.")

    def rows(self) -> list[tuple[str, str]]:
        """The visible rows as ``(label, key)``: opened nodes' children, filtered and paged."""
        out: list[tuple[str, str]] = []
        self._rows_of(self._root_key, out, True)
        return out

    def _rows_of(self, key: str, out: list, force: bool) -> bool:
        """Add ``key`` and its visible subtree to ``out``; False if the filter hides it all."""
        entry = self._entries[key]
        mine: list[tuple[str, str]] = []
        if key in self._opened:
            children = self._children(key)
            shown, hidden = 0, 0
            for child in children:
                if shown >= self._opened[key]:
                    hidden += 1
                    continue
                sub: list[tuple[str, str]] = []
                if self._rows_of(child, sub, self._matches(child)):
                    mine += sub
                    shown += 1
            if hidden:
                mine.append((INDENT * (entry.depth + 1) + f"… {hidden} more", key + MORE))
        if not (force or mine):
            return False
        out.append((self._label(key), key))
        out += mine
        return True

    def _matches(self, key: str) -> bool:
        step = self._entries[key].step
        return not self.filter or (step is not None and self.filter.lower() in step.lower())

    def _label(self, key: str) -> str:
        entry = self._entries[key]
        node = entry.node
        name = key if entry.parent is None else ("[]" if entry.step is None else entry.step)
        container = bool(node.keys or node.extra or (node.items and node.items.count))
        mark = ("▾ " if key in self._opened else "▸ ") if container else INDENT[:2]
        kind = node.type_str()
        if node.keys is not None:
            n = len(node.keys) + node.extra_count
            kind += f" {{{n} key{'s' * (n != 1)}}}"
        if node.len_max is not None:
            kind += f" [{_range(node.len_min, node.len_max)}]"
        parent = self._entries[entry.parent].node if entry.parent else None
        if parent is not None and entry.step is not None and node.count < parent.objects:
            kind += f" ({node.count}/{parent.objects})"
        return f"{INDENT * entry.depth}{mark}{name}  {kind}"

    # -- actions (what the front end does, callable from Python) --------------------------
    def expand(self, key: str) -> None:
        """Open node ``key`` (its first page of children)."""
        key = self._find(key)
        self._opened.setdefault(key, self.page_size)
        self._refresh()

    def collapse(self, key: str) -> None:
        """Close node ``key``."""
        self._opened.pop(key, None)
        self._refresh()

    def more(self, key: str) -> None:
        """Show the next page of children of ``key``."""
        self._opened[key] = self._opened.get(key, 0) + self.page_size
        self._refresh()

    def select(self, key: str) -> None:
        """Select (and open) node ``key``, opening its ancestors."""
        self.selected = key

    @validate("selected")
    def _valid_key(self, proposal):
        return self._find(proposal["value"])

    @observe("selected")
    def _on_selected(self, change):
        key = change["new"]
        ancestor = self._entries[key].parent
        while ancestor is not None:
            self._opened.setdefault(ancestor, self.page_size)
            ancestor = self._entries[ancestor].parent
        node = self._entries[key].node
        if node.keys or node.extra or (node.items and node.items.count):
            self._opened.setdefault(key, self.page_size)
        self._refresh()
        self.details.value = self._details(key)

    @observe("filter")
    def _on_filter(self, change):
        self._refresh()

    def _on_tree(self, change):
        if self._syncing or change["new"] is None:
            return
        key = change["new"]
        if key.endswith(MORE) and key[: -len(MORE)] in self._entries:
            self.more(key[: -len(MORE)])
            return
        self.selected = key

    def _refresh(self) -> None:
        self._syncing = True
        try:
            self.tree.options = self.rows()
            keys = {k for _, k in self.tree.options}
            self.tree.value = self.selected if self.selected in keys else None
        finally:
            self._syncing = False

    # -- details and queries --------------------------------------------------------------
    def _steps(self, key: str) -> list[str | None]:
        steps: list[str | None] = []
        while self._entries[key].parent is not None:
            steps.append(self._entries[key].step)
            key = self._entries[key].parent  # type: ignore[assignment]
        return steps[::-1]

    def pointer(self, key: str) -> str:
        """A JSON Pointer to the first value at ``key`` (indices for ``[]``)."""
        steps = self._steps(key)
        if self._value is None or OTHER_KEYS in steps:
            return self._root_pointer + "".join(
                "/" + ("*" if s is None else s.replace("~", "~0").replace("/", "~1"))
                for s in steps)
        target, _ = resolve(self._value, self._root_steps)
        found = _first(target, steps)
        return self._root_pointer + (to_pointer(found) if found is not None else "")

    def _details(self, key: str) -> str:
        entry = self._entries[key]
        node = entry.node
        rows = [("JSON Pointer", self.pointer(key)), ("jq path", key),
                ("types", ", ".join(f"{t} ({node.types[t]})" for t in node.type_names()))]
        parent = self._entries[entry.parent].node if entry.parent else None
        if parent is not None and entry.step is not None:
            rows.append(("present in", f"{node.count} of {parent.objects} objects"))
        elif parent is not None:
            rows.append(("elements", str(node.count)))
        if node.len_max is not None:
            rows.append(("array length", _range(node.len_min, node.len_max)))
        if node.profile is not None:
            stats = node.profile.to_dict()
            if set(node.types) - {"object", "array", "null"}:
                rows.append(("distinct", f"{stats['distinct']}"
                             + (" (estimated)" if stats.get("distinctEstimated") else "")))
            for name in ("min", "max", "minLength", "maxLength"):
                if name in stats:
                    rows.append((name, json.dumps(stats[name])))
            if stats.get("samples"):
                rows.append(("samples", ", ".join(json.dumps(s, ensure_ascii=False)
                                                  for s in stats["samples"])))
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td><code>{html.escape(v)}</code></td></tr>" for k, v in rows)
        return f"<table>{body}</table>"

    def run_query(self) -> str:
        """Run the query box's filter on the selected node; show and return the text."""
        from jqmagic.core.query import query
        from jqmagic.core.shape.hints import hint_for

        if OTHER_KEYS in self.selected:
            return self._show("Untracked keys are merged; select a tracked node to query.")
        program = f"{self.selected} | ({self.query or '.'})"
        source = {"value": self._value, "value_given": True} if self._value is not None \
            else {"file": self._doc.spec}
        try:
            result = query(program, limit=self.max_results, **source)
        except JqMagicError as exc:
            hint = hint_for(program, self._value, error=exc.message) if self._value else ""
            return self._show(exc.render() + (f"\nShape: {hint}" if hint else ""), error=True)
        text = result.text if result.total else "Query returned no results"
        if result.message:
            text += "\n" + result.message
        if self._value is not None and not any(v is not None for v in result.values):
            hint = hint_for(program, self._value, results=result.values)
            text += f"\nShape: {hint}" if hint else ""
        return self._show(text)

    def _show(self, text: str, error: bool = False) -> str:
        from jqmagic.core.query.bounds import cut_text

        shown = cut_text(text, 20_000)
        color = "color:#b00;" if error else ""
        self.results.value = f"<pre style='{color}max-height:20em;overflow:auto'>" \
                             f"{html.escape(shown)}</pre>"
        return shown

    def __repr__(self) -> str:
        return f"<SchemaBrowser {self._root_key}: {len(self._entries)} nodes known>"


def _range(low: int | None, high: int | None) -> str:
    return str(high) if low == high else f"{low}..{high}"


def _steps_jq(steps: list[str | int]) -> str:
    path = jq_path(steps)
    return "" if path == "." else path


def _first(value: Any, steps: list[str | None], budget: list[int] | None = None
           ) -> list[str] | None:
    """Pointer tokens of the first value reached by ``steps`` (None for ``[]``)."""
    budget = [10_000] if budget is None else budget
    if not steps:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    step, rest = steps[0], steps[1:]
    if step is None:
        pairs = enumerate(value) if isinstance(value, list) else \
            value.items() if isinstance(value, dict) else ()
        for k, v in pairs:
            found = _first(v, rest, budget)
            if found is not None:
                return [str(k), *found]
        return None
    if isinstance(value, dict) and step in value:
        found = _first(value[step], rest, budget)
        return None if found is None else [step, *found]
    return None
