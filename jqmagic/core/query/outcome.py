"""What every libjq route of the worker shares: the request's arguments and dump flags as
libjq takes them, and how a run ended (:class:`~jqmagic.core.query.protocol.End`: jq's
compile, run and halt errors as coded errors, its messages bounded)."""

from __future__ import annotations

from jqmagic.core.query import failures, libjq, protocol
from jqmagic.core.query.sink import Sink
from jqmagic.core.words import cut

MAX_MESSAGES = 100
MESSAGE_CHARS = failures.MESSAGE_CHARS
MESSAGES_TOTAL_CHARS = 10_000


def named(request: protocol.QueryRequest) -> dict:
    """The ``$name`` arguments, --argjson ones as their JSON text (libjq parses them)."""
    return {**request.args, **{k: libjq.RawJson(v) for k, v in request.json_args.items()}}


def dump_flags(request: protocol.QueryRequest) -> int:
    """libjq's dump flags for the request's layout, -a and -C."""
    return libjq.dump_flags(**request.layout, ascii=request.dump.ascii,
                            color=request.dump.color, colors=request.dump.colors)


def ended(sink: Sink, error: Exception | None, messages: list[str], engine: str,
          program: str, last_number: bool = False,
          input_errors: list[tuple[int, str]] | None = None) -> protocol.End:
    """The end of a run libjq answered (``error``: how it stopped, if it did;
    ``last_number``: whether its last result was a number; ``input_errors``: each input's
    error, after how many of the messages)."""
    sink.close()
    halted = isinstance(error, libjq.Halt)
    said = error.said if halted else None
    run_error = [getattr(error, "first", str(error)), getattr(error, "failed", 1),
                 getattr(error, "last_failed", True)] \
        if isinstance(error, libjq.RunError) else None  # inputs failed each on its own
    if isinstance(error, libjq.CompileError):
        error = failures.compile_error(str(error), program)
    elif isinstance(error, libjq.RunError):
        stopped = getattr(error, "failed", 1) == 1 and getattr(error, "last_failed", True)
        error = failures.run_error(str(error), sink.total, stopped)
    elif isinstance(error, libjq.Halt):
        error = failures.halt_error(error.exit_code, error.message)
    return sink.end(error=error.to_wire() if error else None, engine=engine, halted=halted,
                    halt_said=said, input_errors=[list(e) for e in input_errors or ()] or None,
                    messages=_bounded_messages(messages[:MAX_MESSAGES]),
                    run_error=run_error, last_number=last_number)


def _bounded_messages(messages: list[str]) -> list[str]:
    """``debug``, ``stderr`` and ``halt_error`` messages, each and all cut to a bound that
    says what it cut."""
    out, left = [], MESSAGES_TOTAL_CHARS
    for message in messages:
        if left <= 0:
            out.append(f"… ({len(messages) - len(out):,} more messages not shown)")
            break
        out.append(cut(message, min(MESSAGE_CHARS, left)))
        left -= len(out[-1])
    return out
