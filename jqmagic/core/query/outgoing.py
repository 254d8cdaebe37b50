"""A request as the worker reads it: the program, its source and options, and the caller's
settings, working directory, home and payload store (paths read as the caller's)."""

from __future__ import annotations

import os
from typing import Any

from jqmagic.core import payloads
from jqmagic.core.options import JsonText
from jqmagic.core.query.request import Request
from jqmagic.core.settings import settings

# What the worker must know of the caller's settings (the sandbox and the limits).
WORKER_SETTINGS = ("sandbox", "allowed_roots", "exec_allowed", "exec_timeout",
                   "exec_max_bytes", "doc_cache_bytes", "fast_path")


def message(request: Request, slot: payloads.PayloadRef | None) -> dict[str, Any]:
    """The worker's message for ``request``; results past the kept ones go to ``slot``."""
    run = request.run
    return {
        "program": request.program,
        "args": {k: v for k, v in request.args.items() if not isinstance(v, JsonText)},
        "json_args": {k: v for k, v in request.args.items() if isinstance(v, JsonText)},
        "source": {"kind": request.source.kind, "spec": request.source.spec,
                   "formats": vars(request.source.formats)},
        "run": {"slurp": run.slurp, "null_input": run.null_input, "raw_input": run.raw_input,
                "timeout": timeout(request), "library_paths": list(run.library_paths),
                "cache": run.cache, "stream_eval": run.stream_eval,
                "stream_events": run.stream_events, "stream_errors": run.stream_errors,
                "seq": run.seq},
        "layout": request.printing.layout(),
        "dump": {"ascii": request.printing.ascii, "color": request.printing.color,
                 "colors": os.environ.get("JQ_COLORS")},
        "positional": list(request.positional),
        "keep": None if request.bounds.passthrough else request.bounds.max_results,
        "spill": None if slot is None else str(slot.path),
        "settings": {name: getattr(settings, name) for name in WORKER_SETTINGS},
        "cwd": os.getcwd(), "home": os.path.expanduser("~"),
        "payload_dir": str(payloads.payload_dir()),
    }


def timeout(request: Request) -> float:
    """The program's time limit: the request's, else the setting."""
    return settings.timeout if request.run.timeout is None else request.run.timeout
