"""Candidate programs as the search holds them: each run on every example by jqlang
(compiled once, bounded in time and outputs), its behaviour compared as jq compares."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jqmagic.core.jqlang import compile_subset, runtime

MAX_OUTPUTS = 200  # outputs per example a candidate may give
MAX_SIGNATURE = 20_000  # characters of a behaviour kept for comparison
RUN_SECONDS = 0.05  # one candidate on every example at most


@dataclass(order=True)
class Entry:
    cost: int
    text: str = field(compare=False)
    streams: tuple = field(compare=False)  # per example, the output values
    const: bool = field(default=False, compare=False)  # reads no input


@lru_cache(maxsize=8192)
def _compiled(text: str):
    return compile_subset(text)


def canon(value: Any) -> Any:
    """Values as jq compares them: a whole float is its integer."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list):
        return [canon(v) for v in value]
    if isinstance(value, dict):
        return {k: canon(v) for k, v in value.items()}
    return value


def signature(streams) -> str | None:
    try:
        text = json.dumps(canon(list(streams)), sort_keys=True, allow_nan=False)
    except (ValueError, TypeError):
        return None
    return text if len(text) <= MAX_SIGNATURE else None


def run(text: str, streams) -> tuple | None:
    """``text`` applied to every output of ``streams``, or None (an error, too much, or
    a program outside jqlang's subset)."""
    program = _compiled(text)
    if program is None:
        return None
    out = []
    runtime.start(RUN_SECONDS)
    try:
        for stream in streams:
            produced = []
            for value in stream:
                for result in program.run(value, {}):
                    produced.append(result)
                    if len(produced) > MAX_OUTPUTS:
                        return None
            out.append(tuple(produced))
    except Exception:  # noqa: BLE001 - any failure of a candidate only drops it
        return None
    return tuple(out)
