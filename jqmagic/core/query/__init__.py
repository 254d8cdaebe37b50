"""Queries: the request, the supervised worker that runs both engines, bounds and results.

- ``request``: one query as data (program, source, ``$name`` args, options);
- ``run``: :func:`query`, in stages (build, run in the worker, bound, hint);
- ``result``: :class:`QueryResult` and how its text is bounded; ``bounds``: the messages;
- ``worker`` (the caller's side) and ``serve`` (the worker process) over ``wire``;
- ``fastpath`` (jqlang on ``doccache``'s parsed trees) and ``libjq`` (ctypes), the engines;
- ``failures``: jq's errors as coded errors; ``spill``: results past the shown ones.
"""

import importlib

__all__ = ["QueryResult", "clear_cache", "query"]
_HOMES = {"QueryResult": "result", "clear_cache": "run", "query": "run"}


def __getattr__(name: str):
    # On first use only: the worker process imports this package for ``serve`` and needs
    # none of the caller's side.
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
