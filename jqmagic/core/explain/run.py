"""Explain one program over its inputs: the staged run, checked against the plain run."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable
from typing import Any

from jqmagic.core.explain import trace, unparse
from jqmagic.core.explain.values import Owned, preview
from jqmagic.core.jqlang.errors import NotMine
from jqmagic.core.jqlang.parser import parse
from jqmagic.core.query import libjq, libjqinput

RESULTS = 5  # final results shown with their paths


def explain_values(program: str, values: Iterable[Owned],
                   args: dict[str, Any] | None = None) -> dict[str, Any]:
    """The explanation (plain data) of ``program`` over ``values`` (libjq's, consumed)."""
    started = time.perf_counter()
    ctx = trace.Context(tuple(sorted((args or {}).items())))
    plain = libjq.compile_program(program, args or {})  # CompileError: the caller's
    split, note = True, None
    try:
        tree = parse(program)
        with unparse.written_as(program, tree):  # the stages' texts in the program's words
            pipeline = trace.Pipeline(tree, ctx)
    except (NotMine, RecursionError, libjq.CompileError) as exc:
        split = False
        note = f"not split: jqlang's parser does not read this program ({exc})"[:200]
        pipeline = trace.Pipeline(None, ctx, note=note, text=program)
    inputs = outputs = mismatched = 0
    results: list[dict[str, Any]] = []
    errors: list[str] = []
    plain_seconds = 0.0
    exit_status = 0  # what jq's command line would exit with: 5 after an error, halt's
    for value in values:
        inputs += 1
        staged, halted = hashlib.sha1(), False
        try:
            for item in pipeline.flow(trace.Item(value, None, [])):
                outputs += 1
                text = item.value.text()
                staged.update(text.encode() + b"\0")
                if len(results) < RESULTS:
                    shown = preview(item.value)
                    if item.path is not None:
                        shown["path"] = item.path
                    results.append(shown)
        except trace.StageFailure as exc:
            staged.update(b"error:" + str(exc).encode())
            errors.append(str(exc)[:300])
            halted = exc.halt
        clock = time.perf_counter()
        same = hashlib.sha1()
        try:
            for result in libjq.results(plain, value.copy()):
                same.update(libjq.dump(result).encode() + b"\0")
        except libjq.RunError as exc:
            same.update(b"error:" + str(exc).encode())
            exit_status = 5
        except libjq.Halt as exc:
            same.update(b"error:" + str(exc).encode())
            exit_status = exc.exit_code
        plain_seconds += time.perf_counter() - clock
        mismatched += staged.digest() != same.digest()
        if halted:
            break
    stages = pipeline.report()
    return {
        "program": program, "split": split, "note": note, "inputs": inputs,
        "outputs": outputs, "errors": errors[:5], "error_count": len(errors),
        "same_as_plain": mismatched == 0, "inputs_differing": mismatched,
        "null_origin": null_origin(stages), "error_origin": error_origin(stages),
        "swallowed": first_with(stages, "swallowed"),
        "mismatch": first_with(stages, "mismatched"), "exit_status": exit_status,
        "results": results, "stages": stages,
        "seconds": round(time.perf_counter() - started, 4),
        "plain_seconds": round(plain_seconds, 4),
    }


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The child's side of :func:`jqmagic.explain`: the inputs read from the inherited
    files (or null, or slurped), explained; compile and input errors as data."""
    from jqmagic.core.explain.values import parse

    try:
        if request["null_input"]:
            values = [parse("null")]
        else:
            values = []
            for fd in request["fds"]:
                with os.fdopen(fd, "rb") as stream:
                    values.extend(Owned(v) for v in libjqinput.parse_text(stream.read()))
            if request["slurp"]:
                values = [Owned(libjq.array([v.copy() for v in values]))]
        return {"ok": explain_values(request["program"], _consumed(values), request["args"])}
    except libjq.CompileError as exc:
        return {"error": "compile", "message": str(exc)}
    except libjq.InputError as exc:
        return {"error": "input", "message": str(exc)}


def _consumed(values: list[Owned]):
    """The values one by one, each let go once explained (big inputs are not kept twice)."""
    values.reverse()
    while values:
        yield values.pop()


def null_origin(stages: list[dict], where: str = "") -> dict[str, Any] | None:
    """The first stage (top level first, then inside it) that gave null for a non-null:
    ``how`` it did, "made" (computed) or "read" (a path to a null or missing value)."""
    for i, stage in enumerate(stages):
        count = stage.get("nulls_made") or stage.get("nulls_read")
        if count:
            found = {"stage": stage["stage"], "at": f"{where}stage {i + 1}", "count": count,
                     "how": "made" if stage.get("nulls_made") else "read",
                     "input": stage["null_from"]}
            for branch in stage.get("branches", []):
                inner = null_origin(branch["stages"], f"{where}stage {i + 1} > ")
                if inner is not None:
                    found["inside"] = inner
                    break
            source = _first_made(stages[:i], stage["null_from"].get("text"))
            if source is not None:
                found["input_made_at"] = f"{where}{source}"
            return found
    return None


def _first_made(stages: list[dict], text: str | None) -> str | None:
    """The first stage whose sampled outputs hold ``text`` where its inputs did not: where
    the value a null was made from was itself made (seen in the samples only)."""
    if text is None:
        return None
    for i, stage in enumerate(stages):
        made = any(s.get("text") == text for s in stage.get("samples_out", []))
        given = any(s.get("text") == text for s in stage.get("samples_in", []))
        if made and not given and not stage.get("binds"):
            return f"stage {i + 1} `{stage['stage'][:60]}`"
    return None


def first_with(stages: list[dict], key: str, where: str = "") -> dict[str, Any] | None:
    """The first stage (top level first, then its branches) that counted ``key``: where,
    which stage, and that stage's report."""
    for i, stage in enumerate(stages):
        if stage.get(key):
            return {"at": f"{where}stage {i + 1}", "stage": stage["stage"], "count":
                    stage[key], **stage.get({"swallowed": "swallowed_error",
                                             "mismatched": "mismatch"}[key], {})}
    for i, stage in enumerate(stages):
        for branch in stage.get("branches", []):
            found = first_with(branch["stages"], key,
                               f"{where}stage {i + 1} > {branch['name']} > ")
            if found is not None:
                return found
    return None


def error_origin(stages: list[dict]) -> dict[str, Any] | None:
    """The first top-level stage that raised an error, with the value it was raised on."""
    for i, stage in enumerate(stages):
        if stage.get("error"):
            return {"stage": stage["stage"], "at": f"stage {i + 1}", **stage["error"]}
    return None
