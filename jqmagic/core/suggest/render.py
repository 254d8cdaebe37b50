"""What a suggestion search found, and how it is shown (plain strings, no IPython)."""

from __future__ import annotations

import html
from typing import Any

from jqmagic.core.words import count


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
        searched = (f"searched {count(tried['programs'], 'program')} "
                    f"({count(tried['kept'], 'distinct behaviour')}, "
                    f"{count(tried['rounds'], 'cost level')}, "
                    f"{count(tried['nested'], 'nested search').replace('searchs', 'searches')})"
                    f" in {self.data['seconds']} s")
        if not self.programs:
            return (f"Nothing found within {self.data['timeout']} s: {searched}. Give "
                    "another example, or smaller ones, or a longer timeout.")
        first = self.programs[0]
        constant = "" if first["reads_input"] else \
            " Only constants fit: the output may not come from the input."
        if first["reads_input"] and first.get("embeds_output"):
            constant = (" Each program found writes part of the answer as a constant: "
                        "give another example so the answer must come from the input.")
        examples = self.data.get("examples")
        on = f" on {count(examples, 'example')}" if examples else ""
        aside = tried.get("set_aside", 0)
        if aside:
            constant += (f" {count(aside, 'other program')} fitting the examples left out:"
                         " on the inputs changed a little they answer otherwise than the"
                         " first (give another example if one of them is what you meant).")
        return f"{count(len(self.programs), 'program')} verified in libjq{on}; {searched}." \
            f"{constant}"

    @staticmethod
    def label(program: dict) -> str:
        """What a program found is: it reads the input, is a constant, or carries the
        answer written in it."""
        if program.get("embeds_output"):
            return "(writes the answer as a constant)"
        return "(reads the input)" if program["reads_input"] else \
            "(a constant: the same for any input)"

    @property
    def text(self) -> str:
        width = max((len(p["program"]) for p in self.programs), default=0)
        lines = [self.message]
        lines += [f"  {p['program'].ljust(width)}   {self.label(p)}" for p in self.programs]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        items = "".join(f"<li><code>{html.escape(p['program'])}</code>"
                        f" {html.escape(self.label(p))}</li>" for p in self.programs)
        bundle = {"text/plain": self.text,
                  "text/html": f"<div>{html.escape(self.message)}<ol>{items}</ol></div>"}
        return {k: v for k, v in bundle.items()
                if (not include or k in include) and k not in (exclude or ())}
