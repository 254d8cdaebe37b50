"""Per-input programs over many files on a Dask cluster (``dask[distributed]``, an extra):
one task per partition (a file, or a byte range of a big JSON Lines file), answered by the
supervised jqmagic worker of the Dask worker process that runs it (so the program is
compiled once per process, and every limit holds there); a task's results cross back as one
:class:`Batch` (Dask would send a list of texts one frame a text), joined in input order as
``--parallel`` joins them. ``--reduce`` (``reduce``): each task sends its partial reduction
where the reducer has one; with ``--parallel`` instead of ``--dask``, the same on N workers.
"""

from __future__ import annotations

import array
import atexit
import contextlib
import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, NamedTuple

from jqmagic.core import payloads, sandbox
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.query import protocol
from jqmagic.core.query.fanout import parallel, reduce
from jqmagic.core.query.fanout.join import Reply, joined
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


def run(request: Request, slot: payloads.PayloadRef | None) -> Reply:
    """Answer ``request`` on the cluster (or, ``--reduce`` with ``--parallel``, on N
    workers); a reply as :meth:`Supervisor.request` gives it."""
    if request.run.dask is None:
        if request.run.parallel:
            return reduce.run(request, parallel.parts, slot)
        raise JqMagicError("INVALID_ARGUMENT", f"--reduce combines the results of "
                           f"{term('dask')} or --parallel.", f"Add {term('dask')} (alone: "
                           "a local cluster) or --parallel, or pipe into the reducer with -s.")
    if request.run.reduce:
        return reduce.run(request, _parts, slot)
    keep = None if request.bounds.passthrough else request.bounds.max_results
    parts = _parts(replace(request, bounds=replace(request.bounds, passthrough=True)), None)
    return joined([(p.end, p.texts) for p in parts], [""] * len(parts), keep, slot)


def _parts(request: Request, partial: protocol.QueryRequest | None) -> list[reduce.Part]:
    """Every partition's answer (every result, or its ``partial`` reduction), in order;
    the whole files again when a byte range could not tell what went wrong."""
    dask = client(request.run.dask)
    got = _gathered(dask, _messages(request, dask, split=True), partial, timeout(request))
    if any(p.end.retry for p in got):
        got = _gathered(dask, _messages(request, dask, split=False), partial, timeout(request))
    return got


def _messages(request: Request, dask: Any, split: bool) -> list[protocol.QueryRequest]:
    """One message a partition: with ``split``, a file or a byte range of a JSON Lines file
    (cut so that each of the cluster's threads gets a share), else a whole file (files
    named by URLs always whole)."""
    urls = _urls(request)
    files = urls or [os.path.abspath(f) for f in parallel.input_files(request, "--dask")]
    if split and not urls:
        threads = max(1, sum(dask.nthreads().values()))
        return parallel.partitions(request, files, parallel.shares(request, files, threads))
    formats = request.source.formats
    return [for_worker(replace(request, source=Source("file", [f], formats)), None)
            for f in files]


def _gathered(dask: Any, messages: list[protocol.QueryRequest],
              partial: protocol.QueryRequest | None, seconds: float | None) -> list[reduce.Part]:
    """Each message's answer, from the cluster's tasks; NETWORK_ERROR when the cluster
    itself fails (a worker lost, a scheduler or worker without this jqmagic)."""
    futures = dask.map(answer, messages, seconds=seconds, partial=partial, pure=False)
    try:
        return [batch.part() for batch in dask.gather(futures)]
    except Exception as exc:  # noqa: BLE001 (whatever a cluster raises, said in one line)
        raise JqMagicError("NETWORK_ERROR", f"The Dask cluster at {dask.scheduler.address} "
                           f"failed the query: {type(exc).__name__}: {str(exc)[:200]}",
                           "Check that its scheduler and workers run this Python and "
                           "jqmagic (the same versions as here), and that they are up.") \
            from None


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


class Batch(NamedTuple):
    """A partition's answer as it crosses the cluster: its end, its texts as one bytes
    object and their lengths, and whether they are a partial reduction."""

    end: protocol.End
    data: bytes
    sizes: bytes  # array("Q") of the texts' lengths
    partial: bool

    @classmethod
    def of(cls, part: reduce.Part) -> Batch:
        return cls(part.end, b"".join(part.texts),
                   array.array("Q", map(len, part.texts)).tobytes(), part.partial)

    def part(self) -> reduce.Part:
        sizes = array.array("Q")
        sizes.frombytes(self.sizes)
        ends = list(itertools.accumulate(sizes))
        data = self.data
        return reduce.Part(self.end, [data[a:b] for a, b in zip([0, *ends], ends,
                                                                 strict=False)], self.partial)


def answer(message: protocol.QueryRequest, seconds: float | None,
           partial: protocol.QueryRequest | None = None) -> Batch:
    """One partition's answer, on a Dask worker: its own supervised jqmagic worker answers
    (a file named by a URL is first copied here, with fsspec), and with ``partial`` reduces
    it, under the caller's sandbox (a Dask process keeps the environment it started with:
    its worker starts scrubbed and confined when the caller's sandbox is on)."""
    try:
        with sandbox.imposed(message.caller.settings), _local(message.source.spec[0]) as path:
            if path != message.source.spec[0]:
                message = replace(message, source=replace(message.source, spec=[path]))
            return Batch.of(reduce.part(shared_worker(), message, partial, seconds))
    except JqMagicError as exc:  # crosses back as data, as from the worker's pipe
        return Batch.of(reduce.Part(protocol.End.failed(exc.to_wire()), []))


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
