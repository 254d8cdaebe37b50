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
    verified, rejected = [], 0
    for entry in found:
        if len(verified) >= request["limit"]:
            break
        if all(_same(outputs(entry.text, given), outs) for given, outs in examples):
            verified.append({"program": entry.text, "cost": entry.cost,
                             "reads_input": not entry.const,
                             "embeds_output": embeds(entry.text, search.answers)})
        else:
            rejected += 1
    return {"programs": verified, "seconds": round(time.monotonic() - started, 3),
            "tried": {**search.tried, "rejected_by_libjq": rejected,
                      "bank": len(search.bank)}}


def _same(got: list[Any] | None, want: list[Any]) -> bool:
    return got is not None and canon(got) == canon(want)
