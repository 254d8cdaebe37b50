"""What a suggestion search found, and how it is shown (plain strings, no IPython)."""

from __future__ import annotations

import html
from typing import Any


class Suggestions:
    """The programs found (``programs``: program, cost, reads_input), what was tried."""

    def __init__(self, data: dict[str, Any]):
        self.data = data

    @property
    def programs(self) -> list[dict[str, Any]]:
        return self.data["programs"]

    @property
    def best(self) -> str | None:
        return self.programs[0]["program"] if self.programs else None

    def to_dict(self) -> dict[str, Any]:
        return {**self.data, "message": self.message}

    @property
    def message(self) -> str:
        tried = self.data["tried"]
        searched = (f"searched {tried['programs']} programs ({tried['kept']} distinct "
                    f"behaviours, {tried['rounds']} cost levels, {tried['nested']} nested "
                    f"searches) in {self.data['seconds']} s")
        if not self.programs:
            return (f"Nothing found within {self.data['timeout']} s: {searched}. Give "
                    "another example, or smaller ones, or a longer timeout.")
        first = self.programs[0]
        constant = "" if first["reads_input"] else \
            " Only constants fit: the output may not come from the input."
        if first["reads_input"] and first.get("embeds_output"):
            constant = (" Each program found writes part of the answer as a constant: "
                        "give another example so the answer must come from the input.")
        return f"{len(self.programs)} program(s) verified in libjq; {searched}.{constant}"

    @staticmethod
    def _mark(program: dict) -> str:
        return "   (writes the answer as a constant)" if program.get("embeds_output") else ""

    @property
    def text(self) -> str:
        lines = [self.message]
        lines += [f"  {p['program']}{self._mark(p)}" for p in self.programs]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        items = "".join(f"<li><code>{html.escape(p['program'])}</code>"
                        f"{html.escape(self._mark(p))}</li>" for p in self.programs)
        bundle = {"text/plain": self.text,
                  "text/html": f"<div>{html.escape(self.message)}<ol>{items}</ol></div>"}
        return {k: v for k, v in bundle.items()
                if (not include or k in include) and k not in (exclude or ())}
