"""What an edit did (:class:`PatchResult`): where, what was there, what is there now."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jqmagic.core.patch.plan import Change
from jqmagic.core.words import count, preview

PRINTED_CHARS = 20_000  # print(result) shows the summary up to this many characters


@dataclass(frozen=True, eq=False, repr=False)  # equal to its mapping, as Mapping compares
class PatchResult(Mapping):
    """The changes one edit made; ``to_dict()`` (and reading it as a mapping) gives the
    JsonPatch spec's answer: ``status``, ``operation``, ``targetPath``, ``previousValue``,
    ``newValue``, ``matched``, ``changed`` (+ ``dryRun`` and ``diff``). Paths and values
    are lists when the edit wrote several values."""

    operation: str
    changes: tuple[Change, ...]
    matched: int
    changed: bool
    dry_run: bool = False
    diff: str | None = None

    def _each(self, attribute: str) -> Any:
        values = [getattr(change, attribute) for change in self.changes]
        return values[0] if len(values) == 1 else values

    @property
    def target_path(self) -> str | list[str]:
        return self._each("path")

    @property
    def previous_value(self) -> Any:
        """What was there (None where nothing was)."""
        return self._each("previous")

    @property
    def new_value(self) -> Any:
        return self._each("new")

    def to_dict(self) -> dict[str, Any]:
        data = {"status": "success", "operation": self.operation,
                "targetPath": self.target_path, "previousValue": self.previous_value,
                "newValue": self.new_value, "matched": self.matched, "changed": self.changed}
        if self.dry_run:
            data.update(dryRun=True, diff=self.diff)
        return data

    def summary(self, matched: bool = False) -> str:
        """What a person reads: one line per value written (values cut to 60 characters),
        how many elements matched (with ``matched``), whether anything changed, and a dry
        run's diff."""
        lines = [f"{self.operation} {change.path}: {preview(change.previous, 60)} -> "
                 f"{preview(change.new, 60)}" for change in self.changes]
        if matched:
            lines.append(f"{self.matched} matched.")
        if not self.changed:
            lines.append("No change: the document already holds these values.")
        if self.dry_run:
            lines += ["Dry run: nothing was written.", self.diff or ""]
        return "\n".join(lines)

    def __repr__(self) -> str:
        said = "" if self.changed else ", nothing changed"
        written = "to write (a dry run)" if self.dry_run else "written"
        values = count(len(self.changes), "value")
        return f"<PatchResult {self.operation}: {values} {written}{said}>"

    def __str__(self) -> str:
        """``print(result)``: :meth:`summary`, cut at ``PRINTED_CHARS`` (at a line end)
        with a line saying how much more it holds."""
        text = self.summary()
        if len(text) <= PRINTED_CHARS:
            return text
        shown = text[:text.rfind("\n", 0, PRINTED_CHARS) + 1 or PRINTED_CHARS]
        return f"{shown}… ({count(len(text) - len(shown), 'more character')}: .summary() " \
            "has them)"

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())
