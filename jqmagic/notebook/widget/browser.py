"""SchemaBrowser: the anywidget face of :mod:`jqmagic.core.browsing.model` (state in traits).

The view (``tree.js``, an ES module shipped in the package) draws only the rows in its
window and asks for others by setting ``window``; opening, selecting, searching and
running jq are trait changes too, so Python drives it exactly as the front end does.
Displayed, it also leaves a static HTML snapshot of the tree beside itself (updated as it
changes), which a saved notebook, nbviewer and nbconvert show; the live view hides it.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import anywidget
from traitlets import Bool, Dict, Int, List, Unicode, observe, validate

from jqmagic.core.browsing import jqbox
from jqmagic.core.browsing.model import Tree, build
from jqmagic.core.browsing.search import OTHER_KEYS
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.pointers import jq_path, parse_pointer, resolve, to_pointer
from jqmagic.core.shape import STREAM_THRESHOLD, memo, shape
from jqmagic.core.shape.node import Node
from jqmagic.core.shape.source import Doc, open_source
from jqmagic.notebook.widget import snapshot

HERE = Path(__file__).parent


class SchemaBrowser(anywidget.AnyWidget):
    """Browse the merged shape of a document as a tree; search it; query any node with jq.

    >>> b = SchemaBrowser(value={"users": [{"name": "ada"}]})  # doctest: +SKIP
    >>> b.select(".users[].name")  # doctest: +SKIP
    """

    _esm = HERE / "tree.js"
    _css = HERE / "tree.css"

    uid = Unicode(help="ties the view to its static snapshot").tag(sync=True)
    title = Unicode(help="what is browsed").tag(sync=True)
    source_word = Unicode(help="what is browsed as a %jq line names it (a file's path, a "
                          "variable's name; empty when there is none)").tag(sync=True)
    selected = Unicode(".", help="id (jq path) of the selected node").tag(sync=True)
    cursor = Int(0, help="row index of the selected node").tag(sync=True)
    opened = List(Unicode(), help="ids of the open nodes").tag(sync=True)
    window = List(Int(), [0, 80], help="first row and row count the view wants"
                  ).tag(sync=True)
    row_count = Int(0, help="visible rows in all").tag(sync=True)
    rows = List(Dict(), help="the rows of the window").tag(sync=True)
    details = List(List(), help="label/value pairs of the selected node").tag(sync=True)
    search = Unicode("", help="text searched in keys and values (in the kernel)"
                     ).tag(sync=True)
    search_more = Int(0, help="the view adds one to go on with a search that stopped early"
                      ).tag(sync=True)
    matches = List(Dict(), help="what the search found").tag(sync=True)
    search_note = Unicode("").tag(sync=True)
    hit = Dict(help="the match the view chose: copying and the jq box use its own path"
               ).tag(sync=True)
    query = Unicode("", help="jq filter run on the selected node").tag(sync=True)
    run_requests = Int(0, help="the view adds one to run the query").tag(sync=True)
    busy = Bool(False, help="a query is running").tag(sync=True)
    output = Unicode("", help="HTML of the last query's result").tag(sync=True)
    max_results = Int(20, help="query results shown at most").tag(sync=True)

    def __init__(self, source: Any = None, *, value: Any = None, file: Any = None,
                 text: str | None = None, path: str = "", value_given: bool = False,
                 stream: bool | None = None, stream_threshold: int = STREAM_THRESHOLD,
                 **kwargs: Any):
        given = {k: v for k, v in (("file", file), ("text", text)) if v is not None}
        if value is not None or value_given:
            given["value"] = value
        self._source = Source.of(source, **given)
        self._tree = _open(self._source, path, stream, stream_threshold)
        self._handle = None
        self._previews = jqbox.Previews(self._preview_answer,
                                        lambda m: self.send({"previewed": m}))
        kwargs.setdefault("title", _title(self._source))
        kwargs.setdefault("source_word", _source_word(self._source))
        super().__init__(uid=secrets.token_hex(8), **kwargs)
        self.opened = sorted(self._tree.first_view())
        self.selected = self._tree.root
        self._on_selected({"new": self.selected})
        self.on_msg(_answer_view)

    # -- the model's reactions -------------------------------------------------------------
    @validate("selected")
    def _valid_key(self, proposal):
        return self._tree.find(proposal["value"])

    @observe("selected")
    def _on_selected(self, change):
        key = change["new"]
        missing = [a for a in self._tree.ancestors(key) if a not in self._tree.opened]
        if missing:
            self.opened = [*self.opened, *missing]
        hit = self._chosen_hit()
        self.details = self._tree.details(key, hit)
        if self._tree.chosen != hit:  # the chosen hit's row shows the value found
            self._tree.chosen = hit
            self._on_window({"new": self.window})
        flat = self._tree.flat()
        self.cursor = flat.index(key) if key in flat else 0
        self._snapshot()

    @observe("hit")
    def _on_hit(self, change):
        if self.selected in (change["new"].get("id"), change["old"].get("id")):
            self._on_selected({"new": self.selected})  # another match of the same node

    @observe("opened")
    def _on_opened(self, change):
        self._tree.opened = {self._tree.find(k) for k in change["new"]}
        self._tree.changed()
        self._refresh()
        shown = self._tree.flat()
        # closed above the selection (not the default "." before a pointer's root is)
        if self.selected in self._tree.entries and self.selected not in shown:
            closed = [a for a in self._tree.ancestors(self.selected) if a in shown]
            if closed:
                self.selected = closed[0]

    @observe("window")
    def _on_window(self, change):
        start, count = (list(change["new"]) + [0, 80])[:2]
        self.rows = self._tree.rows(max(0, start), min(max(count, 1), 1000))

    @observe("search")
    def _on_search(self, change):
        self._search(more=False)

    @observe("search_more")
    def _on_search_more(self, change):
        self._search(more=True)

    def _search(self, more: bool) -> None:
        """Search (the first pass going on by itself, its progress in the note); a new
        search chooses its first match, so the details never show an old one."""
        def progress(note: str) -> None:
            self.search_note = note

        if not more and self.search.strip():  # the previous query's answer goes at once
            self.matches, self.search_note = [], "searching…"
        matches, note = self._tree.search(self.search.strip(), more=more, progress=progress)
        self.matches, self.search_note = matches, note
        self.opened = sorted(self._tree.opened)
        self._refresh()
        if more and self._chosen_hit():
            return
        hit = matches[0] if matches else {}
        self.hit = hit  # its details follow (_on_hit) when it is on the selected node
        if hit and hit["id"] != self.selected:
            self.selected = hit["id"]

    def _chosen_hit(self) -> dict:
        """The match the view chose, while its node is selected; else {}."""
        return self.hit if self.hit.get("id") == self.selected else {}

    @observe("run_requests")
    def _on_run(self, change):
        self.run_query()

    def _refresh(self) -> None:
        flat = self._tree.flat()
        self.row_count = len(flat)
        self.cursor = flat.index(self.selected) if self.selected in flat else 0
        self._on_window({"new": self.window})
        self._snapshot()

    # -- actions (what the view does, callable from Python) --------------------------------
    def select(self, key: str) -> None:
        """Select node ``key`` (a jq path), opening its ancestors."""
        self.selected = key

    def expand(self, key: str) -> None:
        """Open node ``key``."""
        key = self._tree.find(key)
        if key not in self.opened:
            self.opened = [*self.opened, key]

    def collapse(self, key: str) -> None:
        """Close node ``key``."""
        self.opened = [k for k in self.opened if k != key]

    def pointer(self, key: str) -> str:
        """A JSON Pointer to the first value at node ``key``."""
        return self._tree.pointer(self._tree.find(key))[0]

    def search_on(self) -> None:
        """Go on with a search that stopped early (what Enter does again in the view)."""
        self.search_more += 1

    def choose(self, index: int) -> None:
        """Select match number ``index`` of the search (what n / N do in the view)."""
        match = self.matches[index]
        self.hit = match
        self.selected = match["id"]

    def run_query(self) -> str:
        """Run the ``query`` filter on the selected node; show and return the text."""
        from jqmagic.core.query.bounds import cut_text

        self.busy = True
        try:
            text, html, _ = self._run(self.query, self.selected, self._chosen_hit())
        finally:
            self.busy = False
        self.output = html
        return cut_text(text, 20_000)

    def offers(self, text: str, cursor: int | None = None) -> dict:
        """What the jq box offers at ``cursor`` (default: the end) of ``text``, from the
        selected node's shape: ``{"start", "end", "items": [{"text", "kind", "type"}]}``."""
        return jqbox.offered(self._tree.entries[self._tree.find(self.selected)].node, text,
                             cursor)

    def preview(self, text: str) -> dict:
        """The live preview of ``text`` on the selected node (what the view shows as the
        user types): ``html`` and ``status`` (the count), or ``error`` and its
        ``column`` in ``text``; ``on``, the path it ran on."""
        return self._preview_answer({"text": text, "key": self.selected,
                                     "hit": self._chosen_hit()})

    def _preview_answer(self, request: dict) -> dict:
        """The preview of ``request``, carrying the program and the node it ran on (the
        view draws it only while both are still the box's and the selection's), and what
        it ran on (the chosen match's own path, or the node's)."""
        asked = {"program": request["text"], "node": request["key"],
                 "on": request["hit"].get("path") or request["key"]}
        return asked | self._preview_outcome(request)

    def _preview_outcome(self, request: dict) -> dict:
        text, html, outcome = self._run(request["text"], request["key"], request["hit"],
                                         timeout=jqbox.PREVIEW_TIMEOUT)
        if isinstance(outcome, JqMagicError):
            typed = request["text"]
            column = jqbox.caret_column(outcome, typed.strip())
            if column is not None:  # in the box's text, before its blanks were trimmed
                column += len(typed) - len(typed.lstrip())
            return {"error": text, "column": column}
        if outcome is None:
            return {"error": text, "column": None}
        return {"html": html, "status": jqbox.status(outcome.total, len(outcome.values),
                                                     outcome.elapsed)}

    def _run(self, typed: str, key: str, hit: dict, timeout: float | None = None
             ) -> tuple[str, str, Any]:
        """``typed`` run on node ``key`` (or on the chosen ``hit`` of it): the text, its
        HTML, and the result or the error (None when the node cannot be queried)."""
        from jqmagic.core.query import query
        from jqmagic.core.query.run import preview
        from jqmagic.notebook.display import (
            hint_first,
            note_html,
            page_html,
            payload_words,
            pre_html,
            results_html,
        )

        if OTHER_KEYS in key:
            text = "Keys past the tracked ones are merged; select a tracked node to query."
            return text, page_html(note_html(text)), None
        program = typed.strip() or "."
        node = hit.get("path") or key
        end = "\n)" if "#" in program else ")"  # a comment must not swallow the ")"
        whole = program if node == "." else f"{node} | ({program}{end}"
        # a preview (it has a time bound) stores no payload: it is redrawn at the next key
        run = preview if timeout else query
        bounds = {"limit": self.max_results} | ({"timeout": timeout} if timeout else {})
        try:
            if hit.get("path") and self._source.kind == "value":
                # the hit's own value, held here: the program on it alone means the same
                # and sends the worker a few bytes, not the whole variable again
                result = run(program, value=self._tree.at(hit["pointer"]), **bounds)
                whole = program
            else:
                result = run(whole, self._source, **bounds)
        except JqMagicError as exc:
            error = _own_error(exc, program) if whole != program else exc
            text = error.render()
            return text, page_html(f"<div class='jqmagic-error'>{pre_html(text)}</div>"), \
                error
        message = hint_first(payload_words(result.message))
        body = results_html(result.printed, result.total, 20_000) if result.total else ""
        text = "\n".join(filter(None, [result.text, message]))
        return text, page_html(note_html(message) if message else "", body), result

    # -- display: the live view, and its static snapshot -----------------------------------
    def snapshot_html(self) -> str:
        """The tree as it is open now, with the selected node's details, as static HTML."""
        return snapshot.html(self._tree, self.selected, self.title, self.uid)

    def _snapshot(self) -> None:
        if self._handle is not None:
            self._handle.update(self._snapshot_bundle(), raw=True)

    def _snapshot_bundle(self) -> dict:
        return {"text/plain": snapshot.text(self._tree, self.selected, self.title),
                "text/html": self.snapshot_html()}

    def _ipython_display_(self) -> None:
        from IPython.display import display

        bundle = self._repr_mimebundle_()
        display(bundle[0] if isinstance(bundle, tuple) else bundle, raw=True)
        self._handle = display(self._snapshot_bundle(), raw=True, display_id=True)

    def __repr__(self) -> str:  # what a front end without widgets shows: never stale
        return f"<SchemaBrowser of {self.title}: a live tree (run the cell to browse it)>"


