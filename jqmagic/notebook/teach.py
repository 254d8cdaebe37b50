"""Check a learner's jq answer against the expected result: a friendly diff and a hint.

>>> check(".name", "ada", value={"name": "ada"}).passed
True
>>> check("[.[] | . * 2]", [2, 4], value=[1, 2]).passed
True
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core.errors import JqMagicError
from jqmagic.core.words import a, count, json_equal, preview
from jqmagic.notebook.display import NO_MATH, escape_html

MAX_DIFF_LINES = 40
_OK = "\u2714"
_NO = "\u2718"
_TODO = "\u270e"
NOTHING = "(nothing: an empty stream)"  # what the diff shows for no output at all


@dataclass
class CheckResult:
    """The verdict on one answer: passed or not, what it gave, and what to try next."""

    answer: str
    expected: Any
    passed: bool
    got: list[Any] = field(default_factory=list)
    outputs: bool = False  # True when ``expected`` lists every output of the filter
    notes: list[str] = field(default_factory=list)  # what differs, in words
    diff: str = ""
    hint: str = ""
    error: str = ""

    @property
    def text(self) -> str:
        """The verdict as plain text (what a terminal or a saved notebook shows)."""
        if self.passed:
            return f"{_OK} Correct: {self.answer}"
        if not self.answer.strip():
            return (f"{_TODO} Your turn: write your jq filter in answer = '...' and run the "
                    "cell.")
        lines = [f"{_NO} Not yet: {self.answer}"]
        if self.error:
            lines.append(self.error)
        lines += self.notes
        if self.diff:
            lines += ["Expected (-) and yours (+), line by line:", self.diff]
        if self.hint:
            lines.append(f"Hint: {self.hint}")
        return "\n".join(lines)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict:
        color = "#1a7f37" if self.passed else "#b35900"
        body = [f"<div style='color:{color};font-weight:bold'>"
                f"{escape_html(self.text.splitlines()[0])}</div>"]
        if not self.passed:
            if self.error:
                body.append(f"<pre style='color:#b00'>{escape_html(self.error)}</pre>")
            body += [f"<div>{escape_html(note)}</div>" for note in self.notes]
            if self.diff:
                body.append("<div>" + _diff_line_html("- expected") + ", "
                            + _diff_line_html("+ yours") + ", line by line:</div>")
                body.append("<pre>" + "\n".join(_diff_line_html(line)
                                                for line in self.diff.splitlines()) + "</pre>")
            if self.hint:
                body.append(f"<div><b>Hint:</b> {escape_html(self.hint)}</div>")
        return {"text/plain": self.text,
                "text/html": f"<div class='{NO_MATH}'>{''.join(body)}</div>"}


def check(answer: str, expected: Any, source: Any = None, *, hint: str = "",
          outputs: bool = False, **query_kwargs: Any) -> CheckResult:
    """Run the jq filter ``answer`` and compare what it gives with ``expected``.

    Args:
        answer: the learner's jq filter.
        expected: the value the filter should give. With ``outputs=True`` it is the list
            of every output instead (for filters that give a stream, like ``.[]``).
        source: the input, as for :func:`jqmagic.query` (also ``value=``, ``file=``,
            ``text=``, ``args=``, ``null_input=``, ``slurp=``, ...).
        hint: shown when the answer is not right yet.

    Returns:
        A :class:`CheckResult`; it displays as a verdict, a diff and the hint, and is
        truthy when the answer is right. A filter that fails to compile or run is reported
        in the result, never raised.
    """
    from jqmagic.core.query import query

    if outputs and not isinstance(expected, (list, tuple)):
        raise TypeError("with outputs=True, expected is the list of every output")
    if not answer.strip():
        return CheckResult(answer, expected, False, outputs=outputs)
    query_kwargs.setdefault("timeout", 10.0)
    try:
        result = query(answer, source, passthrough=True, **query_kwargs)
    except JqMagicError as exc:
        # one hint line: jq's own (what the error means), then the exercise's
        return CheckResult(answer, expected, False, outputs=outputs,
                           hint=_sentences(exc.hint, hint),
                           error=_error_text(exc, answer))
    got = result.values
    want = list(expected) if outputs else [expected]
    if same(got, want):
        return CheckResult(answer, expected, True, got, outputs)
    notes = describe_difference(got, want, outputs)
    diff = _diff(want, got)
    # a key that is not there: the query's own "did you mean" comes first
    _, said, meant = result.message.partition("Hint: ")
    if said and "did you mean" in meant:
        hint = _sentences(meant.split(" Hint: ")[0], hint)
    return CheckResult(answer, expected, False, got, outputs, notes, diff, hint)


same = json_equal  # JSON equality: true is not 1; 1 equals 1.0 as in jq


def _error_text(exc: JqMagicError, answer: str) -> str:
    """The error without its hint (the verdict has one hint line); a program that ends too
    early gets its caret after its last character, where something is missing."""
    detail = exc.detail
    if "unexpected end of file" in exc.message:
        last = answer.rstrip().splitlines()[-1] if answer.strip() else ""
        detail = f"    {last}\n    {' ' * len(last)}^"
    return "\n".join(filter(None, [f"{exc.code}: {exc.message}", detail]))


def _sentences(*parts: str) -> str:
    """Hints joined into one line, each ending as a sentence."""
    said = [p.strip() for p in parts if p and p.strip()]
    return " ".join(p if p.endswith((".", "!", "?", ")")) else p + "." for p in said)


def json_type(value: Any) -> str:
    """jq's name for the type of ``value`` (``null``, ``boolean``, ``number``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object"


