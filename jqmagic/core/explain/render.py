"""An explanation's views: indented text (terminal), collapsible HTML (JupyterLab), a
bounded dict (agents). Plain strings only: no IPython here."""

from __future__ import annotations

import copy
import html
import json
import re
from typing import Any

from jqmagic.core.explain.values import shown
from jqmagic.core.words import a, count

TEXT_LINES = 200  # lines of the text view at most
SHOWN_CHARS = 80  # a sample's text in the text view
AGENT_CHARS = 20_000  # the structured answer, as JSON, at most
HTML_DATA_CHARS = 60_000  # the data a notebook's view is drawn from (a saved notebook stays small)


class Explanation:
    """What :func:`jqmagic.explain` found; ``data`` is the whole (already bounded) answer."""

    def __init__(self, data: dict[str, Any]):
        self.data = data

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["data"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def text(self) -> str:
        return text_view(self.data)

    def __repr__(self) -> str:
        return self.text

    def to_dict(self, max_chars: int = AGENT_CHARS) -> dict[str, Any]:
        return bounded(self.data, max_chars)

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = {"text/plain": self.text,
                  "text/html": html_view(bounded(self.data, HTML_DATA_CHARS))}
        return {k: v for k, v in bundle.items()
                if (not include or k in include) and k not in (exclude or ())}


# ---------------------------------------------------------------- words


_LAST_WORD = re.compile(r"\s+\S{0,20}\Z")  # a cut backs up to a space at most 20 characters


def _cut(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` within ``limit`` characters, cut between words where one ends nearby."""
    if len(text) <= limit:
        return text
    return _LAST_WORD.sub("", text[:limit], count=1)[:limit - 1] + "…"


def _value(found: dict) -> str:
    path = found.get("path")
    at = f"  at {_path_text(path)}" if path is not None else ""
    return _cut(shown(found)) + at


def _path_text(path: list) -> str:
    """A path as jq writes it: ``.books[0].title``."""
    steps = [f".{step}" if isinstance(step, str) and step.isidentifier() and step.isascii()
             else f"[{json.dumps(step)}]" for step in path]
    text = "".join(steps)
    return text if text.startswith(".") else "." + text


def _null_how(how: str, found: dict) -> str:
    """``made``, or ``read (.a[2] is null or missing)`` for a path expression's null."""
    if how == "made":
        return "made"
    at = found.get("null_at")
    return f"read ({_path_text(at)} is null or missing)" if at is not None else "read"


def headline(data: dict) -> list[str]:
    """The few sentences that matter most: counts, the plain run, null and error origins."""
    same = "same as the plain run" if data["same_as_plain"] else \
        f"DIFFERENT from the plain run on {count(data['inputs_differing'], 'input')}: " \
        "trust the plain run"
    lines = [f"{count(data['inputs'], 'input')} -> {count(data['outputs'], 'output')} "
             f"({same}; {data['seconds']} s)"]
    if data.get("note"):
        lines.append(data["note"])
    origin = data.get("null_origin")
    while origin:
        lines.append(f"null first {_null_how(origin['how'], origin['input'])} at "
                     f"{origin['at']} `{_cut(origin['stage'], 60)}` ({origin['count']}x), "
                     f"from {_value(origin['input'])}"
                     + (f", itself made at {origin['input_made_at']}"
                        if origin.get("input_made_at") else ""))
        origin = origin.get("inside")
    error = data.get("error_origin")
    if error:
        lines.append(f"error raised at {error['at']} `{_cut(error['stage'], 60)}` on "
                     f"{_value(error['on'])}: {_cut(error['message'], 160)}")
    swallowed = data.get("swallowed")
    if swallowed:
        lines.append(f"{count(swallowed['count'], 'input')} dropped at {swallowed['at']} "
                     f"`{_cut(swallowed['stage'], 60)}`: an error was raised there and "
                     f"swallowed by {_guard(swallowed['stage'])} (on "
                     f"{_value(swallowed['on'])}: {_cut(swallowed['message'], 120)})")
    mismatch = data.get("mismatch")
    if mismatch:
        lines.append(_mismatch_line(mismatch))
    return lines


def _guard(stage: str) -> str:
    """What swallowed an error in ``stage``: ``try`` or ``?``."""
    return "`try`" if "try" in stage.split() else "`?`"


def _mismatch_line(found: dict) -> str:
    """A comparison between two types, said as a teacher would."""
    left, right, op = found["left"], found["right"], found["op"]
    why = ("values of different types are never equal" if op in ("==", "!=") else
           "jq orders different types by type (null < false < true < numbers < strings "
           "< arrays < objects), not by value")
    return (f"note: at {found['at']} `{_cut(found['left_text'], 40)} {op} "
            f"{_cut(found['right_text'], 40)}` {a(left)} was compared with "
            f"{a(right)} ({found['count']}x): {why}; convert one side first "
            "(tonumber, tostring)")


def _stage_lines(stages: list[dict], indent: str, computed: list[str],
                 prefix: str = "") -> list[str]:
    """The stages' lines; the numbers of the computed ones (not paths) go to ``computed``,
    said once under the stages."""
    lines = []
    for i, stage in enumerate(stages):
        counts = f"{stage['in']} -> {stage['out']}"
        extra = [words for _, words in _flags(stage)]
        if stage.get("path_expression") is False:
            computed.append(f"{prefix}{i + 1}")
        lines.append(f"{indent}{i + 1}. {_cut(stage['stage'], 70)}   {counts}"
                     + (f"   ({', '.join(extra)})" if extra else ""))
        pad = indent + "     "
        if stage.get("note"):
            lines.append(f"{pad}{stage['note']}")
        for key, word in (("samples_out", "out"), ("dropped_samples", "dropped"),):
            for found in stage.get(key, [])[:3]:
                lines.append(f"{pad}{word}: {_value(found)}")
        if stage.get("error"):
            lines.append(f"{pad}{_error_words(stage['error'], 120)}")
        if stage.get("swallowed_error"):
            lines.append(f"{pad}swallowed: {_cut(stage['swallowed_error']['message'], 120)}"
                         f" on {_value(stage['swallowed_error']['on'])}")
        if stage.get("mismatch"):
            found = stage["mismatch"]
            lines.append(f"{pad}{found['left']} {found['op']} {found['right']} on "
                         f"{_value(found['on'])}")
        if stage.get("null_from"):
            lines.append(f"{pad}{_null_words(stage)}")
        for branch in stage.get("branches", []):
            lines.append(f"{pad}+ {branch['name']} ("
                         f"{count(branch['sampled_inputs'], 'sampled input')}"
                         + (f"; {branch['partial']}" if branch.get("partial") else "") + ")")
            lines.extend(_stage_lines(branch["stages"], pad + "  ", computed,
                                      f"{prefix}{i + 1} > "))
    return lines


def text_view(data: dict) -> str:
    """The indented view a terminal shows (at most :data:`TEXT_LINES` lines)."""
    lines = [f"explain: {_cut(data['program'], 200)}", *headline(data), "stages:"]
    computed: list[str] = []
    lines.extend(_stage_lines(data["stages"], "  ", computed))
    if computed:
        lines.append(f"computed values (not paths in the input): stage "
                     f"{', '.join(computed)}")
    if data["results"]:
        lines.append("first results:")
        lines.extend(f"  {_value(found)}" for found in data["results"])
    if len(lines) > TEXT_LINES:
        cut = len(lines) - TEXT_LINES
        lines = lines[:TEXT_LINES] + [f"... {count(cut, 'more line')}: the structured answer "
                                      "(to_dict) holds every stage"]
    return "\n".join(lines)


# ---------------------------------------------------------------- html

_STYLE = """<style>
.jqx{font-family:var(--jp-code-font-family,monospace);font-size:12px}
.jqx .row{display:flex;flex-wrap:wrap;align-items:flex-start;gap:2px}
.jqx details.st{border:1px solid #9996;border-radius:4px;padding:2px 6px;max-width:360px}
.jqx .arrow{color:#888;padding:4px 2px;white-space:nowrap}
.jqx .bad{color:#c33}.jqx .null{color:#a60}.jqx .lead{margin:2px 0}
.jqx ul{margin:2px 0;padding-left:16px}.jqx .br{margin-left:10px}
</style>"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _stage_html(stage: dict) -> str:
    flags = [f"<span class='{kind}'>{_e(words)}</span>" if kind else _e(words)
             for kind, words in _flags(stage)]
    body = []
    for key, word in (("samples_in", "in"), ("samples_out", "out"),
                      ("dropped_samples", "dropped")):
        items = "".join(f"<li>{_e(_value(v))}</li>" for v in stage.get(key, []))
        if items:
            body.append(f"<div>{word}:<ul>{items}</ul></div>")
    if stage.get("null_from"):
        body.append(f"<div class='null'>{_e(_null_words(stage))}</div>")
    if stage.get("error"):
        body.append(f"<div class='bad'>{_e(_error_words(stage['error'], 200))}</div>")
    if stage.get("note"):
        body.append(f"<div>{_e(stage['note'])}</div>")
    for branch in stage.get("branches", []):
        partial = f"; {branch['partial']}" if branch.get("partial") else ""
        body.append(f"<details class='br'><summary>{_e(branch['name'])} "
                    f"({branch['sampled_inputs']} sampled{_e(partial)})</summary>"
                    f"{_row_html(branch['stages'])}</details>")
    extra = f" <small>{' · '.join(flags)}</small>" if flags else ""
    return (f"<details class='st'><summary><code>{_e(_cut(stage['stage'], 60))}</code>"
            f"{extra}</summary>{''.join(body)}</details>")


def _flags(stage: dict) -> list[tuple[str, str]]:
    """A stage's flags as both renderings list them, each (kind, words): kind "bad" for
    errors, "null" for nulls and types that differ (the HTML's colours), "" for drops."""
    flags = [("", f"{stage['dropped']} dropped")] if stage.get("dropped") else []
    if stage.get("errors"):
        flags.append(("bad", count(stage["errors"], "error")))
    flags += [("null", f"{count(stage[k], 'null')} {w}")
              for k, w in (("nulls_made", "made"), ("nulls_read", "read")) if stage.get(k)]
    if stage.get("swallowed"):
        flags.append(("bad", f"{stage['swallowed']} by an error swallowed by "
                             f"{_guard(stage['stage'])}"))
    if stage.get("mismatched"):
        flags.append(("null", f"types differ on {stage['mismatched']}"))
    return flags


def _null_words(stage: dict) -> str:
    """Where a stage's first null came from, in words (both renderings)."""
    how = _null_how("made" if stage.get("nulls_made") else "read", stage["null_from"])
    return f"null {how} from {_value(stage['null_from'])}"


def _error_words(error: dict, width: int) -> str:
    """A stage's error and the value it was raised on, its message cut to ``width``."""
    return f"error on {_value(error['on'])}: {_cut(error['message'], width)}"


def _row_html(stages: list[dict]) -> str:
    parts = []
    for stage in stages:
        parts.append(f"<span class='arrow'>{stage['in']} &rarr;</span>")
        parts.append(_stage_html(stage))
    if stages:
        parts.append(f"<span class='arrow'>&rarr; {stages[-1]['out']}</span>")
    return f"<div class='row'>{''.join(parts)}</div>"


def html_view(data: dict) -> str:
    """The pipeline left to right, counts on the arrows; click a stage for its values."""
    lead = "".join(f"<div class='lead'>{_e(line)}</div>" for line in headline(data))
    if data.get("cut") or data.get("stages_cut"):
        cut = ", ".join(data.get("cut", [])) + (f"; the last {count(data['stages_cut'], 'stage')}"
                                                if data.get("stages_cut") else "")
        lead += f"<div class='lead'>Not shown, to keep the notebook small: {_e(cut)}.</div>"
    results = "".join(f"<li>{_e(_value(v))}</li>" for v in data["results"])
    return (f"{_STYLE}<div class='jqx'><div class='lead'><b>explain</b> "
            f"<code>{_e(_cut(data['program'], 300))}</code></div>{lead}"
            f"{_row_html(data['stages'])}"
            + (f"<details><summary>first results</summary><ul>{results}</ul></details>"
               if results else "") + "</div>")


# ---------------------------------------------------------------- agents


def bounded(data: dict, max_chars: int = AGENT_CHARS) -> dict[str, Any]:
    """``data`` within ``max_chars`` of JSON: deeper branches, then samples, then stages
    are dropped (each cut said in ``cut``)."""
    out = copy.deepcopy(data)
    steps = [("branches beyond the first level", lambda s: _prune(s, 1)),
             ("every branch", lambda s: _prune(s, 0)),
             ("samples beyond the first", lambda s: _samples(s, 1)),
             ("every sample", lambda s: _samples(s, 0))]
    for what, step in steps:
        if len(json.dumps(out)) <= max_chars:
            return out
        for stage in out["stages"]:
            step(stage)
        out.setdefault("cut", []).append(what)
    while len(json.dumps(out)) > max_chars and len(out["stages"]) > 1:
        out["stages"].pop()
        out["stages_cut"] = out.get("stages_cut", 0) + 1
    return out


def _prune(stage: dict, depth: int) -> None:
    if depth == 0:
        stage.pop("branches", None)
        return
    for branch in stage.get("branches", []):
        for inner in branch["stages"]:
            _prune(inner, depth - 1)


def _samples(stage: dict, keep: int) -> None:
    for key in ("samples_in", "samples_out", "dropped_samples"):
        if key in stage:
            stage[key] = stage[key][:keep]
    for branch in stage.get("branches", []):
        for inner in branch["stages"]:
            _samples(inner, keep)
