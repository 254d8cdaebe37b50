"""One jq query: run the program (fast path, else the libjq worker), bound the result."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

from jqmagic.core import bounds, fastpath, payloads, sources
from jqmagic.core.errors import JqMagicError, caret_excerpt, too_deep
from jqmagic.core.settings import estimate_tokens, settings
from jqmagic.core.worker import shared_worker

PRECISE_ERROR_BYTES = 64 * 1024 * 1024
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_UNDEFINED_VAR = re.compile(r"\$(\w+) is not defined")
_POSITION = re.compile(r"at line (\d+), column (\d+)")
_COMPILE_PLACE = re.compile(r"^jq: error: (?P<what>.*?)(?: at <top-level>, line (?P<line>\d+)"
                            r"(?:, column (?P<col>\d+))?)?:?$")


@dataclass
class QueryResult:
    """What a query gave: values, jq's printed text, and how they were bounded."""

    program: str
    values: list[Any]
    text: str
    total: int
    raw: bool = False
    truncated: bool = False
    message: str = ""
    payload_id: str | None = None
    messages: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def payload_path(self) -> str | None:
        """Where the whole result is kept on disk, when it was too big to show."""
        return str(payloads.find(self.payload_id).path) if self.payload_id else None

    @property
    def value(self) -> Any:
        """The only value, or the list of values when there are several."""
        return self.values[0] if len(self.values) == 1 else self.values

    def to_dict(self) -> dict:
        data = {"success": True, "output": self.text, "count": self.total,
                "truncated": self.truncated}
        if self.message:
            data["message"] = self.message
        if self.payload_id:
            data["payload_id"] = self.payload_id
            data["payload_path"] = self.payload_path
        return data

    def __repr__(self) -> str:
        return f"<QueryResult {self.program!r}: {self.total} result(s)>"


def query(program: str, source: Any = None, *, file: Any = None, text: str | None = None,
          value: Any = None, exec: str | None = None, raw: bool = False,
          compact: bool = False, slurp: bool = False, null_input: bool = False,
          raw_input: bool = False, args: dict[str, Any] | None = None, jsonl: bool | None = None,
          yaml: bool | None = None, jsonc: bool | None = None, limit: int | None = None,
          passthrough: bool = False, timeout: float | None = None,
          namespace: dict[str, Any] | None = None, sort_keys: bool = False,
          indent: int = 2, tab: bool = False, library_paths: list[str] | None = None,
          max_tokens: int | None = None, value_given: bool = False,
          cache: bool = True) -> QueryResult:
    """Run the jq ``program`` over exactly one source, as the jq command line would.

    Sources: a positional ``source`` (path, glob, list of paths, JSON text or a Python
    value), or one of ``file``, ``text``, ``value``, ``exec`` (a shell command's stdout);
    none with ``null_input``. ``args`` binds ``$name`` to JSON values (``--arg`` /
    ``--argjson``); ``raw_input`` reads lines as strings (``-R``); a ``$name`` left
    unbound is looked up in ``namespace``.
    At most ``limit`` results (default 100) and about ``max_tokens`` tokens of text are
    kept unless ``passthrough``; the rest is saved to disk and the result says where.
    Programs in jqlang's subset run in-process on parsed trees (files stay parsed for
    later queries unless ``cache`` is false); the rest runs in the libjq worker. Both give
    the same answer.

    >>> query(".a", text='{"a": 1234567890123456789}').values
    [1234567890123456789]
    """
    started = time.perf_counter()
    if not program or not program.strip():
        raise JqMagicError("INVALID_QUERY", "The jq program is empty.",
                           "Give a filter; '.' returns the input unchanged.")
    args = _check_args(args)
    limit = settings.max_results if limit is None else limit
    max_tokens = settings.max_tokens if max_tokens is None else max_tokens
    timeout = settings.timeout if timeout is None else timeout
    layout = {"indent": indent, "compact": compact, "sort_keys": sort_keys, "tab": tab}
    slot = None if passthrough else payloads.reserve()
    keep, spill = None if passthrough else limit, None if slot is None else str(slot.path)
    picked = None if raw_input or exec is not None else sources.pick_source(
        source, file=file, text=text, value=value, null_input=null_input,
        value_given=value_given)
    fast = None if raw_input or exec is not None else fastpath.answer(fastpath.Request(
        program, picked, args, namespace, slurp, null_input, layout, keep, spill, timeout,
        cache, {"jsonl": jsonl, "yaml": yaml, "jsonc": jsonc}))
    error = None
    if fast is not None:
        header = {"total": fast.total, "spilled": fast.spilled,
                  "spill_error": fast.spill_error, "messages": []}
        texts, values = fast.texts, fast.values
    else:
        with sources.prepare(source, file=file, text=text, value=value, exec=exec,
                             jsonl=jsonl, yaml=yaml, jsonc=jsonc, null_input=null_input,
                             exec_timeout=timeout, value_given=value_given) as prepared:
            request = {"program": program, "args": args, "files": prepared.files,
                       "null_input": null_input, "slurp": slurp, "raw_input": raw_input,
                       "layout": layout, "library_paths": library_paths, "keep": keep,
                       "spill": spill}
            header, body = _run(request, timeout, namespace)
            error = _status_error(header, program, prepared)
        texts = _split(body, header["sizes"])
        values = _parse_results(texts)
    result = _result(program, texts, values, header, raw, passthrough, max_tokens,
                     payloads.settle(slot) if header["spilled"] else None)
    result.elapsed = time.perf_counter() - started
    if exec is None and not null_input:
        _add_shape_hint(result, error, dict(source=source, file=file, text=text, value=value,
                                            value_given=value_given, jsonl=jsonl, yaml=yaml,
                                            jsonc=jsonc))
    if error is not None:
        error.result = result  # what the program printed before it failed, as jq shows it
        raise error
    return result


