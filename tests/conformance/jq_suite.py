"""Reading jq's own ``.test`` files (format: ../shared/suites/jq/README.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SUITE = Path(__file__).resolve().parents[3] / "shared" / "suites" / "jq"
FILES = ("jq.test", "man.test", "manonig.test", "onig.test", "base64.test", "uri.test",
         "optional.test")


@dataclass
class Case:
    file: str
    line: int
    program: str
    input: str | None  # None for a %%FAIL case
    expected: list[str]
    fail: bool = False
    check_message: bool = True

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def _skippable(line: str) -> bool:
    stripped = line.lstrip(" \t")
    return not stripped.strip() or stripped.startswith("#")


def read_cases(path: Path) -> list[Case]:
    """Every case of one ``.test`` file, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases, i = [], 0
    while i < len(lines):
        if _skippable(lines[i]):
            i += 1
            continue
        fail = lines[i].startswith("%%FAIL")
        check_message = lines[i].strip() != "%%FAIL IGNORE MSG"
        if fail:
            i += 1
            while _skippable(lines[i]):
                i += 1
        start, program = i + 1, lines[i]
        i += 1
        given = None
        if not fail:
            given, i = lines[i], i + 1
        expected = []
        while i < len(lines) and not _skippable(lines[i]):
            expected.append(lines[i])
            i += 1
        cases.append(Case(path.name, start, program, given, expected, fail, check_message))
    return cases


def all_cases() -> list[Case]:
    return [case for name in FILES for case in read_cases(SUITE / name)]


def known_failures() -> dict[str, str]:
    """``file:line`` -> reason, from jq_known_failures.txt."""
    known = {}
    listing = Path(__file__).with_name("jq_known_failures.txt")
    for line in listing.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            case_id, _, reason = line.partition(" ")
            known[case_id] = reason.strip()
    return known
