"""Rich, bounded display of results in notebooks (``_repr_mimebundle_`` bundles).

Results hold data; this module renders it. A query shows jq's own text for each result of
a stream (never one array), with the truncation line, payload id and hints always in
view; JupyterLab's JSON viewer only with ``--to json``, and then beside that line. Every
mime type is bounded the same way, so a saved notebook never holds megabytes of output:
the whole result lives in the payload store or in the variable named by ``-o``.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from jqmagic.core.query import QueryResult, progress
from jqmagic.core.settings import settings
from jqmagic.core.shape import ShapeResult
from jqmagic.core.shape.tree import shape_tree
from jqmagic.core.web.fetch import FetchResult
from jqmagic.core.web.search import SearchResults
from jqmagic.core.words import count

# MathJax leaves this class's subtree alone (JupyterLab, Notebook 7, nbconvert's HTML).
NO_MATH = "tex2jax_ignore mathjax_ignore"
OPEN_LINES = 120  # a stream of more lines than this in all shows each result as a preview
BOX_LINES = 12  # a result open with more lines than this scrolls in a box
PREVIEW_CHARS = 160  # a folded result's one-line preview
_BOX = "max-height:32em;overflow:auto;flex:1;min-width:0"  # a long result open: scrolls
_PRE = "margin:0;padding:2px 6px;white-space:pre-wrap;overflow-wrap:break-word"
_CODE = "display:inline-block;max-width:100%;white-space:pre-wrap;overflow-wrap:break-word"
_NOTE = "padding:3px 6px;border-left:3px solid #c08400;background:rgba(192,132,0,.08)"


def escape_html(text: str) -> str:
    """Text for an HTML output: escaped, and ``$`` kept from MathJax (``$5 ... $20`` is
    money, not mathematics)."""
    return html.escape(text).replace("$", "&#36;")


def escape_markdown(text: str) -> str:
    """Text for a markdown output with every ``$`` literal (JupyterLab typesets ``$...$``)."""
    return text.replace("\\$", "$").replace("$", "\\$")


def markdown_block(text: str) -> str:
    """Markdown with every ``$`` literal, inside a block MathJax leaves alone (JupyterLab
    unescapes ``\\$`` before it typesets, so escaping alone is not enough)."""
    return f"<div class='{NO_MATH}'>\n\n{escape_markdown(text)}\n\n</div>"


def _max_chars() -> int:
    return settings.max_tokens * 4


def bounded_text(text: str, message: str = "") -> str:
    """The text form: ``text`` cut to the token bound, then the one-line message."""
    from jqmagic.core.query.bounds import cut_text

    shown = cut_text(text, _max_chars())
    if len(shown) < len(text) and not message:
        message = f"Truncated: showing {len(shown):,} of {len(text):,} characters."
    return f"{shown}\n{message}" if message and shown else shown or message


_UNBROKEN = re.compile(r"(%jq \. --payload [0-9a-f]+)|(?<!\S)(--[a-z][a-z-]*)")


def _unbroken(text: str) -> str:
    """The payload's command in code and each ``--option`` on one line: a browser breaks a
    line after a hyphen (``%jq . --`` / ``payload ID`` in a narrow note)."""
    return _UNBROKEN.sub(lambda found: f"<code style='{_CODE}'>{found[1]}</code>" if found[1]
                         else f"<span style='white-space:nowrap'>{found[2]}</span>", text)


def note_html(message: str) -> str:
    """The bound line (truncation, payload, hints) as an HTML block that stands out; a
    program between backquotes in code that moves to the next line whole rather than
    break (it breaks only where it is wider than the note), and so does the payload's
    command."""
    parts = escape_html(message).split("`")
    if len(parts) % 2 == 0:  # an odd backquote: no code spans
        parts = ["`".join(parts)]
    text = "".join(f"<code style='{_CODE}'>{part}</code>" if index % 2 else _unbroken(part)
                   for index, part in enumerate(parts))
    return f"<div class='jqmagic-note' style='{_NOTE}'>{text}</div>"


def page_html(*parts: str) -> str:
    """HTML parts in one block MathJax leaves alone."""
    return f"<div class='jqmagic {NO_MATH}'>{''.join(parts)}</div>"


def pre_html(text: str) -> str:
    return f"<pre style='{_PRE}'>{escape_html(text)}</pre>"


def json_bundle(data: Any, expanded: bool = False) -> tuple[dict, dict]:
    """``application/json`` for JupyterLab's collapsible tree, when the data fits the bound:
    opened all the way down, or only its first level."""
    if not isinstance(data, (dict, list)):
        return {}, {}
    if len(json.dumps(data, default=str)) > _max_chars():
        return {}, {}
    return {"application/json": data}, {"application/json": {"expanded": expanded,
                                                             "root": "root"}}


VIEWER_LINES = 200  # --to json opens its values all the way down: as many as fit these lines


def _lines(value: Any) -> int:
    return json.dumps(value, indent=1, default=str).count("\n") + 1


def opened(values: list[Any]) -> list[Any]:
    """The first of ``values`` whose indented JSON fits :data:`VIEWER_LINES` (one at least):
    JupyterLab's viewer opens a node all the way down or not at all, and a hundred closed
    rows named 0 to 99 show nothing."""
    kept, lines = [], 0
    for value in values:
        lines += _lines(value)
        if kept and lines > VIEWER_LINES:
            break
        kept.append(value)
    return kept


def preview(text: str, width: int = PREVIEW_CHARS) -> str:
    """A result's text on one line (jq's lines joined: no JSON string holds a newline)."""
    line = " ".join(part.strip() for part in text.split("\n"))
    return line if len(line) <= width else line[: width - 1] + "…"


def results_html(printed: list[str], total: int, budget: int) -> str:
    """jq's text of each result, one block each (a stream never looks like an array). What
    folds depends on size alone, never on a result's place: a single result is open (in a
    box that scrolls when it is long); a stream whose shown results take more than
    OPEN_LINES lines in all shows every result of several lines folded behind a one-line
    preview (each says its length), a shorter stream shows them all open. At most about
    ``budget`` characters of text, and of HTML: each block's tags count too (300,000
    one-number results made 9 MB of HTML from 200,000 characters of text); a line says
    how many results past the bound are left out."""
    texts, used = [], 0
    for text in printed:
        if used >= budget:
            break
        if len(text) > budget - used:
            text = text[: budget - used] + "\n… (cut here: the output's bound)"
        used += len(text)
        texts.append(text)
    stream = total > 1
    fold = stream and sum(text.count("\n") + 1 for text in texts) > OPEN_LINES
    blocks, size = [], 0
    for index, text in enumerate(texts):
        block = _block(index, text, stream, fold)
        size += len(block)
        if blocks and size > 2 * budget:  # the text's bound, and as much again of tags
            break
        blocks.append(block)
    if len(blocks) < len(printed):
        blocks.append(f"<div style='color:#888'>… {len(printed) - len(blocks):,} more "
                      "past the output's bound (-o VAR keeps every result)</div>")
    head = ""
    if stream:
        folded = "; those of several lines folded behind a preview" if fold else ""
        head = (f"<div style='color:#888'>{total:,} results (a stream: one value per "
                f"block{folded})</div>")
    return head + "".join(blocks)


def _block(index: int, text: str, stream: bool, fold: bool) -> str:
    """Result ``index`` of ``results_html``: numbered in a stream, folded behind a preview
    when ``fold`` and it has several lines, in a box that scrolls when it is long."""
    label = (f"<span style='color:#888;user-select:none;min-width:3em;display:inline-block'>"
             f"{index + 1}</span>") if stream else ""
    lines = text.count("\n") + 1
    if fold and lines > 1:
        return (f"<details class='jqmagic-result'><summary>{label}<code>"
                f"{escape_html(preview(text))}</code> <span style='color:#888'>"
                f"{lines:,} lines</span></summary>{pre_html(text)}</details>")
    style = "display:flex;border-top:1px solid rgba(128,128,128,.2)" if stream else ""
    box = f"<div style='{_BOX}'>{pre_html(text)}</div>" if lines > BOX_LINES else pre_html(text)
    return f"<div class='jqmagic-result' style='{style}'>{label}{box}</div>"


_PAYLOAD_PATH = re.compile(r"payload ([0-9a-f]{8,64}) \([^()]*\)")


def payload_words(message: str) -> str:
    """A bound line's payload named by its id and the magic that reads it, not by this
    machine's path (a saved or shared notebook shows no home folder)."""
    return _PAYLOAD_PATH.sub(
        lambda found: f"payload {found[1]} (read it with %jq . --payload {found[1]})",
        message)


