"""The process an explanation runs in: reads a request on stdin, writes the answer on
stdout (libjq can hang or abort its process; the caller owns the time and memory limits)."""

from __future__ import annotations

import json
import os
import sys

from jqmagic.core import confine
from jqmagic.core.query import worker


def main() -> None:
    confine.start_worker(int(os.environ.get("JQMAGIC_WORKER_PARENT") or 0) or None)
    memory = int(os.environ.get("JQMAGIC_WORKER_MEMORY") or 0)
    if memory:
        worker.limit_memory(memory)
    request = json.loads(sys.stdin.buffer.read())
    from jqmagic.core.explain.run import explain_values  # after the limits are set
    from jqmagic.core.explain.values import Owned, parse
    from jqmagic.core.query import libjq

    try:
        if request["null_input"]:
            values = [parse("null")]
        else:
            parsed: list = []
            for fd in request["fds"]:
                with os.fdopen(fd, "rb") as stream:
                    parsed.extend(Owned(v) for v in libjq.parse_text(stream.read()))
            if request["slurp"]:
                values = [Owned(libjq.array([v.copy() for v in parsed]))]
            else:
                values = parsed
            parsed = []
        answer = {"ok": explain_values(request["program"], _consumed(values),
                                       request["args"])}
    except libjq.CompileError as exc:
        answer = {"error": "compile", "message": str(exc)}
    except libjq.InputError as exc:
        answer = {"error": "input", "message": str(exc)}
    sys.stdout.write(json.dumps(answer))


def _consumed(values: list):
    """The values one by one, each let go once explained (big inputs are not kept twice)."""
    while values:
        yield values.pop(0)


if __name__ == "__main__":
    main()
