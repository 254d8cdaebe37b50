"""Per-input programs over many files on a Dask cluster (``dask[distributed]``, an extra):
one task per file, answered by the supervised jqmagic worker of the Dask worker process
that runs it (so the program is compiled once per process, and every limit holds there),
the answers joined in input order as ``--parallel`` joins them. ``reduce`` runs a program
once on the array of every result, as ``jq -s`` would on the map's output.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from jqmagic.core import payloads, sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.query import protocol
from jqmagic.core.query.fanout import parallel
from jqmagic.core.query.request import Request, for_worker, timeout
from jqmagic.core.query.supervisor import shared_worker
from jqmagic.core.words import term

INSTALL_HINT = "pip install 'jqmagic[dask]'"
_clients: dict[str, Any] = {}  # clients this module opened, by address ("" : the local one)


def client(address: str | bool | None = "") -> Any:
    """The Dask client for ``address``: a scheduler's, else the current client, else one
    on a LocalCluster started here (one worker process per core, kept for later queries)."""
    try:
        import distributed
    except ImportError:
        raise JqMagicError("INVALID_ARGUMENT", "--dask needs the dask.distributed package, "
                           "which is not installed.", f"Install it: {INSTALL_HINT}") from None
    key = address if isinstance(address, str) else ""
    if key in _clients and _clients[key].status == "running":
        return _clients[key]
    if not key:
        with contextlib.suppress(ValueError):
            return distributed.Client.current()
        cluster = distributed.LocalCluster(n_workers=os.cpu_count() or 2,
                                           threads_per_worker=1, dashboard_address=":0")
        _clients[key] = distributed.Client(cluster)
    else:
        try:
            _clients[key] = distributed.Client(key, timeout=10)
        except OSError as exc:
            raise JqMagicError("NETWORK_ERROR", f"No Dask scheduler answered at {key}: {exc}",
                               "Check the address (tcp://host:8786), or give --dask alone "
                               "for a local cluster.") from None
    atexit.register(close, key)
    return _clients[key]


def close(address: str = "") -> None:
    """Close the client this module opened for ``address`` (and the LocalCluster it
    started); nothing when there is none."""
    found = _clients.pop(address, None)
    if found is not None:
        cluster = found.cluster
        found.close()
        if cluster is not None:
            cluster.close()


def run(request: Request, slot: payloads.PayloadRef | None) -> parallel.Reply:
    """Answer ``request`` on the cluster; a reply as :meth:`Supervisor.request` gives it."""
    if request.run.dask is None:
        raise JqMagicError("INVALID_ARGUMENT", f"--reduce combines the results of "
                           f"{term('dask')}.", f"Add {term('dask')} (alone: a local "
                           "cluster), or pipe into the reducer with -s.")
    files = _urls(request) or [os.path.abspath(f) for f in
                               parallel.input_files(request, "--dask")]
    mapped = request
    if request.run.reduce:  # the reducer reads the map's results as JSON
        mapped = replace(request, printing=replace(request.printing, raw=False, compact=True,
                                                   sort_keys=False, ascii=False, color=False))
    messages = []
    for path in files:
        part = replace(mapped, source=Source("file", [path], request.source.formats),
                       run=replace(mapped.run, dask=None, reduce=None, parallel=0))
        messages.append(replace(for_worker(part, None), keep=None))
    dask = client(request.run.dask)
    futures = dask.map(answer_file, messages, seconds=timeout(request), pure=False)
    replies = dask.gather(futures)
    if not request.run.reduce:
        keep = None if request.bounds.passthrough else request.bounds.max_results
        return parallel.joined(replies, [""] * len(replies), keep, slot)
    return _reduced(request, replies, slot)


def _urls(request: Request) -> list[str]:
    """The files named by URLs (``s3://bucket/logs/*.jsonl``), expanded with fsspec; none
    when the source names local paths."""
    spec = request.source.spec
    named = [spec] if isinstance(spec, str) else list(spec) if isinstance(spec, list) else []
    if not named or not all(isinstance(u, str) and "://" in u for u in named):
        return []
    parallel.check_per_input(request, "--dask")
    if sandbox.enabled():  # fsspec reads past the sandbox's roots and address rules
        raise JqMagicError("SANDBOX_DENIED", "The sandbox refuses files named by URLs "
                           f"({named[0][:60]}): they are read with fsspec, outside its rules.",
                           "Give paths under the allowed roots.")
    fsspec = _fsspec()
    return [f.fs.unstrip_protocol(f.path) for f in fsspec.open_files(named)]


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        raise JqMagicError("INVALID_ARGUMENT", "Files named by URLs are read with fsspec, "
                           "which is not installed.", f"Install it: {INSTALL_HINT}, or "
                           "give paths the Dask workers can read.") from None
    return fsspec


def _reduced(request: Request, replies: list[parallel.Reply],
             slot: payloads.PayloadRef | None) -> parallel.Reply:
    """The reducer on the array of every result; the map's first error, if any, instead."""
    texts: list[bytes] = []
    for end, part in replies:
        if end.error:
            return parallel.joined(replies, [""] * len(replies), None, None)
        texts.extend(part)
    reducer = replace(request, program=request.run.reduce,
                      source=Source("text", b"\n".join(texts).decode("utf-8", "surrogatepass"),
                                    request.source.formats),
                      run=replace(request.run, slurp=True, dask=None, reduce=None))
    return shared_worker().request(for_worker(reducer, slot), timeout(request))


def answer_file(message: protocol.QueryRequest, seconds: float | None) -> parallel.Reply:
    """One file's answer, on a Dask worker: its own supervised jqmagic worker answers (a
    file named by a URL is first copied here, with fsspec), under the caller's sandbox (a
    Dask process keeps the environment it started with: its worker starts scrubbed and
    confined when the caller's sandbox is on)."""
    try:
        with sandbox.imposed(message.caller.settings), _local(message.source.spec[0]) as path:
            message = replace(message, source=replace(message.source, spec=[path]))
            return shared_worker().request(message, seconds)
    except JqMagicError as exc:  # crosses back as data, as from the worker's pipe
        return protocol.End.failed(exc.to_wire()), []


@contextlib.contextmanager
def _local(path: str) -> Iterator[str]:
    """``path``, or a URL's bytes in a temporary file of the same name (for its format)."""
    if "://" not in path:
        yield path
        return
    folder = tempfile.mkdtemp(prefix="jqmagic-dask-")
    try:
        local = os.path.join(folder, os.path.basename(path.rstrip("/")) or "input")
        try:
            with _fsspec().open(path, "rb") as remote, open(local, "wb") as out:
                shutil.copyfileobj(remote, out)
        except OSError as exc:
            raise JqMagicError("FILE_ERROR", f"Cannot read {path} on a Dask worker: {exc}",
                               "Check the URL and the workers' credentials.") from None
        yield local
    finally:
        shutil.rmtree(folder, ignore_errors=True)
