"""Run one program both ways, the fast path and the libjq worker, for differential tests."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from jqmagic import JqMagicError
from jqmagic.core.query import fastpath, libjqinput, query
from jqmagic.core.query import libjq as driver
from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec
from jqmagic.core.settings import settings


@dataclass
class Outcome:
    text: str
    values: str  # json.dumps of the values: 1 and 1.0, 1 and true differ


@contextmanager
def worker_only():
    saved, settings.fast_path = settings.fast_path, False
    try:
        yield
    finally:
        settings.fast_path = saved


class _Texts:
    """What the fast path hands the worker's sink, kept as text (none when it declines)."""

    def __init__(self):
        self.texts: list[str] = []

    def add(self, data: bytes) -> None:
        self.texts.append(data.decode())

    def add_many(self, texts: list[bytes]) -> None:
        self.texts.extend(data.decode() for data in texts)

    def hold(self) -> None:
        pass

    release = hold

    def waited(self) -> float:  # no pipe: nothing waits on a reader
        return 0.0

    def restart(self) -> None:
        self.texts.clear()


def fast(program: str, text: str, args: dict[str, Any] | None = None, *,
         null_input: bool = False, slurp: bool = False, timeout: float = 20,
         **layout) -> Outcome | None:
    """The fast path's answer (None when it declines)."""
    layout = {"indent": 2, "compact": False, "sort_keys": False, "tab": False, **layout}
    source = SourceSpec("null", None, {}) if null_input else SourceSpec("text", text, {})
    request = QueryRequest(program, source, RunSpec(slurp=slurp, null_input=null_input,
                                                    timeout=timeout, cache=False),
                           args=args or {}, layout=layout)
    sink = _Texts()
    if not fastpath.answer(request, sink):  # type: ignore[arg-type] - the sink's calls only
        return None
    values = [json.loads(t) for t in sink.texts]
    return Outcome("\n".join(sink.texts), json.dumps(values))


def libjq(program: str, text: str, args: dict[str, Any] | None = None, **options) -> Outcome:
    """The worker's answer; an error is reported as its code."""
    with worker_only():
        try:
            result = query(program, text=text, args=args, passthrough=True, timeout=20,
                           library_paths=[], **options)
        except JqMagicError as exc:
            return Outcome(f"error {exc.code}", "")
    return Outcome(result.text, json.dumps(result.values))


def jq_texts(program: str, text: str = "null", args: dict[str, Any] | None = None,
             **layout) -> list[str]:
    """libjq 1.8.2's printed results of ``program`` over each value of JSON ``text``, in
    process (no worker), ``$name`` bound from ``args``; ``layout`` as
    :func:`driver.dump_flags` takes it (compact by default, else as given); an error is
    the last item, ``error: MESSAGE``."""
    compiled = driver.compile_program(program, args)
    values = libjqinput.parse_text(text)
    out: list[str] = []
    try:
        flags = driver.dump_flags(**{"compact": not layout, **layout})
        try:
            out.extend(libjqinput.run_parsed(compiled, values, flags=flags))
        except driver.RunError as exc:
            out.append(f"error: {exc}")
    finally:
        libjqinput.free_values(values)
        compiled.close()
    return out
