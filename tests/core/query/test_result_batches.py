"""libjq's results dumped in C a batch at a time (``_jqmain.results``, the worker's path):
the same texts, kinds, errors and halts as the per-result ctypes loop gives."""

from __future__ import annotations

import pytest

from jqmagic.core.query import libjq, libjqinput, mainloop

pytestmark = pytest.mark.skipif(not mainloop.available(),
                                reason="the C loop (_jqmain) was not built: no compiler")

PROGRAMS = [
    "range(5) | {a: ., b: [., \"é\\u0000\"]}", "empty", "null, false", "range(3), error(\"x\")",
    "1, error({a: 1})", "range(2), halt_error(3)", "\"bye\" | halt_error", "1, halt",
    "[range(100000)] | .[]", "range(20000) | tostring * 10", "{b: 2, a: [1.10, -0]}",
    "debug, 1", "input",
]
FLAGS = [0, libjq.PRINT_PRETTY | libjq.PRINT_SORTED, libjq.PRINT_ASCII]


def _run(program: str, flags: int, batched: bool) -> tuple:
    compiled = libjq.compile_program(program)
    texts: list[bytes] = []
    try:
        for out in (libjq.result_batches if batched else libjq._results)(  # noqa: SLF001
                compiled, libjqinput.parse_text("null")[0], flags):
            texts.extend(out.texts if batched else [out.encode()])
        ended = None
    except (libjq.RunError, libjq.Halt) as exc:
        ended = (type(exc).__name__, str(exc), getattr(exc, "code", None))
    return texts, ended, compiled.last_kind, list(compiled.messages)


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("program", PROGRAMS)
def test_batches_are_the_per_result_loops_texts(program, flags):
    assert _run(program, flags, batched=True) == _run(program, flags, batched=False)


def test_a_long_run_comes_in_several_batches():
    program = libjq.compile_program("range(100000)")
    batches = list(libjq.result_batches(program, libjqinput.parse_text("null")[0], 0))
    assert len(batches) > 3 and sum(map(len, batches)) == 100000
    assert all(len(b.lines()) <= libjq.BATCH_BYTES + 7 for b in batches)
    assert batches[-1].last() == b"99999" and program.last_kind == libjq.KIND_NUMBER
    assert b"".join(b.lines() for b in batches) == \
        b"".join(b"%d\n" % i for i in range(100000))
