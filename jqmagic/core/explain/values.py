"""libjq values held by Python (freed with their holder) and their bounded previews."""

from __future__ import annotations

import json
from typing import Any

from jqmagic.core.query import libjq

KIND_NULL, KIND_FALSE = 1, 2
TEXT_CHARS = 160  # a sample value's text is cut here; a bigger one shows its shape

_PREVIEW = f"""
def cut: if length > {TEXT_CHARS} then .[:{TEXT_CHARS}] + "…" else . end;
if type == "object" then {{type: type, length: length, keys: keys_unsorted[:8]}}
  + (if length <= 12 then {{text: (tojson | cut)}} else {{}} end)
elif type == "array" then {{type: type, length: length}}
  + (if length <= 12 then {{text: (tojson | cut)}} else {{}} end)
elif type == "string" then {{type: type, length: length, text: (tojson | cut)}}
else {{type: type, text: tojson}} end
"""


class Owned:
    """One owned ``jv``, released when the holder goes."""

    __slots__ = ("jv",)

    def __init__(self, value: libjq.jv):
        self.jv = value

    def copy(self) -> libjq.jv:
        return libjq._lib.jv_copy(self.jv)

    def kind(self) -> int:
        return libjq._lib.jv_get_kind(self.jv)

    def text(self) -> str:
        return libjq.dump(self.copy())

    def __del__(self):
        libjq._lib.jv_free(self.jv)


def truthy(value: Owned) -> bool:
    return value.kind() not in (KIND_NULL, KIND_FALSE)


def parse(text: str) -> Owned:
    values = libjq.parse_text(text)
    return Owned(values[0])


def pair(first: Owned, second: Owned) -> libjq.jv:
    """A new ``[first, second]`` (both kept)."""
    return libjq.array([first.copy(), second.copy()])


_preview_program: libjq.Program | None = None


def preview(value: Owned) -> dict[str, Any]:
    """The type, size and (cut) text of ``value``, or its shape when it is big."""
    global _preview_program
    if _preview_program is None:
        _preview_program = libjq.compile_program(_PREVIEW)
    out = next(libjq.results(_preview_program, value.copy()))
    return json.loads(libjq.dump(out))


def shown(found: dict[str, Any]) -> str:
    """One line for a preview: its text, else its shape."""
    if "text" in found:
        return found["text"]
    if found["type"] == "object":
        keys = ", ".join(found.get("keys", []))
        more = ", …" if found["length"] > len(found.get("keys", [])) else ""
        return f"object of {found['length']} keys {{{keys}{more}}}"
    return f"{found['type']} of length {found['length']}"
