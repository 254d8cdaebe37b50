"""The one hard bound on every message an agent face sends, counted in bytes on the wire.

Every answer of ``jqmagic tool``, the drop-in executables, MCP and the Python API passes
:func:`fit`: an answer whose JSON text (escaping and UTF-8 included) is within
:func:`limit` goes out as it is; a failure has its strings cut (a 5 MB field name, URL or
pointer echoed in a message never comes back whole); a success over the bound is kept in
the payload store and answered with its shape, a preview and the next step.
:func:`text_page` cuts a text (a payload read as a resource, a file's lines, a page) at the
bound, counting each character as it is escaped, and always advances. The bound is one
message's: ``settings.max_message_bytes`` (100,000 bytes, about 25k tokens, what common MCP
clients accept; ``--max-message-bytes`` on the agent faces), less :data:`MESSAGE_ENVELOPE`
for the protocol around an answer (MCP sends a second copy only when both fit, see
:func:`jqmagic.tools.mcp.result_of`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from jqmagic.core.settings import configure, settings
from jqmagic.core.words import cut, json_text
from jqmagic.tools.cutting import cut_value, schema_of

MESSAGE_ENVELOPE = 2_000  # bytes of the protocol around one answer (JSON-RPC, a link)
ENVELOPE_CHARS = 6_000  # bytes of an answer's own fields beyond its bounded content
ERROR_CHARS = 2_000  # each string of a failure (message, hint, detail), at most
MIN_MESSAGE_BYTES = 20_000  # a smaller bound leaves no room for an answer's fields


def limit() -> int:
    """Bytes of one answer's JSON text, at most: the message's bound less the protocol."""
    return settings.max_message_bytes - MESSAGE_ENVELOPE


def content_budget() -> int:
    """Bytes (escaped) one answer may spend on its content: the bound, less room for the
    fields around it."""
    return limit() - ENVELOPE_CHARS


def tokens() -> int:
    """The bound in tokens, as messages say it (about 4 bytes a token, an estimate)."""
    return settings.max_message_bytes // 4


_ASCII_WIRE = [False]  # set by a face whose transport writes JSON in ASCII


def ascii_wire() -> None:
    """Count answers from now on as a transport that writes JSON in ASCII sends them: the
    SDK's streamable HTTP (``json.dumps``'s default) sends é as ``\\u00e9``, 6 bytes where
    stdio's UTF-8 takes 2. ``jqmagic mcp --http`` calls it."""
    _ASCII_WIRE[0] = True


def wire_size(answer: Any) -> int:
    """Bytes of ``answer`` as JSON text, as it is sent (UTF-8, or ASCII escapes)."""
    if _ASCII_WIRE[0]:
        return len(json.dumps(answer, ensure_ascii=True))
    return len(json_text(answer).encode("utf-8", "surrogatepass"))


def escaped_size(text: str) -> int:
    """Bytes ``text`` takes inside a JSON string (quotes not counted)."""
    if text.isascii() and text.isprintable():
        return len(text) + text.count('"') + text.count("\\")
    return wire_size(text) - 2


