"""How often the fast path declines, and why, on generated questions over held-out-like data
(``bench/heldout.py``: -0.0, 1.0, 1e-05, integers past 2^53, non-ASCII text, nulls, optional
arrays); every answer it gives is checked against the jq 1.8.2 command line, byte for byte
(issue 53).

    python bench/declines.py [--mb 4] [--n 200] [--seed 53]   # writes RESULTS-declines.md

Runs in this process (the fast path called directly, its document cache kept between
questions); the reason of a decline is the last "not mine" raised while answering.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import heldout  # noqa: E402

JQ18 = str(Path(sys.executable).parent / "jq-1.8.2")
RESULTS = HERE / "RESULTS-declines.md"
HEADER = """# Where the fast path declines (bench/declines.py, issue 53)

Generated questions (`bench/heldout.py`) over a held-out-like event log (-0.0, 1.0, 1e-05,
integers past 2^53, non-ASCII text, nulls, optional arrays). A question the fast path
declines goes to libjq; every answer it gives is compared with jq 1.8.2's byte for byte.
`python bench/declines.py --mb 8 --n 200 --seed 53` wrote this file."""


class _Texts:
    """A sink keeping what the fast path prints (cleared when it declines)."""

    def __init__(self):
        self.texts: list[bytes] = []

    def add(self, data: bytes) -> None:
        self.texts.append(data)

    def add_many(self, texts: list[bytes]) -> None:
        self.texts.extend(texts)

    def hold(self) -> None:
        pass

    release = hold

    def waited(self) -> float:  # no pipe: nothing waits on a reader
        return 0.0

    def restart(self) -> None:
        self.texts.clear()


def fast_answer(program: str, path: Path) -> tuple[str | None, str]:
    """The fast path's compact text of ``program`` run with -n over ``path`` (None when it
    declines) and the last reason it gave for not answering."""
    from jqmagic.core.jqlang import errors
    from jqmagic.core.query import fastpath
    from jqmagic.core.query.protocol import QueryRequest, RunSpec, SourceSpec

    reasons: list[str] = []
    original = errors.NotMine.__init__

    def noted(self, *args):
        reasons.append(str(args[0]) if args else "")
        original(self, *args)

    layout = {"indent": 2, "compact": True, "sort_keys": False, "tab": False}
    request = QueryRequest(program, SourceSpec("file", str(path), {}),
                           RunSpec(null_input=True, timeout=120, cache=True), args={},
                           layout=layout)
    sink = _Texts()
    errors.NotMine.__init__ = noted
    try:
        answered = fastpath.answer(request, sink)
    finally:
        errors.NotMine.__init__ = original
    if answered:
        return b"".join(t + b"\n" for t in sink.texts).decode(), ""
    from jqmagic.core.jqlang import compile_subset
    from jqmagic.core.query import inputbind
    if inputbind.bind(program, frozenset(), True) is None and \
            compile_subset(program) is None:
        return None, reasons[-1] if reasons else "outside the subset"
    return None, reasons[-1] if reasons else "a jq error (libjq words it)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=4)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args()
    path = heldout.events_file(args.mb)
    programs = heldout.questions(args.n, args.seed)
    declined: collections.Counter = collections.Counter()
    forms: dict[str, set[str]] = collections.defaultdict(set)
    differ = []
    for program in programs:
        text, reason = fast_answer(program, path)
        if text is None:
            declined[reason] += 1
            forms[reason].add(program)
            continue
        jq = subprocess.run([JQ18, "-nc", program, str(path)], capture_output=True,
                            text=True, timeout=600)
        if jq.returncode or jq.stdout != text:
            differ.append(program)
    total = sum(declined.values())
    lines = [f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f}: "
             f"{args.n} questions over {path.name} ({path.stat().st_size / 1e6:.1f} MB, seed "
             f"{args.seed}): the fast path declined **{total}** ({100 * total / args.n:.1f}%); "
             f"answers differing from jq 1.8.2: **{len(differ)}**.", "",
             "| reason | declined | forms |", "|---|---:|---|"]
    for reason, count in declined.most_common():
        shown = "; ".join(f"`{p}`" for p in sorted(forms[reason])[:3]).replace("|", "\\|")
        lines.append(f"| {reason} | {count} | {shown} |")
    lines += [f"DIFFERS: `{program}`" for program in differ]
    print("\n".join(lines))
    RESULTS.write_text(f"{HEADER}\n\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
