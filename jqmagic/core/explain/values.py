"""libjq values held by Python (freed with their holder) and their bounded previews."""

from __future__ import annotations

import json
from typing import Any

from jqmagic.core.query import libjq, libjqinput

KIND_NULL, KIND_FALSE = 1, 2
TEXT_CHARS = 160  # a sample's text is cut here; past 8 items or 3 levels it shows "…"

_PREVIEW = f"""
def words($n):  # cut between words where one ends within 20 characters of the cut
  if length > $n then .[:$n + 1] | sub("\\\\s+\\\\S{{0,20}}\\\\z"; "") | .[:$n] + "…" else . end;
def cut: words({TEXT_CHARS});
def small($d):
  if type == "object" then
    if $d == 0 then "{{…}}" else to_entries[:8] | map(.value |= small($d - 1)) | from_entries end
  elif type == "array" then
    if $d == 0 then "[…]"
    else (.[:8] | map(small($d - 1))) + (if length > 8 then ["…"] else [] end) end
  elif type == "string" then words(60)
  else . end;
{{type: type}}
+ (if type == "object" or type == "array" or type == "string" then {{length: length}} else {{}} end)
+ (if type == "object" then {{keys: keys_unsorted[:8]}} else {{}} end)
+ {{text: (small(3) | tojson | cut)}}
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
    values = libjqinput.parse_text(text)
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
    """One line for a preview: its (cut) text, with its size when items were left out."""
    text = found["text"]
    size = found.get("length", 0)
    if found["type"] == "array" and size > 8:
        return f"{text} ({size} items)"
    if found["type"] == "object" and size > 8:
        return f"{text} ({size} keys)"
    return text