def text_page(text: str, start: int, budget: int) -> str:
    """The part of ``text`` from ``start`` whose escaped size is within ``budget``: at least
    one character whenever any is left, so a reader paging on always advances."""
    end = min(len(text), start + max(1, budget))
    size = escaped_size(text[start:end])
    while size > budget and end - start > 1:  # shrink in proportion: cost is uneven
        end = start + max(1, (end - start) * budget // size)
        size = escaped_size(text[start:end])
    return text[start:end]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flag that sets the bound of one message (every agent face)."""
    parser.add_argument("--max-message-bytes", type=int, default=None, metavar="N",
                        help="bytes of one message at most, everything counted (default "
                             f"{settings.max_message_bytes:,}, about 25k tokens; at least "
                             f"{MIN_MESSAGE_BYTES:,})")


def apply(args: argparse.Namespace) -> None:
    """Put the face's bound in force (INVALID_ARGUMENT below :data:`MIN_MESSAGE_BYTES`)."""
    given = getattr(args, "max_message_bytes", None)
    if given is None:
        return
    if given < MIN_MESSAGE_BYTES:
        from jqmagic.core.errors import JqMagicError

        raise JqMagicError("INVALID_ARGUMENT", f"--max-message-bytes {given} is too small.",
                           f"Give at least {MIN_MESSAGE_BYTES:,}.")
    configure(max_message_bytes=given)


def fit(answer: dict[str, Any], tool: Any = None) -> dict[str, Any]:
    """``answer`` of ``tool`` (None: no tool was found) within :func:`limit` (see the
    module's docstring); the tool's ``advice`` is its own next step for a success too big
    to send."""
    if wire_size(answer) <= limit():
        return answer
    if answer.get("success") is False:
        out = cut_failure(answer)
    else:
        out = bounded(answer, tool.advice if tool is not None else "")
    return out if wire_size(out) <= limit() else last_resort(out)


def cut_failure(answer: dict[str, Any]) -> dict[str, Any]:
    """A failure with each string cut to :data:`ERROR_CHARS`; the output printed before it
    failed cut at the bound and kept whole in the payload store."""
    out = {key: cut(value, ERROR_CHARS) if isinstance(value, str) else cut_value(value)
           for key, value in answer.items() if key != "output"}
    if isinstance(answer.get("output"), str):
        out.update(cut_output(answer["output"]))
    return out


def cut_output(text: str, kept: str | None = None) -> dict[str, Any]:
    """``{"output"}`` when ``text`` fits; else its start, ``truncated`` and the payload
    holding it whole (``kept``: the results as JSON, one a line, when ``text`` is raw),
    with the way to read it."""
    from jqmagic.core import payloads

    budget = content_budget() - 2 * ERROR_CHARS
    if escaped_size(text) <= budget:
        return {"output": text}
    shown = text_page(text, 0, budget)
    ref = payloads.store(text if kept is None else kept)
    return {"output": shown, "truncated": True, "payload_id": ref.id,
            "payload_path": str(ref.path),
            "message": f"The output is {len(text):,} characters; the first {len(shown):,} are "
                       f"shown. All of it is payload {ref.id}: query it with the jq tool "
                       f'(payload="{ref.id}", slurp=true).'}


def last_resort(answer: dict[str, Any]) -> dict[str, Any]:
    """The few fields that always fit: success, code, cut message and hint, the payload."""
    keep = ("success", "error_code", "truncated", "payload_id", "payload_path", "count")
    out = {key: answer[key] for key in keep if key in answer and wire_size(answer[key]) < 200}
    for key in ("error", "hint", "message"):
        if isinstance(answer.get(key), str):
            out[key] = cut(answer[key], ERROR_CHARS)
    return out


SUMMARY_FIELD_BYTES = 1_000  # a field of the answer repeated in a summary, at most


def summary(answer: dict[str, Any]) -> dict[str, Any]:
    """The short fields of ``answer`` (success, codes, message, ids, next arguments) and a
    note naming the ones left out: the text a face sends beside a structured copy of an
    answer too big to send twice."""
    short = {key: value for key, value in answer.items()
             if wire_size(value) <= SUMMARY_FIELD_BYTES}
    left = [key for key in answer if key not in short]
    short["note"] = (f"Only this summary is repeated here, to keep one message within "
                     f"{settings.max_message_bytes:,} bytes: the whole answer (with "
                     f"{', '.join(left)}) is the result's structured content.")
    return short


def payload_step(payload_id: str, several: bool = False) -> str:
    """The call that reads a kept payload in parts: the jq tool's ``payload`` parameter
    (``slurp`` when it holds several results, one a line)."""
    slurp = ", slurp=true" if several else ""
    return (f'Query it with the jq tool: payload="{payload_id}"{slurp}, query="keys" (or '
            '"length", ".[0:20]", ".field").')


def bounded(response: dict[str, Any], advice: str = "") -> dict[str, Any]:
    """``response`` itself when the JSON an agent receives (escaping included) fits the token
    bound; else it is not sent: the answer says how big it was, shows its shape and a short
    preview (both valid JSON, cut by depth and width), and names the payload holding it and
    the calls that read it (``advice``: the tool's own; the jq tool's ``payload``)."""
    if wire_size(response) <= limit():
        return response
    text = json_text(response)
    from jqmagic.core import payloads
    from jqmagic.core.settings import estimate_tokens

    ref = payloads.store(text)
    message = (f"Not sent: the answer is {len(text):,} characters (about "
               f"{estimate_tokens(text):,} tokens), over the {limit():,}-byte bound of one "
               f"answer. It is kept as payload {ref.id}; its shape and a preview follow. "
               f"{advice} {payload_step(ref.id)}").replace("  ", " ")
    return {"success": True, "truncated": True, "message": message, "size": len(text),
            "payload_id": ref.id, "payload_path": str(ref.path),
            "next_call": {"tool": "jq", "arguments": {"payload": ref.id,
                                                      "query": biggest_part(response)}},
            "shape": schema_of(response), "preview": cut_value(response)}


def biggest_part(response: dict[str, Any]) -> str:
    """The jq program that reads the start of the biggest field of ``response`` (what made
    it too big), not the answer's own field names.

    >>> biggest_part({"success": True, "items": [1, 2]}).split(" | ")[0]
    '.["items"]'
    """
    field = max(response, key=lambda k: wire_size(response[k]), default="")
    return (f'.[{json_text(field)}] | if type == "array" then .[0:20] elif type == "object" '
            'then keys_unsorted[0:100] else tostring[0:20000] end')
