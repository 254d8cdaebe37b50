"""The worker process's side: read a request, answer it with the fast path or libjq.

Everything that can run away or run out of memory happens here, never in the caller:
reading and converting the source (YAML, JSONC, a command's output), parsing it (kept in
the document cache for later queries), and running the program. Errors travel back as
data (``code``, ``message``, ``hint``, ``detail``), so the caller raises the very error
this side made.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import resource
import signal
import sys
import threading
import time
from typing import Any, BinaryIO

from jqmagic.core import sandbox, sources
from jqmagic.core.errors import JqMagicError
from jqmagic.core.options import Formats
from jqmagic.core.query import (
    doccache,
    failures,
    fastpath,
    libjq,
    linerange,
    progress,
    streameval,
)
from jqmagic.core.query.jvcache import JvCache
from jqmagic.core.query.spill import Spill
from jqmagic.core.query.wire import read_frame, write_frame
from jqmagic.core.settings import settings
from jqmagic.core.words import cut, term

jv_documents = JvCache(lambda: fastpath.documents.size)
"""Files parsed by libjq (the fast path's trees are ``fastpath.documents``): one budget."""
fastpath.documents.others = lambda: jv_documents.size
MAX_MESSAGES = 100
MESSAGE_CHARS = 2_000
MESSAGES_TOTAL_CHARS = 10_000


def _apply_caller(request: dict[str, Any]) -> None:
    """Take the caller's settings, working directory and home, so paths read as there."""
    for name, value in request.get("settings", {}).items():
        setattr(settings, name, value)
    if request.get("home"):
        os.environ["HOME"] = request["home"]
    if request.get("payload_dir"):
        os.environ["JQMAGIC_PAYLOAD_DIR"] = request["payload_dir"]
    if request.get("cwd") and request["cwd"] != os.getcwd():
        with contextlib.suppress(OSError):  # a folder removed since: paths are NOT_FOUND
            os.chdir(request["cwd"])


def execute(programs: libjq.ProgramCache, request: dict) -> tuple[dict, bytes]:
    """Answer one request: the fast path when it knows the program, else libjq."""
    _apply_caller(request)
    try:
        sandbox.check_program(request["program"], request["run"].get("library_paths") or [])
        if request.get("ranges"):
            return _ranges(programs, request)
        streamed = None if _events(request["run"]) else \
            streameval.answer(programs, request, _named(request))
        if streamed is not None:
            return _reply(streamed.error, streamed.total, streamed.kept, streamed.spill,
                          streamed.messages, streamed.engine, request)
        fast = fastpath.answer(request)
        if fast is not None:
            header = {"status": "ok", "error": None, "total": fast.total,
                      "sizes": [len(t.encode()) for t in fast.texts], "spilled": fast.spilled,
                      "spill_error": fast.spill_error, "messages": [], "engine": "fast"}
            return header, "".join(fast.texts).encode()
        return _with_libjq(programs, request)
    except JqMagicError as exc:
        return _failed(exc, 0, []), b""
    except MemoryError:
        fastpath.documents.clear()
        jv_documents.clear()
        return _failed(JqMagicError(
            "TOO_LARGE", "The jq program ran out of memory and was stopped.",
            "Query a smaller part (e.g. .items[:1000]) or stream with "
            f"{term('jsonl')}."), 0, []), b""


def _with_libjq(programs: libjq.ProgramCache, request: dict) -> tuple[dict, bytes]:
    run = request["run"]
    keep, spill = request["keep"], Spill(request.get("spill"))
    kept: list[bytes] = []
    total, error, program, prepared = 0, None, None, None

    def take(texts) -> None:
        nonlocal total
        for text in texts:
            total += 1
            data = text.encode()
            if keep is None or len(kept) < keep:
                kept.append(data)
            else:
                spill.add(kept, data)

    source = fastpath.source_of(request["source"])
    if run["raw_input"]:  # -R reads each file's own lines: no YAML or JSONC conversion
        source = dataclasses.replace(source, formats=Formats(False, False, False))
    try:
        program = programs.get(request["program"], _named(request),
                               run.get("library_paths") or None, request.get("positional", ()))
        dump = request.get("dump", {})
        flags = libjq.dump_flags(**request["layout"], ascii=dump.get("ascii", False),
                                 color=dump.get("color", False), colors=dump.get("colors"))
        with contextlib.ExitStack() as stack:
            parsed = _cached_inputs(stack, source, request)
            if parsed is not None:
                take(libjq.run_parsed(program, parsed, null_input=run["null_input"],
                                      slurp=run["slurp"], flags=flags))
            else:
                prepared = stack.enter_context(sources.prepare(source, run.get("timeout")))
                try:
                    take(libjq.run(program, prepared.files, null_input=run["null_input"],
                                   slurp=run["slurp"], raw_input=run["raw_input"], flags=flags,
                                   parse_flags=_events(run), stdin=prepared.stdin))
                except libjq.InputError as exc:  # said while the converted files still exist
                    error = failures.input_error(str(exc), prepared)
    except libjq.InputError as exc:
        error = failures.input_error(str(exc), prepared or sources.Prepared())
    except (libjq.CompileError, libjq.RunError, libjq.Halt) as exc:
        error = exc
    finally:
        spill.close()
    messages = program.messages if program is not None else []
    return _reply(error, total, kept, spill, messages, "libjq", request)


def _ranges(programs: libjq.ProgramCache, request: dict) -> tuple[dict, bytes]:
    """Byte ranges of JSON Lines files (--parallel); ``retry`` when only the whole files
    tell what went wrong."""
    found = linerange.answer(programs, request, _named(request))
    if found is None:
        header, body = _reply(None, 0, [], Spill(None), [], "lines", request)
        return {**header, "retry": True}, body
    return _reply(None, found.total, found.kept, found.spill, found.messages, "lines", request)


def _reply(error: Exception | None, total: int, kept: list[bytes], spill: Spill,
           messages: list[str], engine: str, request: dict) -> tuple[dict, bytes]:
    """The reply to a request libjq answered (``error``: how it stopped, if it did)."""
    halted = isinstance(error, libjq.Halt)
    run_error = [getattr(error, "first", str(error)), getattr(error, "failed", 1)] \
        if isinstance(error, libjq.RunError) else None  # inputs failed each on its own
    if isinstance(error, libjq.CompileError):
        error = failures.compile_error(str(error), request["program"])
    elif isinstance(error, libjq.RunError):
        error = failures.run_error(str(error), total)
    elif isinstance(error, libjq.Halt):
        error = failures.halt_error(error.exit_code, error.message)
    messages = messages[:MAX_MESSAGES]
    header = _failed(error, total, messages) if error else {"status": "ok", "error": None}
    header.update({"total": total, "sizes": [len(d) for d in kept], "spilled": spill.written,
                   "spill_error": spill.error, "engine": engine, "halted": halted,
                   "messages": _bounded_messages(messages)})
    if run_error:  # later inputs ran on: a join of several workers' replies goes on too
        header["run_error"] = run_error
    return header, b"".join(kept)


_READS_INPUTS = re.compile(r"\binput")


def _named(request: dict) -> dict:
    """The named arguments, --argjson ones as their JSON text (libjq parses them)."""
    return {**request.get("args", {}),
            **{k: libjq.RawJson(v) for k, v in request.get("json_args", {}).items()}}


def _events(run: dict) -> int:
    """libjq's parser flags for jq's --seq, --stream and --stream-errors (0: whole values,
    as the caches and the fast path hold them)."""
    return (libjq.PARSE_STREAMING if run.get("stream_events") or run.get("stream_errors")
            else 0) | (libjq.PARSE_STREAM_ERRORS if run.get("stream_errors") else 0) | \
        (libjq.PARSE_SEQ if run.get("seq") else 0)


def _cached_inputs(stack: contextlib.ExitStack, source, request: dict) -> list | None:
    """The source's values from the parsed-file cache, or None when the program must read
    its inputs itself (``input``, ``inputs``, ``input_filename``, ``-R``, no cache, not a
    file) or a file does not parse (libjq then reads it and reports where)."""
    run = request["run"]
    if (source.kind != "file" or not run["cache"] or run["raw_input"] or run["null_input"]
            or _events(run) or _READS_INPUTS.search(request["program"])):
        return None
    values: list = []
    try:
        for path in sources.resolve_files(source.spec):
            values.extend(stack.enter_context(
                jv_documents.values(path, source.formats.for_path(path))))
    except libjq.InputError:
        return None
    return values


def _bounded_messages(messages: list[str]) -> list[str]:
    """``debug``, ``stderr`` and ``halt_error`` messages, each and all cut to a bound that
    says what it cut."""
    out, left = [], MESSAGES_TOTAL_CHARS
    for message in messages:
        if left <= 0:
            out.append(f"… ({len(messages) - len(out):,} more messages not shown)")
            break
        out.append(cut(message, min(MESSAGE_CHARS, left)))
        left -= len(out[-1])
    return out


def _failed(error: JqMagicError, total: int, messages: list[str]) -> dict:
    return {"status": "error", "error": error.to_wire(), "total": total, "sizes": [],
            "spilled": False, "spill_error": None, "messages": messages, "engine": None}


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer requests until the caller closes the pipe."""
    programs = libjq.ProgramCache()
    while True:
        try:
            request = json.loads(read_frame(requests))
        except EOFError:
            return
        if request.get("op") == "clear_cache":
            fastpath.documents.clear()
            jv_documents.clear()
            header, body = {"status": "ok", "error": None}, b""
        else:
            progress.sending(lambda event: _send_event(replies, event))
            _send_event(replies, {"event": "begin"})
            header, body = execute(programs, request)
            progress.sending(None)
        write_frame(replies, json.dumps(header).encode())
        write_frame(replies, body)
        replies.flush()


def _send_event(replies: BinaryIO, event: dict) -> None:
    write_frame(replies, json.dumps(event).encode())
    replies.flush()


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
    """Entry point of the worker process (``python -m jqmagic.core.query.serve``)."""
    _exit_with_caller()
    limit_memory(int(os.environ.get("JQMAGIC_WORKER_MEMORY", "0")))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor decides, not Ctrl-C
    doccache.scan_beside = True  # a core to spare while a big file parses
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything libjq prints must not corrupt the replies
    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