def _add_shape_hint(result: QueryResult, error: JqMagicError | None, source: dict) -> None:
    """Say what is there when a path fails, finds nothing or finds only nulls."""
    from jqmagic.core.hints import hint_for_source

    if error is not None and error.code == "QUERY_ERROR":
        hint = hint_for_source(result.program, error=error.message, **source)
        error.hint = hint or error.hint
        return
    only_nulls = result.values and not result.truncated and all(v is None for v in
                                                                  result.values)
    if error is None and (result.total == 0 or only_nulls):
        hint = hint_for_source(result.program, results=result.values, **source)
        if hint:
            result.message = (f"{result.message}. " if result.message else "") + f"Hint: {hint}"


def _check_args(args: dict[str, Any] | None) -> dict[str, Any]:
    for name in args or {}:
        if not _NAME.match(name):
            raise JqMagicError("INVALID_ARGUMENT", f"{name!r} is not a valid jq variable name.",
                               "Use letters, digits and underscores, e.g. --arg user_id 42.")
    checked = dict(args or {})
    sources.dumps(checked)  # fails early, with a clear message, on a non-JSON value
    return checked


def _run(request: dict, timeout: float, namespace: dict[str, Any] | None) -> tuple[dict, bytes]:
    """Send the request; bind ``$name``s jq reports undefined from ``namespace`` and retry."""
    while True:
        header, body = shared_worker().request(request, timeout)
        if header["status"] != "compile_error" or not namespace:
            return header, body
        missing = set(_UNDEFINED_VAR.findall(header["error"])) - set(request["args"])
        found = {name: namespace[name] for name in missing if name in namespace}
        if not found or len(found) < len(missing):
            return header, body
        request = dict(request, args={**request["args"], **_jsonable_vars(found)})


def _jsonable_vars(found: dict[str, Any]) -> dict[str, Any]:
    return {name: json.loads(sources.dumps(val)) for name, val in found.items()}


def _split(body: bytes, sizes: list[int]) -> list[str]:
    texts, pos = [], 0
    for size in sizes:
        texts.append(body[pos:pos + size].decode("utf-8"))
        pos += size
    return texts


def _status_error(header: dict, program: str,
                  prepared: sources.Prepared) -> JqMagicError | None:
    """The error a worker reply reports, or None when the program ended normally."""
    status, error = header["status"], header["error"]
    if status == "ok" or (status == "halt" and error["exit_code"] == 0 and not error["message"]):
        return None
    if status == "compile_error":
        return _compile_error(error, program)
    if status == "run_error":
        after = f" (after {header['total']} result(s))" if header["total"] else ""
        return JqMagicError("QUERY_ERROR", f"jq error{after}: {error}",
                            "Check the types along the path; try `%inspect` on the input or "
                            "add `?` to skip values that do not fit.")
    if status == "halt":
        return JqMagicError("QUERY_ERROR", f"halt_error (exit status {error['exit_code']}): "
                            f"{(error['message'] or '').rstrip()}",
                            "The program stopped itself with halt_error.")
    return _input_error(error, prepared)


