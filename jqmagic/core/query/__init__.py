"""Queries: the request, the supervised worker that runs both engines, bounds and results.

- ``request``: one query as data (program, source, ``$name`` args, options);
- ``run``: :func:`query` (every result), :func:`query_iter` (as they come), in stages;
- ``result``: :class:`QueryResult` and how a face bounds its text; ``bounds``: the messages;
- ``supervisor`` (the caller's side) and ``worker`` (the worker process), speaking
  ``protocol`` (typed frames: results stream in chunks; ``sink`` is the worker's end);
- ``fastpath`` (jqlang on ``doccache``'s parsed trees) and ``libjq`` (ctypes), the engines;
- ``failures``: jq's errors as coded errors; ``spill``: results past the shown ones.
"""


__all__ = ["QueryResult", "clear_cache", "open_results", "query", "query_iter"]
_HOMES = {"QueryResult": "result", "clear_cache": "run", "open_results": "run", "query": "run",
          "query_iter": "run"}


def __getattr__(name: str):
    # On first use only: the worker process imports this package for ``worker`` and needs
    # none of the caller's side.
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # here: the command line's start-up imports this package, not it

    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