def hint_first(message: str) -> str:
    """The bound line with a "did you mean" hint moved to the front (it answers the
    question the user has; the truncation and payload come after)."""
    head, found, hint = message.partition(" Hint: ")
    if not found or "did you mean" not in hint:
        return message
    return f"Hint: {hint} {head}"


def query_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.query.QueryResult`: jq's text (plain), and the
    same per result in HTML with the bound line above it."""
    message = hint_first(result.message)
    text = bounded_text(result.text, message)
    printed = result.printed or ([result.text] if result.text else [])
    note = note_html(message) if message else ""
    return {"text/plain": text,
            "text/html": page_html(note, results_html(printed, result.total,
                                                      _max_chars()))}, {}


class JsonView:
    """``--to json``: JupyterLab's JSON viewer for the values, with the bound line in its
    own output beside it (the viewer shows nothing else)."""

    def __init__(self, result) -> None:
        self.result = result

    def _ipython_display_(self) -> None:
        from IPython.display import display

        result = self.result
        single = len(result.values) == 1
        if single:
            data = result.values[0]
            expanded = _lines(data) <= VIEWER_LINES  # else its keys, each closed
        else:
            data, expanded = opened(result.values), True
        mime, metadata = json_bundle(data, expanded)
        if not mime or result.raw:  # a scalar, raw text, or over the bound: the plain view
            display(query_bundle(result)[0], raw=True)  # its bound line in it, once
            return
        message = hint_first(result.message) if result.message else ""
        if not single and len(data) < len(result.values):
            message = (f"{message} " if message else "") + (
                f"The viewer opens the first {count(len(data), 'result')} of the "
                f"{len(result.values):,} shown; without --to json each is listed.")
        if message:
            display({"text/plain": message, "text/html": page_html(note_html(message))},
                    raw=True)
        display({"text/plain": bounded_text(result.text), **mime}, metadata=metadata, raw=True)

    def __repr__(self) -> str:
        return repr(self.result)


def shape_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.shape.ShapeResult`: the readable text tree, in
    plain text and in HTML (the raw record is ``result.value``, or ``-o VAR``)."""
    text = bounded_text(shape_tree(result))
    return {"text/plain": text, "text/html": page_html(pre_html(text))}, {}


def fetch_note(result) -> str:
    """One line saying which lines of a fetched page are shown and how to read on (nothing
    when the page is shown whole)."""
    total = result.total_lines
    if result.offset == 1 and result.next_offset is None:
        return ""
    if result.offset > total:
        return f"The page has {total:,} lines: nothing from line {result.offset:,} on."
    last = result.next_offset - 1 if result.next_offset else total
    more = f"Read on with --offset {result.next_offset}." if result.next_offset else \
        "The end of the page."
    return f"Lines {result.offset:,}-{last:,} of {total:,}. {more}"


def comments_note(result) -> str:
    """One line saying a fetched page has reader comments, how much, and where they are
    (the body leaves them out); nothing when it has none."""
    if not result.comments:
        return ""
    lines = result.comments.count("\n") + 1
    return (f"The page has reader comments ({len(result.comments):,} characters, "
            f"{lines:,} lines), not in the body: the result's `.comments` has them "
            "(markdown; `_.comments` just after %webfetch).")


def fetch_bundle(result) -> tuple[dict, dict]:
    """The bundle of a :class:`jqmagic.core.fetch.FetchResult`: markdown for a page (the
    line saying which lines these are and how to read on heads it, a paragraph of its
    own, then the line saying it has comments), jq's text for JSON (that line above it)."""
    note = fetch_note(result)
    if len(result.content) > _max_chars() and not note:
        note = (f"Truncated: the page has {result.total_lines:,} lines. Read it in parts "
                "with --offset N --limit M.")
    if comments := comments_note(result):
        note = f"{note} {comments}" if note else comments
    bundle = {"text/plain": result.heading() + bounded_text(result.content, note)}
    if result.value is not None:
        from jqmagic.core.query.bounds import cut_text

        shown = pre_html(cut_text(result.content, _max_chars()))
        bundle["text/html"] = page_html(note_html(note) if note else "", shown)
    elif result.content_type in ("text/html", "application/xhtml+xml"):
        head = f"**{result.title}** <{result.final_url}>\n\n" if result.title else ""
        marker = f"*{note}*\n\n" if note else ""
        bundle["text/markdown"] = markdown_block(head + marker + bounded_text(result.content))
    return bundle, {}


def search_bundle(result) -> tuple[dict, dict]:
    """The bundle of :class:`jqmagic.core.web.search.SearchResults`: a list of markdown links."""
    text = bounded_text(result.to_markdown())
    return {"text/plain": text, "text/markdown": markdown_block(text)}, {}


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
    progress.report_to(NotebookProgress())