def _compile_error(error: str, program: str) -> JqMagicError:
    lines = [line for line in error.splitlines() if line.strip()]
    first = lines[0] if lines else "the program does not compile"
    match = _COMPILE_PLACE.match(first)
    what = match["what"] if match else first.removeprefix("jq: error: ")
    detail = ""
    if match and match["line"] and match["col"]:
        detail = caret_excerpt(program, int(match["line"]), int(match["col"]))
    hint = "Check the jq syntax; quote keys with special characters: .\"my-key\"."
    var = _UNDEFINED_VAR.search(error)
    if var:
        hint = (f"Bind it with --arg {var[1]} VALUE or --argjson {var[1]} JSON, or define a "
                f"JSON-serializable Python variable {var[1]}.")
    extra = len([line for line in lines[1:] if line.startswith("jq: error")])
    more = f" (and {extra} more error(s))" if extra else ""
    return JqMagicError("INVALID_QUERY", f"Invalid jq program: {what}{more}", hint, detail)


def _input_error(error: str, prepared: sources.Prepared) -> JqMagicError:
    where = re.search(r"\(at (?P<file>.*):\d+\)$", error)
    path = where["file"] if where else (prepared.files[0] if prepared.files else "<input>")
    why = error[: where.start()].strip() if where else error
    label = prepared.label(path)
    position = _POSITION.search(why)
    if position is None or not os.path.isfile(path):
        if why == path or os.path.basename(why) == os.path.basename(path):
            return JqMagicError("FILE_ERROR", f"Could not read {label}.",
                                "Check that the file exists and is readable.")
        return JqMagicError("INVALID_JSON", f"{label}: {why}", "Check the JSON syntax.")
    fmt = prepared.formats.get(path, "json")
    precise = _python_parse_error(path, label, fmt)
    if precise is not None:
        return precise
    line, column = int(position[1]), int(position[2])
    why = why[: position.start()].strip()
    return sources.invalid_json(label, why, _read_line_window(path, line), line, column, fmt)


def _python_parse_error(path: str, label: str, fmt: str) -> JqMagicError | None:
    """Python's parser points at the exact character; ask it when the file is not huge."""
    if os.path.getsize(path) > PRECISE_ERROR_BYTES:
        return None
    try:
        sources.parse_json(sources.read_text(path), label, fmt)
    except JqMagicError as exc:
        return exc if exc.code == "INVALID_JSON" else None
    return None


def _read_line_window(path: str, line: int) -> str:
    """The file's text up to ``line`` (only the lines needed for an excerpt)."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, text in enumerate(handle, 1):
            out.append(text if number >= line - 1 else "\n")
            if number >= line:
                break
    return "".join(out)


def _store(json_text: str, result: QueryResult) -> str:
    """Keep the whole output in the payload store; say where, or why it could not be kept."""
    try:
        stored = payloads.store(json_text)
    except JqMagicError as exc:  # a full disk must not cost the user the answer
        return f"nowhere: it could not be saved ({exc.message})"
    result.payload_id = stored.id
    return f"payload {stored.id} ({stored.path})"


def _parse_results(texts: list[str]) -> list[Any]:
    try:
        return [json.loads(t) for t in texts]
    except RecursionError:
        raise too_deep("A result", "Select a part of it, e.g. .a.b, or print it with "
                       "tojson.") from None


def _result(program: str, texts: list[str], values: list[Any], header: dict, raw: bool,
            passthrough: bool, max_tokens: int,
            spilled: payloads.PayloadRef | None) -> QueryResult:
    printed = [v if raw and isinstance(v, str) else t for v, t in zip(values, texts, strict=True)]
    text = "\n".join(printed)
    total = header["total"]
    result = QueryResult(program, values, text, total, raw=raw, messages=header["messages"])
    payload = None
    if spilled is not None:
        result.payload_id, payload = spilled.id, f"payload {spilled.id} ({spilled.path})"
    elif header.get("spill_error"):
        payload = f"nowhere: it could not be saved ({header['spill_error']})"
    if total == 0:
        result.message = bounds.NO_RESULTS
    elif not passthrough and total > len(values):
        result.truncated = True
        result.message = bounds.truncation_message(program, len(values), total, payload)
    max_chars = max_tokens * 4
    if not passthrough and len(text) > max_chars:
        if payload is None:
            payload = _store("\n".join(texts) + "\n", result)
        result.text = bounds.cut_text(text, max_chars)
        result.truncated = True
        result.message = bounds.token_message(estimate_tokens(text), max_tokens, payload)
    return result
