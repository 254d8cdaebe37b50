"""The replies of a fan-out's partitions joined in input order into the one reply a single
worker would give: the kept texts, every text in the payload when there are more, the
first error with what came before it, jq's exit status."""

from __future__ import annotations

import os
import shutil

from jqmagic.core import payloads
from jqmagic.core.query import failures, libjqinput, protocol

Reply = tuple[protocol.End, list[bytes]]


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
        error = failures.run_error(str(libjqinput.failed_inputs(run_errors)), total,
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
