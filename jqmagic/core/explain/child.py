"""The process an explanation or a suggestion runs in: reads one request on stdin and
writes its answer on stdout (libjq can hang or abort its process; the caller owns the
time and memory limits, as the query worker's supervisor does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from jqmagic.core import confine, sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.settings import default_worker_memory, settings

SUGGEST_MEMORY = 2 << 30  # bytes a suggestion search may map


def call(request: dict[str, Any], timeout: float | None, what: str) -> dict[str, Any]:
    """The child's answer to ``request`` (``request["fds"]``: files it inherits); TIMEOUT
    after ``timeout`` seconds, QUERY_ERROR / TOO_LARGE when it dies."""
    environ = sandbox.worker_environment(os.environ) if sandbox.enabled() else os.environ
    memory = settings.worker_memory or default_worker_memory()
    if request["op"] == "suggest":  # a candidate that grows without end costs itself only
        memory = min(memory, SUGGEST_MEMORY)
    env = dict(environ, JQMAGIC_WORKER_MEMORY=str(memory),
               JQMAGIC_WORKER_PARENT=str(os.getpid()))
    process = confine.popen([sys.executable, "-m", "jqmagic.core.explain.child"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env,
                            pass_fds=request.get("fds", ()))
    try:
        out, err = process.communicate(json.dumps(request).encode(), timeout=timeout or None)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise JqMagicError("TIMEOUT", f"{what} took over {timeout} s.",
                           "Try a smaller part of the input (a slice such as .[:1000]) "
                           "or give a longer timeout.") from None
    except BaseException:
        process.kill()
        process.communicate()
        raise
    if process.returncode != 0:
        last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        code = "TOO_LARGE" if "MemoryError" in last[0] else "QUERY_ERROR"
        raise JqMagicError(code, f"{what} stopped: {last[0][:200]}",
                           "Try a smaller part of the input.")
    return json.loads(out)


def main() -> None:
    confine.start_worker(int(os.environ.get("JQMAGIC_WORKER_PARENT") or 0) or None)
    memory = int(os.environ.get("JQMAGIC_WORKER_MEMORY") or 0)
    if memory:
        from jqmagic.core.query.worker import limit_memory

        limit_memory(memory)
    request = json.loads(sys.stdin.buffer.read())
    if request["op"] == "suggest":
        from jqmagic.core.suggest.verify import answer
    else:
        from jqmagic.core.explain.run import answer
    sys.stdout.write(json.dumps(answer(request)))


if __name__ == "__main__":
    main()
