"""Queries: the request, the supervised worker that runs both engines, bounds and results.

- ``request``: one query as data (program, source, ``$name`` args, options);
- ``run``: :func:`query`, in stages (build, run in the worker, bound, hint);
- ``result``: :class:`QueryResult` and how its text is bounded; ``bounds``: the messages;
- ``worker`` (the caller's side) and ``serve`` (the worker process) over ``wire``;
- ``fastpath`` (jqlang on ``doccache``'s parsed trees) and ``libjq`` (ctypes), the engines;
- ``failures``: jq's errors as coded errors; ``spill``: results past the shown ones.
"""

from jqmagic.core.query.result import QueryResult
from jqmagic.core.query.run import clear_cache, query

__all__ = ["QueryResult", "clear_cache", "query"]
