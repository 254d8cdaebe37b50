"""Reading gojq's command-line cases (format: ../shared/suites/gojq/README.md).

Only the programs, arguments and inputs are used: the expected answers are gojq's, so the
tests take theirs from libjq 1.8.2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

SUITE = Path(__file__).resolve().parents[3] / "shared" / "suites" / "gojq" / "test.yaml"
PLAIN_FLAGS = frozenset({"-c", "--compact-output", "-n", "--null-input", "-s", "--slurp",
                         "-S", "--sort-keys", "--tab", "-r", "--raw-output"})


@dataclass
class Case:
    index: int
    name: str
    args: list[str]
    input: str

    @property
    def id(self) -> str:
        return f"gojq:{self.index}:{self.name}"

    @property
    def program(self) -> str | None:
        """The one program of a command line with only :data:`PLAIN_FLAGS`, else None."""
        rest = [a for a in self.args if a not in PLAIN_FLAGS]
        return rest[0] if len(rest) == 1 and not rest[0].startswith("-") else None

    def has(self, *flags: str) -> bool:
        return any(f in self.args for f in flags)


def all_cases() -> list[Case]:
    """Every case with a stdin (cases reading gojq's own test data files are left out)."""
    cases = yaml.safe_load(SUITE.read_text(encoding="utf-8"))
    return [Case(i, c["name"], [str(a) for a in c.get("args", [])], c["input"])
            for i, c in enumerate(cases) if "input" in c and "env" not in c]
