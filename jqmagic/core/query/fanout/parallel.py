"""Per-input programs over many files on several cores: the files split into contiguous
groups (a big JSON Lines file into byte ranges at line starts, ``lines``), at most N
supervised workers taking them in turn, the answers joined back in input order (the same
text, totals, bounds, payload and first error as one worker would give); with ``--reduce``
(``reduce``), each worker's partial reduction of what it answered."""

from __future__ import annotations

import atexit
import os
import queue
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from jqmagic.core import payloads, sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Source
from jqmagic.core.query import protocol
from jqmagic.core.query.fanout import lines as linerange
from jqmagic.core.query.fanout import reduce
from jqmagic.core.query.fanout.join import Reply, joined
from jqmagic.core.query.request import Request, for_worker, timeout
from jqmagic.core.query.supervisor import Supervisor

_READS_INPUTS = re.compile(r"\binputs?\b")
_pool: list[Supervisor] = []


def workers(count: int) -> list[Supervisor]:
    """``count`` supervised workers, started on first use and kept for later queries."""
    while len(_pool) < count:
        _pool.append(Supervisor())
        atexit.register(_pool[-1].stop)
    return _pool[:count]


def run(request: Request, slot: payloads.PayloadRef | None) -> Reply:
    """Answer ``request`` with ``request.run.parallel`` workers; a worker's end and texts,
    as :meth:`Supervisor.request` gives them."""
    keep = None if request.bounds.passthrough else request.bounds.max_results
    spill_dir = tempfile.mkdtemp(prefix="jqmagic-parallel-")
    try:
        parts, spills = _asked(request, _jobs(request, split=True), spill_dir, None)
        if any(part.end.retry for part in parts):  # the whole files tell why
            parts, spills = _asked(request, _jobs(request, split=False), spill_dir, None)
        return joined([(part.end, part.texts) for part in parts], spills, keep, slot)
    finally:
        shutil.rmtree(spill_dir, ignore_errors=True)


def parts(request: Request, partial: protocol.QueryRequest | None) -> list[reduce.Part]:
    """``--reduce``'s map on the workers, a file (or a byte range) a job: every result of
    each, in order, or its ``partial`` reduction made by the worker that answers it."""
    files = input_files(request, "--parallel")
    count = max(1, request.run.parallel)
    got, _ = _asked(request, partitions(request, files, shares(request, files, count)), "",
                    partial)
    if any(part.end.retry for part in got):
        got, _ = _asked(request, partitions(request, files, [1] * len(files)), "", partial)
    return got


def _asked(request: Request, jobs: list[protocol.QueryRequest], spill_dir: str,
           partial: protocol.QueryRequest | None) -> tuple[list[reduce.Part], list[str]]:
    """Every job's reply, in order, from at most ``parallel`` workers (with ``partial``:
    each job's partial reduction where it has one)."""
    spills = [os.path.join(spill_dir, f"{id(jobs)}-{i}") for i in range(len(jobs))]
    count = max(1, min(request.run.parallel, len(jobs)))
    free: queue.SimpleQueue[Supervisor] = queue.SimpleQueue()
    for worker in workers(count):
        free.put(worker)
    seconds = timeout(request)

    def ask(job: tuple[protocol.QueryRequest, str]) -> reduce.Part:
        worker = free.get()
        try:
            message = replace(job[0], spill=job[1] if job[0].keep is not None else None)
            return reduce.part(worker, message, partial, seconds)
        finally:
            free.put(worker)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(ask, zip(jobs, spills, strict=True))), spills


def _jobs(request: Request, split: bool) -> list[protocol.QueryRequest]:
    """The workers' messages: contiguous groups of whole files, or (``split``) big JSON
    Lines files cut into byte ranges at line starts, so one big file uses every worker."""
    files = input_files(request, "--parallel")
    pieces = shares(request, files, max(1, request.run.parallel)) if split else [1] * len(files)
    if max(pieces, default=1) <= 1:
        return [for_worker(replace(request, source=Source("file", group,
                                                          request.source.formats)), None)
                for group in _groups(files, max(1, request.run.parallel))]
    return partitions(request, files, pieces)


def shares(request: Request, files: list[str], count: int) -> list[int]:
    """Into how many byte ranges each file is cut so that ``count`` workers get about as
    much each (1: whole; only JSON Lines files are cut)."""
    formats = request.source.formats
    sizes = [os.path.getsize(f) for f in files]
    share = sum(sizes) / count
    return [round(size / share) if share and formats.for_path(f) == "jsonl" else 1
            for f, size in zip(files, sizes, strict=True)]


def partitions(request: Request, files: list[str],
               pieces: list[int]) -> list[protocol.QueryRequest]:
    """One message a file, or a byte range of one (``pieces`` per file: a file left whole
    is read as the serial run reads it, cached for later questions)."""
    formats = request.source.formats
    jobs = []
    for path, wanted in zip(files, pieces, strict=True):
        message = for_worker(replace(request, source=Source("file", [path], formats)), None)
        ranges = linerange.cut(path, wanted) if wanted > 1 else []
        if len(ranges) <= 1:
            jobs.append(message)
        else:
            jobs.extend(replace(message, ranges=((path, start, end),)) for start, end in ranges)
    return jobs


def input_files(request: Request, flag: str) -> list[str]:
    """The files of a per-input program, in order; INVALID_ARGUMENT for a program or options
    that read more than one input at a time (``flag`` says which option asked)."""
    check_per_input(request, flag)
    return sources.resolve_files(request.source.spec)


def check_per_input(request: Request, flag: str) -> None:
    """INVALID_ARGUMENT unless the program runs on each input of files by itself."""
    run = request.run
    if request.source.kind != "file" or run.slurp or run.null_input or run.raw_input or \
            _READS_INPUTS.search(request.program):
        raise JqMagicError("INVALID_ARGUMENT", f"{flag} runs a program on each input of "
                           "several files: not with -s, -n, -R, input or inputs.",
                           f"Drop {flag}, or make the program read one input at a time.")


def _groups(files: list[str], count: int) -> list[list[str]]:
    """The files, in order, split into at most ``count`` contiguous groups."""
    count = max(1, min(count, len(files)))
    size, extra = divmod(len(files), count)
    groups, start = [], 0
    for index in range(count):
        end = start + size + (index < extra)
        groups.append(files[start:end])
        start = end
    return groups
