"""What ``jqmagic browse`` writes on the terminal, made safe and worded: text from the
document shown, never obeyed (control characters made visible), errors worded as the
notebook's jq box words them, the preview's lines and count, and what the clipboard key
can promise on this terminal.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

PREVIEW_RESULTS = 20
PREVIEW_CHARS = 400  # a result shown at most

# C0 and C1 controls, DEL, and the marks that reorder text (bidi overrides and isolates)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    r"""``text`` with every control character written as its JSON escape, so a key or a
    value holding an escape sequence (OSC, CSI, C1) is shown, not run by the terminal.

    >>> visible("a\x1b]52;c;x\x07b\x9b")
    'a\\u001b]52;c;x\\u0007b\\u009b'
    """
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 result``, ``2 results``, ``no results``."""
    many = many or f"{one}s"
    return f"no {many}" if not count else f"1 {one}" if count == 1 else f"{count:,} {many}"


def error_words(error: Any) -> str:
    """A query's error as the notebook's jq box says it: the hint first (the next step),
    then the program with its caret; a parser's token names (``expecting QQSTRING_START``)
    left out."""
    message = re.sub(r", expecting \S+(?: or \S+)*", "", error.message)
    lines = [error.hint, *error.detail.splitlines(), f"{error.code}: {message}"]
    return "\n".join(visible(line) for line in lines if line)


def preview_text(program: str, path: str) -> tuple[str | None, str]:
    """The first results of ``program`` on ``path`` as compact JSON lines (None on an
    error), and the status line (their count and time, or the error in the box's words)."""
    from jqmagic.core.errors import JqMagicError
    from jqmagic.core.query.run import preview

    try:  # no payload stored: the next key draws another preview
        result = preview(program, file=path, limit=PREVIEW_RESULTS, timeout=10)
    except JqMagicError as exc:
        return None, error_words(exc)
    lines = []
    for value in result.values:
        text = visible(json.dumps(value, ensure_ascii=False))
        lines.append(text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + " …")
    shown = len(result.values)
    more = "" if result.total <= shown else f", the first {shown:,} shown"
    return "\n".join(lines), f"{plural(result.total, 'result')}{more} ({result.elapsed:.2f} s)"


def clipboard_note(what: str, environ: dict[str, str] | None = None) -> str:
    """What Ctrl+Y (or c / p in the tree) can say it did: the text goes out by OSC 52,
    which tmux passes on only with ``set-clipboard on`` and GNU screen not at all."""
    if environ is None:
        from jqmagic.core.settings import env_text

        environ = {name: env_text(name) for name in ("TMUX", "STY")}
    said = f"{what} sent to the clipboard (OSC 52)"
    if environ.get("TMUX"):
        if _tmux_clipboard() == "on":
            return f"{said}."
        return (f"{said}; tmux drops it unless `set -g set-clipboard on`. The program is "
                "printed on exit too.")
    if environ.get("STY"):
        return f"{said}; GNU screen does not pass it on. The program is printed on exit too."
    return f"{said}; a terminal without OSC 52 drops it: the program is printed on exit."


def _tmux_clipboard() -> str:
    tmux = shutil.which("tmux")
    if tmux is None:
        return ""
    try:
        done = subprocess.run([tmux, "show-options", "-gv", "set-clipboard"],
                              capture_output=True, text=True, timeout=1)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()
