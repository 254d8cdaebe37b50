"""The child's side of :func:`jqmagic.suggest`: search, then keep only the programs
libjq 1.8.2 itself turns every input into its outputs with."""

from __future__ import annotations

import json
import time
from typing import Any

from jqmagic.core.query import libjq, libjqinput
from jqmagic.core.suggest.programs import canon
from jqmagic.core.suggest.rank import embeds
from jqmagic.core.suggest.search import Search


def outputs(program: str, given: Any) -> list[Any] | None:
    """libjq's outputs of ``program`` on ``given`` (None: it failed)."""
    try:
        compiled = libjq.compile_program(program)
    except libjq.CompileError:
        return None
    try:
        value = libjqinput.parse_text(json.dumps(given))[0]
        return [json.loads(libjq.dump(r)) for r in libjq.results(compiled, value)]
    except (libjq.RunError, libjq.Halt, libjq.InputError, ValueError):
        return None
    finally:
        compiled.close()


def answer(request: dict[str, Any]) -> dict[str, Any]:
    started = time.monotonic()
    examples = [(given, list(outs)) for given, outs in request["examples"]]
    # the search stops early enough for libjq's checks and the child's start to fit
    search = Search(examples, started + request["seconds"] * 0.85)
    found = search.run()
    verified, rejected, aside = [], 0, 0
    probes, first = [changed(given) for given, _ in examples], None
    for entry in found:
        if len(verified) >= request["limit"]:
            break
        if not all(_same(outputs(entry.text, given), outs) for given, outs in examples):
            rejected += 1
            continue
        carried = embeds(entry.text, search.answers)
        if not entry.const and not carried:  # a program that finds the answer in the input
            answers = [outputs(entry.text, probe) for probe in probes]
            if first is None:
                first = answers
            elif any(want is not None and not _same(got, want)
                     for got, want in zip(answers, first, strict=True)):
                aside += 1  # right on the examples by coincidence, as far as they tell
                continue
        verified.append({"program": entry.text, "cost": entry.cost,
                         "reads_input": not entry.const, "embeds_output": carried})
    return {"programs": verified, "seconds": round(time.monotonic() - started, 3),
            "tried": {**search.tried, "rejected_by_libjq": rejected, "set_aside": aside,
                      "bank": len(search.bank)}}


def changed(value: Any) -> Any:
    """An input the user did not give, the same shape as ``value``: each number 3 more,
    each string with a letter more. A program that answers it otherwise than the first
    program found fits the examples only by coincidence ((length + 1) / (.b / 2) for
    add on {"a": 1, "b": 2} and {"a": 5, "b": 1})."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value + 3
    if isinstance(value, str):
        return value + "q"
    if isinstance(value, list):
        return [changed(v) for v in value]
    return {k: changed(v) for k, v in value.items()}


def _same(got: list[Any] | None, want: list[Any]) -> bool:
    return got is not None and canon(got) == canon(want)
