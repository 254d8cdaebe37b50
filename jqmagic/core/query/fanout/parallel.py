"""Per-input programs over many files on several cores: the files split into contiguous
groups (a big JSON Lines file into byte ranges at line starts, ``lines``), at most N
supervised workers taking them in turn, the answers joined back in input order (the same
text, totals, bounds, payload and first error as one worker would give)."""

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
from jqmagic.core.query import failures, libjq, protocol
from jqmagic.core.query.fanout import lines as linerange
from jqmagic.core.query.request import Request, for_worker, timeout
from jqmagic.core.query.supervisor import Supervisor

_READS_INPUTS = re.compile(r"\binputs?\b")
Reply = tuple[protocol.End, list[bytes]]
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
        jobs = _jobs(request, split=True)
        replies, spills = _asked(request, jobs, spill_dir)
        if any(end.retry for end, _ in replies):  # the whole files tell why
            replies, spills = _asked(request, _jobs(request, split=False), spill_dir)
        return joined(replies, spills, keep, slot)
    finally:
        shutil.rmtree(spill_dir, ignore_errors=True)


def _asked(request: Request, jobs: list[protocol.QueryRequest],
           spill_dir: str) -> tuple[list[Reply], list[str]]:
    """Every job's reply, in order, from at most ``parallel`` workers."""
    spills = [os.path.join(spill_dir, f"{id(jobs)}-{i}") for i in range(len(jobs))]
    count = max(1, min(request.run.parallel, len(jobs)))
    free: queue.SimpleQueue[Supervisor] = queue.SimpleQueue()
    for worker in workers(count):
        free.put(worker)

    def ask(job: tuple[protocol.QueryRequest, str]) -> Reply:
        worker = free.get()
        try:
            message = replace(job[0], spill=job[1] if job[0].keep is not None else None)
            return worker.request(message, timeout(request))
        finally:
            free.put(worker)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(ask, zip(jobs, spills, strict=True))), spills


def _jobs(request: Request, split: bool) -> list[protocol.QueryRequest]:
    """The workers' messages: contiguous groups of whole files, or (``split``) big JSON
    Lines files cut into byte ranges at line starts, so one big file uses every worker."""
    files = input_files(request, "--parallel")
    count = max(1, request.run.parallel)
    formats = request.source.formats
    sizes = [os.path.getsize(f) for f in files]
    share = sum(sizes) / count
    pieces = [round(size / share) if split and share and formats.for_path(f) == "jsonl"
              else 1 for f, size in zip(files, sizes, strict=True)]
    if max(pieces, default=1) <= 1:
        return [for_worker(replace(request, source=Source("file", group, formats)), None)
                for group in _groups(files, count)]
    jobs = []
    for path, wanted in zip(files, pieces, strict=True):
        message = for_worker(replace(request, source=Source("file", [path], formats)), None)
        ranges = linerange.cut(path, wanted) if wanted > 1 else [(0, os.path.getsize(path))]
        if len(ranges) == 1 and formats.for_path(path) != "jsonl":
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


def joined(replies: list[Reply], spills: list[str], keep: int | None,
           slot: payloads.PayloadRef | None) -> Reply:
    """One reply from the groups' replies, in input order, as one worker would give it: the
    kept texts, every text in the payload when there are more, and the first error with
    what came before it. As jq does, a jq error ends only its own input (the groups after
    it run, and the first such error is reported, counted, after all); any other failure
    (bad input, halt, compile error) ends the run (the groups after it are dropped)."""
    texts: list[bytes] = []
    total, messages, error, halted = 0, [], None, False
    run_errors: list[str] = []
    last_failed = False  # in the last group (jq's exit status is the last input's)
    for count, (end, part) in enumerate(replies, 1):
        texts.extend(part)
        total += end.total
        messages += end.messages
        if end.error and end.run_error:
            first, failed, last_failed = end.run_error
            run_errors += [first] * failed
            continue
        last_failed = False
        if end.error or end.halted:  # a halt ends the run too
            error, replies, spills = end.error, replies[:count], spills[:count]
            halted = end.halted
            break
    run_error = None
    if error is None and run_errors:
        error = failures.run_error(str(libjq.failed_inputs(run_errors)), total,
                                   len(run_errors) == 1 and last_failed).to_wire()
        run_error = [run_errors[0], len(run_errors), last_failed]
    shown = texts if keep is None else texts[:keep]
    spilled = False
    if slot is not None and total > len(shown):
        _write_payload(slot, replies, spills)
        spilled = True
    return protocol.End(error=error, total=total, spilled=spilled, messages=messages,
                        engine="parallel", halted=halted, run_error=run_error), shown


def _write_payload(slot: payloads.PayloadRef, replies: list[Reply],
                   spills: list[str]) -> None:
    """Every result, in order: each group's kept texts, then what it spilled."""
    slot.path.parent.mkdir(parents=True, exist_ok=True)
    with open(slot.path, "wb") as out:
        for (end, texts), spill in zip(replies, spills, strict=True):
            if end.spilled and os.path.exists(spill):
                with open(spill, "rb") as rest:  # the group's whole output, kept ones first
                    shutil.copyfileobj(rest, out)
            else:
                out.writelines(t + b"\n" for t in texts)