def _open(source: Source, path: str, stream: bool | None, threshold: int) -> Tree:
    """The tree of ``source`` (at JSON Pointer ``path``): in memory, or streamed when big."""
    doc = open_source(source)
    parts = parse_pointer(path)
    if doc.streamable and (stream or (stream is None and doc.size > threshold)):
        result = shape(file=doc.spec, path=path, stats=True, stream=True, jsonl=doc.lines)
        assert result.node is not None
        node = result.node.items if doc.lines and result.node.items else result.node
        return Tree(node, inputs=doc.lines, root_jq=result.jq_path,
                    root_pointer=result.path)
    if doc.kind == "file" and not isinstance(doc.spec, list):  # kept per file version
        node, value, inputs, steps = memo.kept(
            doc.spec, ("browse", doc.fmt, path), lambda: _loaded(doc, parts))
    else:
        node, value, inputs, steps = _loaded(doc, parts)
    return Tree(node, value=value, inputs=inputs, root_jq=jq_path(steps),
                root_pointer=to_pointer(parts))


def _loaded(doc: Doc, parts: list[str]) -> tuple[Node, Any, bool, list]:
    """The merged shape of the document at ``parts``, the value there, whether it is a
    stream of inputs, and the steps to it."""
    values = doc.values()
    inputs = len(values) != 1 or doc.lines
    targets, steps = [], []
    for value in values:
        target, steps = resolve(value, parts)
        targets.append(target)
    value = targets if inputs else targets[0]
    return build(value, inputs), value, inputs, steps


