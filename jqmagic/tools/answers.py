"""A query's answer for an agent: the results that fit in one answer, and the call that
gives the next ones, in the calling tool's own parameters.

The core runs the program with the tool's bound (``limit`` results); this module decides
what is sent: every result that fits whole (escaped as the wire carries it), or, when not
even the first fits, its shape and a preview. A cut answer names two next steps: the same
tool with the program sliced (``[F][100:200][]``; over a JSON Lines file or a YAML stream,
slurp on and ``[.[] | F][100:200][]``), and the payload holding every result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.shape import jq_schema
from jqmagic.core.words import json_text
from jqmagic.tools import transport
from jqmagic.tools.results import cut_value, payload_step

PROGRAM_STEP_CHARS = 2_000  # a longer program is not echoed in a next step
_ITERATED = re.compile(r"^(?P<head>[.\w\"\[\]]*?)\[\]\s*$", re.S)
_SLICED = re.compile(r"^(?P<head>.*)\[(?P<start>\d+):(?P<end>\d+)\]\[\]\s*$", re.S)


@dataclass(frozen=True)
class Caller:
    """Who asked: the tool, its program parameter, and how the program read its input."""

    tool: str
    program_param: str
    program: str
    slurp: bool = False
    several_inputs: bool = False  # JSON Lines, a YAML stream, a payload of results


def next_program(caller: Caller, start: int, end: int) -> dict[str, Any]:
    """The arguments (to change) that give results ``start`` to ``end`` of the program.

    >>> next_program(Caller("jq", "query", ".items[]"), 100, 200)
    {'query': '.items[100:200][]'}
    >>> next_program(Caller("jq", "query", ".a[].b[]"), 100, 200)
    {'query': '[.a[].b[]][100:200][]'}
    >>> next_program(Caller("query_yaml", "yq_expression", ".kind", several_inputs=True), 5, 10)
    {'yq_expression': '[.[] | .kind][5:10][]', 'slurp': True}
    """
    program = caller.program.strip()
    if caller.several_inputs and not caller.slurp:
        return {caller.program_param: f"[.[] | {program}][{start}:{end}][]", "slurp": True}
    match = _ITERATED.match(program)
    if match and match["head"] and "[]" not in match["head"] and ".." not in match["head"]:
        return {caller.program_param: f"{match['head']}[{start}:{end}][]"}  # one array
    return {caller.program_param: f"[{program}][{start}:{end}][]"}


def answer(result: Any, caller: Caller) -> dict[str, Any]:
    """What the tool sends for a query ``result`` (see the module's docstring)."""
    printed, total = result.printed, result.total
    budget = transport.content_budget()
    shown, size = 0, 0
    for text in printed:
        size += transport.escaped_size(text) + 2  # and the "\n" between results
        if size > budget:
            break
        shown += 1
    if shown == len(printed) and total == shown:
        out = {"output": "\n".join(printed), "count": total, "truncated": False}
        if result.message:
            out["message"] = result.message
        return {**out, **(_next_page(caller, total) or _next_characters(caller, result))}
    payload_id = result.payload_id or _keep(result)
    if shown == 0:
        return _one_too_big(result, payload_id, caller)
    step = _rest_of_page(caller, shown) or next_program(caller, shown, shown + shown)
    changes = ", ".join(f"{k}={_quote(v)}" for k, v in step.items())
    own = (f"The next {shown:,}: call {caller.tool} again with {changes}. "
           if len(caller.program) <= PROGRAM_STEP_CHARS else "")
    out = {"output": "\n".join(printed[:shown]), "count": total, "shown": shown,
           "truncated": True, "payload_id": payload_id,
           "payload_path": str(payloads.find(payload_id).path),
           "message": f"Showing results 1-{shown:,} of {total:,}. {own}Every result is kept "
                      f"as payload {payload_id}, one a line. "
                      f"{payload_step(payload_id, several=True)}"}
    if own:
        out["next_arguments"] = step
    elif caller.tool == "jq":  # a program too long to echo: the next results from the payload
        out["next_arguments"] = {**dict.fromkeys(("file", "input", "exec")), "payload":
                                 payload_id, "slurp": True, "null_input": False,
                                 "query": f".[{shown}:{2 * shown}][]"}
    return out


def _next_page(caller: Caller, count: int) -> dict[str, Any]:
    """For a program that is a page (``[F][100:200][]``) and came back full: the next page
    (there may be more)."""
    match = _SLICED.match(caller.program)
    if not match or len(caller.program) > PROGRAM_STEP_CHARS:
        return {}
    start, end = int(match["start"]), int(match["end"])
    if end <= start or count < end - start:
        return {}
    step = {caller.program_param: f"{match['head']}[{end}:{2 * end - start}][]"}
    return {"next_arguments": step,
            "message": f"This page was full; the next one (if any): call {caller.tool} again "
                       f"with {caller.program_param}={_quote(step[caller.program_param])}."}


_STRING_PART = re.compile(r"^(?P<head>.*) \| \.\[(?P<start>\d+):(?P<end>\d+)\]$", re.S)


def _next_characters(caller: Caller, result: Any) -> dict[str, Any]:
    """For a program that is a string's part (``F | .[0:20000]``, the step into a string
    too big to send) that came back full: the next part."""
    match = _STRING_PART.match(caller.program)
    values = getattr(result, "values", None) or []
    if not match or len(values) != 1 or not isinstance(values[0], str):
        return {}
    start, end = int(match["start"]), int(match["end"])
    if end <= start or len(values[0]) < end - start:
        return {}
    step = {caller.program_param: f"{match['head']} | .[{end}:{2 * end - start}]"}
    return {"next_arguments": step,
            "message": f"Characters {start:,}-{end:,} of the string; the next ones: call "
                       f"{caller.tool} again with {caller.program_param}="
                       f"{_quote(step[caller.program_param])}."}


def _rest_of_page(caller: Caller, shown: int) -> dict[str, Any]:
    """For a program that is a page (``F[100:200][]``) cut after ``shown`` results: the
    page of the same size from the first result not shown (a slice of the slice would
    end early)."""
    match = _SLICED.match(caller.program)
    if not match:
        return {}
    size = max(int(match["end"]) - int(match["start"]), 1)
    start = int(match["start"]) + shown
    return {caller.program_param: f"{match['head']}[{start}:{start + size}][]"}


def _quote(value: Any) -> str:
    return json_text(value)


def _keep(result: Any) -> str:
    """Keep every result the run gave, as JSON one a line (a passthrough run keeps nothing
    by itself; raw output is no JSON)."""
    lines = [json_text(v) for v in result.values] if result.raw else result.printed
    return payloads.store("\n".join(lines) + "\n").id


def _one_too_big(result: Any, payload_id: str, caller: Caller) -> dict[str, Any]:
    """Not even the first result fits: the count, its shape, a preview, the payload, and
    the call that looks inside the first result (``next_arguments``)."""
    several = result.total > 1
    first = result.values[0] if result.values else None
    out = {"count": result.total, "shown": 0, "truncated": True, "payload_id": payload_id,
           "payload_path": str(payloads.find(payload_id).path),
           "message": f"Not sent: the first result alone is over the bound of one answer. "
                      f"Ask for less (fewer fields, a slice such as .[0:20], a count with "
                      f"length), or query the kept result: {payload_step(payload_id, several)}",
           "shape": cut_value(jq_schema(first)),
           "preview": cut_value(first, depth=3, width=5)}
    step = inside_first(caller, first)
    if step:
        out["next_arguments"] = step
        out["message"] += (f" To look inside the first result: call {caller.tool} again "
                           f"with {', '.join(f'{k}={_quote(v)}' for k, v in step.items())}.")
    return out


FIRST_PART = 20  # members of the first result asked for by the step into it
STRING_PART = 20_000  # characters of a string result asked for by the step into it


def inside_first(caller: Caller, first: Any) -> dict[str, Any]:
    """The arguments (to change) that show the first result by parts: an array's first
    members, an object's first members (one object each; its first member's value when
    that alone is too big), a string's start; {} for a program too long to echo.

    >>> inside_first(Caller("jq", "query", ".a"), [1, 2])
    {'query': 'first(.a) | .[0:20][]'}
    """
    program = caller.program.strip()
    if len(program) > PROGRAM_STEP_CHARS:
        return {}
    extra: dict[str, Any] = {}
    whole = f"first({program})"
    if caller.several_inputs and not caller.slurp:
        whole, extra = f"first(.[] | {program})", {"slurp": True}
    if isinstance(first, list):
        part = f"{whole} | .[0:{FIRST_PART}][]"
    elif isinstance(first, dict) and first and \
            transport.wire_size(next(iter(first.values()))) > transport.content_budget():
        part = f"{whole} | first(.[])"  # its first member alone is too big: go into it
    elif isinstance(first, dict):
        part = f"{whole} | to_entries | map({{(.key): .value}})[0:{FIRST_PART}][]"
    elif isinstance(first, str):
        part = f"{whole} | .[0:{STRING_PART}]"
    else:
        return {}
    return {caller.program_param: part, **extra}
