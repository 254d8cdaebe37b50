"""The worker process: read a request, answer it with the fast path or libjq, the results
sent to the caller as they are produced (see ``protocol`` and ``sink``).

Everything that can run away or run out of memory happens here, never in the caller:
reading and converting the source (YAML, JSONC, a command's output), parsing it (kept in
the document cache for later queries), and running the program. Errors travel back as
data (``code``, ``message``, ``hint``, ``detail``), so the caller raises the very error
this side made.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import re
import resource
import select
import signal
import threading
import time
from typing import BinaryIO

from jqmagic.core import confine, sandbox, sources
from jqmagic.core.errors import JqMagicError, out_of_memory, too_deep
from jqmagic.core.jqlang import runtime
from jqmagic.core.options import Formats
from jqmagic.core.query import (
    callerenv,
    failures,
    fastpath,
    heldinputs,
    libjq,
    libjqinput,
    literalfacts,
    progress,
    protocol,
)
from jqmagic.core.query.fanout import lines
from jqmagic.core.query.jvcache import JvCache
from jqmagic.core.query.outcome import dump_flags, ended, named
from jqmagic.core.query.sink import Channel, Sink, Stopped
from jqmagic.core.query.streaming import answer as streamed  # big files in one pass
from jqmagic.core.settings import configure, worker_memory, worker_parent
from jqmagic.core.sources.prepare import run_together
from jqmagic.core.words import term

jv_documents = JvCache(lambda: fastpath.documents.size, fastpath.documents)
"""Files parsed by libjq (the fast path's trees are ``fastpath.documents``): one budget."""
fastpath.documents.share_budget_with(lambda: jv_documents.size)


def _apply_caller(caller: protocol.Caller) -> None:
    """Take the caller's settings as this process's own (it serves that caller alone), and
    its working directory and home, so paths read as there."""
    configure(**caller.settings)
    if caller.home:
        os.environ["HOME"] = caller.home
    if caller.payload_dir:
        os.environ["JQMAGIC_PAYLOAD_DIR"] = caller.payload_dir
    if caller.cwd and caller.cwd != os.getcwd():
        with contextlib.suppress(OSError):  # a folder removed since: paths are NOT_FOUND
            os.chdir(caller.cwd)
    callerenv.as_callers()  # libjq's $ENV: the caller's environment, not the worker's


def execute(programs: libjq.ProgramCache, request: protocol.QueryRequest,
            channel: Channel | None = None) -> protocol.End:
    """Answer one request, its texts into a :class:`Sink` on ``channel`` (None: only
    counted): a streamed pass for a big file, else the fast path when it knows the
    program, else libjq."""
    runtime.unclocked()
    _apply_caller(request.caller)
    sink = Sink(channel, request.keep, request.spill, request.run.timeout)
    try:
        try:
            sandbox.check_program(request.program, list(request.run.library_paths))
            if request.ranges:
                return _ranges(programs, request, sink)
            if _unreadable_among(request):  # read in order, as jq reads them
                return _with_libjq(programs, request, sink)
            if not _events(request.run):
                if streamed.over_budget(request):  # read as it comes, never kept
                    request = dataclasses.replace(
                        request, run=dataclasses.replace(request.run, cache=False))
                end = streamed.answer(programs, request, sink)
                if end is not None:
                    return end
            if fastpath.answer(request, sink):
                sink.close()
                return sink.end(engine="fast")
            return _with_libjq(programs, request, sink)
        finally:
            sink.close()
    except Stopped:
        return sink.end(stopped=True)
    except JqMagicError as exc:
        return sink.end(error=exc.to_wire())
    except (MemoryError, SystemError) as exc:
        return sink.end(error=_out_of_memory(
            exc, "The jq program ran out of memory and was stopped.",
            f"Query a smaller part (e.g. .items[:1000]) or stream with {term('jsonl')}."))


def _with_libjq(programs: libjq.ProgramCache, request: protocol.QueryRequest,
                sink: Sink) -> protocol.End:
    run = request.run
    error, program, prepared = None, None, None
    source = request.source.source()
    if run.raw_input:  # -R reads each file's own lines: no YAML or JSONC conversion
        source = dataclasses.replace(source, formats=Formats(False, False, False))
    as_named = _unreadable_among(request)
    try:
        program = programs.get(request.program, named(request),
                               list(run.library_paths) or None, request.positional,
                               run.program_origin)
        flags = dump_flags(request)
        with contextlib.ExitStack() as stack:
            parsed = None if as_named else _cached_inputs(stack, source, request)
            if parsed is not None:
                batches = heldinputs.run(program, parsed, flags, batched=True) \
                    if run.null_input else libjqinput.run_parsed(
                        program, parsed, slurp=run.slurp, flags=flags, batched=True)
                for texts in batches:
                    sink.add_many(texts)
            else:
                prepared = sources.Prepared(files=as_named) if as_named else \
                    stack.enter_context(sources.prepare(source, run.timeout))
                if prepared.naming(request.program) != request.program:  # compiled as is first
                    program = programs.get(prepared.naming(request.program), named(request),
                                           list(run.library_paths) or None, request.positional,
                                           run.program_origin)
                try:
                    for texts in libjqinput.run(program, prepared.files, null_input=run.null_input,
                                                slurp=run.slurp, raw_input=run.raw_input,
                                                flags=flags, parse_flags=_events(run),
                                                stdin=prepared.stdin, batched=True):
                        sink.add_many(texts)
                except libjq.InputError as exc:  # said while the converted files still exist
                    error = _unreadable_error(str(exc), as_named) or \
                        failures.input_error(str(exc), prepared)
    except libjq.InputError as exc:
        error = failures.input_error(str(exc), prepared or sources.Prepared())
    except (libjq.CompileError, libjq.RunError, libjq.Halt) as exc:
        error = exc
    messages = program.messages if program is not None else []
    return ended(sink, error, messages, "libjq", request.program,
                 last_number=program is not None and program.last_kind == libjq.KIND_NUMBER,
                 input_errors=getattr(program, "input_errors", None))


def _ranges(programs: libjq.ProgramCache, request: protocol.QueryRequest,
            sink: Sink) -> protocol.End:
    """Byte ranges of JSON Lines files (--parallel); ``retry`` when only the whole files
    tell what went wrong."""
    found = lines.answer(programs, request, sink)
    if found is None:
        return protocol.End(engine="lines", retry=True)
    return ended(sink, None, found, "lines", request.program)


_READS_INPUTS = re.compile(r"\binput")


def _unreadable_among(request: protocol.QueryRequest) -> list[str] | None:
    """The command line's file names, when one cannot be read (jq says so when it comes
    to it, after the results of the files before, reads one value past it and stops) and
    libjq can read them as named: a run per input (not -n or -s), plain JSON, no glob, no
    sandbox; else None (a file that cannot be read is NOT_FOUND before the run)."""
    source = request.source.source()
    run = request.run
    if not run.whole_files or run.null_input or run.slurp or source.kind != "file" or \
            sandbox.enabled():
        return None
    names = [source.spec] if isinstance(source.spec, str) else list(source.spec)
    if any(source.formats.for_path(name) not in ("json", "jsonl") or
           (glob.has_magic(name) and not os.path.lexists(name)) for name in names):
        return None
    if all(os.path.isfile(name) and os.access(name, os.R_OK) for name in names):
        return None
    return names


def _unreadable_error(said: str, names: list[str] | None) -> JqMagicError | None:
    """The files of ``names`` libjq could not open (``said``: their names, a line each) in
    jq's sentence and the core's hint, at jq's status (2); None for another failure."""
    failed = said.split("\n")
    if not names or not set(failed) <= set(names):
        return None
    error = failures.unreadable(failed[0]) or JqMagicError(
        "FILE_ERROR", f"Could not open file {failed[0]}.", "Check that it is readable.")
    if len(failed) > 1:
        error.raw_message += f" (nor {', '.join(failed[1:])})"
    error.exit_code = 2
    return error


def _events(run: protocol.RunSpec) -> int:
    """libjq's parser flags for jq's --seq, --stream and --stream-errors (0: whole values,
    as the caches and the fast path hold them)."""
    return (libjq.PARSE_STREAMING if run.stream_events or run.stream_errors else 0) | \
        (libjq.PARSE_STREAM_ERRORS if run.stream_errors else 0) | \
        (libjq.PARSE_SEQ if run.seq else 0)


def _cached_inputs(stack: contextlib.ExitStack, source,
                   request: protocol.QueryRequest) -> list | None:
    """The source's values from the parsed-file cache, or None when the program must read
    its inputs itself (``-R``, no cache, not a file; ``input`` without ``-n``; with
    ``-n``, no ``inputs`` or a program :mod:`.heldinputs` cannot serve; a file whose
    parse would be over the budget, :meth:`.JvCache.left_to_libjq`) or a file does not
    parse (libjq then reads it and reports where)."""
    run = request.run
    if source.kind != "file" or not run.cache or run.raw_input or _events(run):
        return None
    reads_inputs = _READS_INPUTS.search(request.program)
    if (reads_inputs is not None) != run.null_input or run.null_input and (
            run.slurp or not heldinputs.answers(request.program)):
        return None
    values: list = []
    paths = sources.resolve_files(source.spec)
    if run_together(paths):  # jq reads the files as one stream: libjq reads them so
        return None
    if any(jv_documents.left_to_libjq(path, source.formats.for_path(path)) for path in paths):
        return None
    try:
        for path in paths:
            values.extend(stack.enter_context(
                jv_documents.values(path, source.formats.for_path(path))))
    except libjq.InputError:
        return None
    return values


def called(_programs: libjq.ProgramCache, call: protocol.Call,
           channel: Channel) -> protocol.End:
    """Run one of :func:`calls` for the caller and send its answer as one chunk."""
    runtime.unclocked()
    _apply_caller(call.caller)
    try:
        function = calls()[call.name]
        answer = protocol.answer_bytes(function(**call.kwargs))
    except JqMagicError as exc:
        return protocol.End(error=exc.to_wire())
    except RecursionError:  # an answer nested past what pickle walks
        return protocol.End(error=too_deep(
            f"The {call.name}'s answer", "Look at a deeper part (a path), or at fewer "
            "levels (depth).").to_wire())
    except (MemoryError, SystemError) as exc:
        return protocol.End(error=_out_of_memory(
            exc, f"The {call.name} ran out of the worker's memory and was stopped.",
            f"Read it in one streaming pass with {term('inspect_stream')}, or look at a "
            f"smaller part with {term('path')}."))
    with channel.lock:
        channel.send_chunk(protocol.Chunk([answer]))
    return protocol.End()


def calls() -> dict:
    """The core functions a caller may run here (the shape package is loaded on the first
    call: most workers only answer queries)."""
    from jqmagic.core.shape import hints, infer

    return {"shape": infer.shape_here, "hint": hints.hint_here}


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer requests until the caller closes the pipe."""
    programs = libjq.ProgramCache()
    channel = Channel(requests, replies)
    while True:
        try:
            message = protocol.read_request(protocol.read_frame(requests))
        except EOFError:
            return
        if isinstance(message, protocol.Control):
            if message.op == "clear_cache":
                fastpath.documents.clear()
                jv_documents.clear()
            if message.op != "stop":  # a stop that came after its query ended: no reply
                channel.send(protocol.End())
            continue
        channel.stop_asked = False
        progress.sending(lambda event: channel.send(protocol.Event(**event)))
        channel.send(protocol.Event("begin"))
        run = execute if isinstance(message, protocol.QueryRequest) else called
        end = run(programs, message, channel)
        progress.sending(None)
        channel.send(end)
        _work_while_idle(requests.fileno())


IDLE_AFTER = 0.05  # seconds without a request before idle work starts


def _work_while_idle(fd: int) -> None:
    """What a quiet moment is for: a JSON Lines file a second question extended is read
    whole (``doccache.widen_idle``), block by block, until a request comes."""
    if fastpath.documents.widening and not select.select([fd], [], [], IDLE_AFTER)[0]:
        runtime.unclocked()
        try:
            fastpath.documents.widen_idle(lambda: bool(select.select([fd], [], [], 0)[0]))
        except Exception:  # noqa: BLE001 - a saving of time: it never ends the worker
            fastpath.documents.stop_widening()


def limit_memory(limit: int) -> None:
    """Cap the address space at ``limit`` bytes, within any limit the host already set."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if limit and (soft == resource.RLIM_INFINITY or limit < soft):
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _exit_with_caller(every: float = 1.0) -> None:
    """Stop when the caller is gone (a killed kernel, a command line ended by a signal):
    nobody is left to stop a program that runs on, so the worker must not outlive it."""
    caller = os.getppid()

    def watch() -> None:
        while os.getppid() == caller:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="caller-watch", daemon=True).start()


def main() -> None:
    """Entry point of the worker process (``python -m jqmagic.core.query.worker``)."""
    confine.start_worker(worker_parent())  # before any request is read
    _exit_with_caller()
    limit_memory(worker_memory())
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor decides, not Ctrl-C
    literalfacts.use_a_spare_core()  # a core to spare while a big file parses
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything libjq prints must not corrupt the replies
    # unbuffered, so a stop is seen at once; a descriptor of its own, since libjq's runs
    # lend fd 0 to the text they read as standard input
    serve(os.fdopen(os.dup(0), "rb", buffering=0), replies)


def _out_of_memory(exc: BaseException, message: str, hint: str) -> dict:
    """TOO_LARGE (its wire form) for ``exc`` when it is the worker running out of memory,
    its caches emptied so that it lives on; ``exc`` raised again otherwise."""
    if not out_of_memory(exc):
        raise exc
    fastpath.documents.clear()
    jv_documents.clear()
    return JqMagicError("TOO_LARGE", message, hint).to_wire()


if __name__ == "__main__":
    main()