def describe_difference(got: list[Any], want: list[Any], outputs: bool) -> list[str]:
    """What differs between two output streams, said in words a beginner can act on."""
    notes: list[str] = []
    if not got:
        notes.append("Your filter gave no output at all (an empty stream). A select() that "
                     "lets nothing through, or `empty`, does that.")
        return notes
    if not outputs and len(got) > 1:
        notes.append(f"Your filter gave {len(got)} separate outputs (a stream); one value "
                     "was expected.")
        if isinstance(want[0], list) and same(got, want[0]):
            notes.append("They are the right values: collect them into one array with "
                         "[ ... ] around the filter.")
        return notes
    if outputs and len(got) != len(want):
        notes.append(f"Your filter gave {count(len(got), 'output')}; {len(want)} "
                     f"{'was' if len(want) == 1 else 'were'} expected.")
        if len(got) == 1 and isinstance(got[0], list) and same(got[0], want):
            notes.append("You gave one array of the right values; the exercise wants them "
                         "as separate outputs: drop the [ ... ] or add .[] at the end.")
        return notes
    pairs = list(zip(want, got, strict=True))
    for index, (w, g) in enumerate(pairs):
        if same(w, g):
            continue
        where = f"Output {index + 1}: " if len(pairs) > 1 else ""
        notes.append(where + _value_note(w, g))
        break
    return notes


def _value_note(want: Any, got: Any) -> str:
    wt, gt = json_type(want), json_type(got)
    if wt != gt:
        return f"Expected {_a(wt)}, got {_a(gt)}."
    if wt == "object":
        missing = [k for k in want if k not in got]
        extra = [k for k in got if k not in want]
        parts = []
        if missing:
            parts.append(f"missing {'key' if len(missing) == 1 else 'keys'} "
                         + ", ".join(map(json.dumps, missing)))
        if extra:
            parts.append(f"unexpected {'key' if len(extra) == 1 else 'keys'} "
                         + ", ".join(map(json.dumps, extra)))
        if parts:
            return "The object has " + "; ".join(parts) + "."
        wrong = [k for k in want if not same(want[k], got[k])]
        return (f"Right keys; {'a different value' if len(wrong) == 1 else 'different values'}"
                " at " + ", ".join(map(json.dumps, wrong)) + ".")
    if wt == "array":
        if len(want) != len(got):
            return f"Expected an array of {count(len(want), 'element')}, got {len(got)}."
        if sorted(map(_canonical, want)) == sorted(map(_canonical, got)):
            return "Right elements, different order: look at sort_by or the order of steps."
        index = next(i for i, (w, g) in enumerate(zip(want, got, strict=True)) if not same(w, g))
        return f"The arrays differ first at index {index}."
    return f"Expected {preview(want, 60)}, got {preview(got, 60)}."


def _a(type_name: str) -> str:
    """``a string``, ``an object``, but ``null`` (no article: it is a value)."""
    return type_name if type_name == "null" else a(type_name)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _lines(values: list[Any]) -> list[str]:
    """A stream as jq prints it: each value pretty-printed (sorted keys), one after the
    other (never one array); no value at all is said in words."""
    if not values:
        return [NOTHING]
    return [line for value in values for line in json.dumps(
        value, indent=2, sort_keys=True, ensure_ascii=False, default=str).splitlines()]


def _diff(want: list[Any], got: list[Any]) -> str:
    """The expected and the given outputs line by line (- expected, + yours), two lines
    around each change, "…" between the parts shown; bounded in length. No diff
    machinery (file names, @@ hunk headers) for a learner to decode."""
    lines: list[str] = []
    for line in difflib.unified_diff(_lines(want), _lines(got), lineterm="", n=2):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            if lines:
                lines.append("  …")
            continue
        lines.append(line)
    if len(lines) > MAX_DIFF_LINES:
        hidden = len(lines) - MAX_DIFF_LINES
        lines = lines[:MAX_DIFF_LINES] + [f"... {count(hidden, 'more diff line')}"]
    return "\n".join(lines)


def _diff_line_html(line: str) -> str:
    escaped = escape_html(line)
    if line.startswith("-"):
        return f"<span style='color:#b00'>{escaped}</span>"
    if line.startswith("+"):
        return f"<span style='color:#1a7f37'>{escaped}</span>"
    return escaped
