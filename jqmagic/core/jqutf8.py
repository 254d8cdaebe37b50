"""Bytes that are not UTF-8 read as jq reads them: each invalid sequence one U+FFFD, cut
as jq cuts it (Python's decoder cuts otherwise: ``b"\\xf0\\x9f\\xe2"`` is one U+FFFD to jq,
two to Python's "replace"). Importing this module registers two error handlers:
``"jq-utf8"`` (JSON text: a string's closing quote ends a sequence) and ``"jq-string"``
(a string's own bytes, as ``jv_string`` takes them)."""

from __future__ import annotations

import codecs


def _jq_replace(error: UnicodeDecodeError, in_json: bool = True) -> tuple[str, int]:
    """Where Python's decoder stops, the bytes jq's one U+FFFD stands for (``in_json``:
    in JSON text, where a string's closing quote ends a sequence)."""
    data, start = error.object, error.start
    first = data[start]
    if not 0xC2 <= first <= 0xF4:  # an invalid byte, or a continuation out of place
        return "\ufffd", start + 1
    length = 4 if first >= 0xF0 else 3 if first >= 0xE0 else 2
    at = start + 1
    while in_json and at < start + length:  # the closing quote first: one U+FFFD up to it
        if at >= len(data) or data[at] == 0x22:
            return "\ufffd", at
        at += 2 if data[at] == 0x5C else 1
    if start + length > len(data):  # the text ends inside the sequence: one U+FFFD
        return "\ufffd", len(data)
    at = start + 1
    while at < start + length and 0x80 <= data[at] <= 0xBF:
        at += 1
    return "\ufffd", at


codecs.register_error("jq-utf8", _jq_replace)
codecs.register_error("jq-string", lambda error: _jq_replace(error, in_json=False))
