"""Where removing a member of a JSON / JSONC object or array cuts the text: with its
separator, and with its lines when it stands alone on them, keeping comments that must stay."""

from __future__ import annotations

from jqmagic.core.patch.jsonscan import _HWS, Member, _line_comment_end, _starts_line, closing, ws


def cut_with_next(text: str, target: Member) -> tuple[int, int, str]:
    """Delete a member that has a next one, or a trailing comma: from its start through the
    comma after it."""
    start = target.start
    comma = ws(text, target.vend)
    end = _HWS.match(text, comma + 1).end()
    eol = _line_comment_end(text, end)
    end = eol if eol is not None else end
    if _starts_line(text, start) and text[end : end + 1] in ("\n", "\r"):
        start = text.rfind("\n", 0, start) + 1
        end += 2 if text[end : end + 2] == "\r\n" else 1
    return (start, end, "")


def cut_last(text: str, prev: Member, target: Member) -> list[tuple[int, int, str]]:
    """Delete the last member: the comma after ``prev`` and the member itself."""
    comma = ws(text, prev.vend)
    start, end = comma + 1, target.vend
    newline = text.rfind("\n", 0, target.start)
    if _starts_line(text, target.start) and newline > comma:
        start = newline - 1 if text[newline - 1] == "\r" else newline
    eol = _line_comment_end(text, end)
    return [(comma, comma + 1, ""), (start, eol if eol is not None else end, "")]


def cut_only(text: str, open_: int, target: Member) -> list[tuple[int, int, str]]:
    """Delete the only member: the whole inside, unless comments must stay (then the member,
    and a trailing comma written after a comment)."""
    close = closing(text, target.vend)
    comma = ws(text, target.vend)
    end = _HWS.match(text, target.vend).end()
    end = end + 1 if text[end : end + 1] == "," else target.vend
    stray = [(comma, comma + 1, "")] if comma >= end and text[comma : comma + 1] == "," else []
    after = text[end:comma] + text[comma + 1 : close] if stray else text[end:close]
    rest = text[open_ + 1 : target.start] + after
    if not rest.strip():
        return [(open_ + 1, close, "")]
    start = target.start
    newline = text.rfind("\n", 0, start)
    if _starts_line(text, start) and newline > open_:
        start = newline - 1 if text[newline - 1] == "\r" else newline
    eol = _line_comment_end(text, end)
    return [(start, eol if eol is not None else end, ""), *stray]