def _own_error(wrapped: JqMagicError, program: str) -> JqMagicError:
    """The error of the user's own program when it does not compile alone (never one in
    the wrapped program the user did not type); else the wrapped program's error."""
    from jqmagic.core.query import query

    if wrapped.code != "INVALID_QUERY":
        return wrapped
    try:
        query(program, null_input=True, limit=1, timeout=2.0)
    except JqMagicError as own:
        if own.code == "INVALID_QUERY":
            return own
    return wrapped


def _answer_view(widget: SchemaBrowser, content: Any, buffers: Any) -> None:
    """The view asks now and then whether its kernel still holds the tree; as the user
    types in the jq box, what may come next (answered at once) and a preview (in the
    preview thread), each answer tagged with the generation that asked it."""
    if not isinstance(content, dict):
        return
    if "ping" in content:
        widget.send({"pong": content["ping"]})
    asked = content.get("complete")
    if isinstance(asked, dict):
        cursor = asked.get("cursor")
        answer = widget.offers(str(asked.get("text", "")),
                               cursor if isinstance(cursor, int) else None)
        widget.send({"offered": {"gen": asked.get("gen"), **answer}})
    asked = content.get("preview")
    if isinstance(asked, dict) and isinstance(asked.get("gen"), int):
        widget._previews.ask({"gen": asked["gen"], "text": str(asked.get("text", "")),
                              "key": widget.selected, "hit": widget._chosen_hit()})


def _title(source: Source) -> str:
    if source.kind == "value":
        return _variable_name(source.spec) or "a Python value"
    spec = source.spec
    return str(spec if not isinstance(spec, list) else f"{len(spec)} files")[:200]


def _source_word(source: Source) -> str:
    """How a %jq line names ``source``: a file's path or a variable's name, quoted as a
    shell (and the magic) reads it; "" for anything else."""
    import shlex

    if source.kind == "value":
        return _variable_name(source.spec) or ""
    if source.kind == "file" and not isinstance(source.spec, list):
        return shlex.quote(str(source.spec))
    return ""


def _variable_name(value: Any) -> str | None:
    """The one name the notebook's namespace gives ``value`` (``big`` in ``%inspect big
    --browse``), when there is exactly one and IPython runs."""
    import sys

    if "IPython" not in sys.modules or isinstance(value, (str, int, float, bool)) or \
            value is None:
        return None
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return None
    hidden = shell.user_ns_hidden
    names = [name for name, bound in list(shell.user_ns.items())
             if bound is value and not name.startswith("_") and name not in hidden]
    return names[0] if len(names) == 1 else None
