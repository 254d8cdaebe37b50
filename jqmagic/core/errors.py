"""The one exception family of jqmagic, with its stable error codes.

Every failure a user can cause is a :class:`JqMagicError` carrying

- ``code``: a stable, machine-readable code from :data:`CODES`;
- ``message``: one line saying what was attempted and why it failed;
- ``hint``: the next step to take (may be empty);
- ``detail``: optional extra lines, such as the offending line with a caret;
- ``facts``: what a face may read instead of the words (``{"documents": 2, "noun":
  "line"}`` for an edit of a stream's documents), never shown.

The message and hint name options and operations with :func:`~jqmagic.core.words.term`;
each face renders them in its own words (:meth:`JqMagicError.render`,
:meth:`JqMagicError.to_dict`), so an agent reads ``json_inspect with path "/users"`` where
a notebook reads ``%inspect``. ``.message`` and ``.hint`` are the notebook's words;
``raw_message`` and ``raw_hint`` keep the terms, for an error built from another one.
The faces print ``code: message`` plus the hint, never a traceback.
"""

from __future__ import annotations

import sys

CODES = {
    "INVALID_JSON": "a JSON / JSON Lines / JSONC document does not parse",
    "INVALID_YAML": "a YAML document does not parse or is refused",
    "INVALID_QUERY": "the jq program does not compile",
    "QUERY_ERROR": "the jq program raised an error while running",
    "NOT_FOUND": "a file, variable or path does not exist",
    "AMBIGUOUS_SOURCE": "no source, or more than one, was given",
    "FILE_ERROR": "a file could not be read or written",
    "SANDBOX_DENIED": "the sandbox refuses this file, address or command",
    "TIMEOUT": "the operation ran past its time limit",
    "INTERRUPTED": "the user interrupted the operation",
    "TOO_LARGE": "an input or output is beyond a size limit",
    "INVALID_POINTER": "a JSON Pointer is malformed",
    "PATCH_CONFLICT": "a patch does not apply, or the file changed meanwhile",
    "NETWORK_ERROR": "the network could not be reached",
    "HTTP_ERROR": "the server answered with an HTTP error status",
    "PARSE_ERROR": "a fetched document could not be converted",
    "INVALID_URL": "a URL is malformed or uses a refused scheme",
    "AUTH_MISSING": "credentials for a web service are missing",
    "AUTH_INVALID": "credentials for a web service were refused",
    "RATE_LIMIT": "a web service refused for too many requests",
    "API_ERROR": "a web service failed in another way",
    "INVALID_ARGUMENT": "an option or argument has a wrong value",
    "EXEC_ERROR": "a shell command failed or exited non-zero",
}


HINT_LABELS = {"notebook": "Hint:", "terminal": "hint:", "agent": "Hint:"}
"""How each face introduces a hint in running text (a JSON face has a ``hint`` member)."""


class JqMagicError(Exception):
    """A failure with a stable ``code``, a one-line ``message`` and a ``hint``."""

    def __init__(self, code: str, message: str, hint: str = "", detail: str = "",
                 facts: dict | None = None):
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.raw_message = message
        self.raw_hint = hint
        self.detail = detail
        self.facts = facts or {}
        self.result = None  # a partial result, when the operation had produced some
        self.exit_code: int | None = None  # halt_error's status, when the program set one

    @property
    def message(self) -> str:
        return for_face(self.raw_message, "notebook")

    @property
    def hint(self) -> str:
        return for_face(self.raw_hint, "notebook")

    @hint.setter
    def hint(self, hint: str) -> None:
        self.raw_hint = hint

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        hint = f", hint={self.hint!r}" if self.raw_hint else ""
        return f"{type(self).__name__}({self.code!r}, {self.message!r}{hint})"

    def __reduce__(self) -> tuple:
        """Pickled (and copied) whole, as a process pool sends it back to its caller."""
        return (type(self), (self.code, self.raw_message, self.raw_hint, self.detail),
                self.__dict__)

    def render(self, face: str = "notebook") -> str:
        """The full text ``face`` shows: ``code: message``, the detail, then the hint
        (``hint:`` in a terminal, as compilers write it; ``Hint:`` elsewhere)."""
        lines = [f"{self.code}: {for_face(self.raw_message, face)}"]
        if self.detail:
            lines.append(self.detail)
        hint = for_face(self.raw_hint, face)
        if hint:
            lines.append(f"{HINT_LABELS[face]} {hint}")
        return "\n".join(lines)

    def to_wire(self) -> dict:
        """Everything needed to raise this error again in another process."""
        return {"code": self.code, "message": self.raw_message, "hint": self.raw_hint,
                "detail": self.detail, "exit_code": self.exit_code, "facts": self.facts}

    @classmethod
    def from_wire(cls, data: dict) -> JqMagicError:
        """The error :meth:`to_wire` described."""
        error = cls(data["code"], data["message"], data.get("hint", ""), data.get("detail", ""),
                    data.get("facts"))
        error.exit_code = data.get("exit_code")
        return error

    def to_dict(self, face: str = "agent") -> dict:
        """The error as data, the one shape every JSON face answers with (tools, MCP,
        ``--json``): ``{"success": false, "error", "error_code", "hint", "detail"}``
        (hint and detail only when there are some), in ``face``'s words."""
        out: dict = {"success": False, "error": for_face(self.raw_message, face),
                     "error_code": self.code}
        hint = for_face(self.raw_hint, face)
        if hint:
            out["hint"] = hint
        if self.detail:
            out["detail"] = self.detail
        return out


def for_face(text: str, face: str) -> str:
    """``text`` in ``face``'s words (:func:`jqmagic.core.words.for_face`, imported when an
    error is said: never at a command's start-up)."""
    from jqmagic.core import words

    return words.for_face(text, face)


def out_of_memory(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a run out of memory: a MemoryError, or an exception raised over
    one (orjson under an address-space cap raises SystemError from a MemoryError)."""
    while exc is not None:
        if isinstance(exc, MemoryError):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def too_deep(what: str, hint: str) -> JqMagicError:
    """TOO_LARGE for a value nested deeper than Python can recurse (from a RecursionError)."""
    return JqMagicError("TOO_LARGE", f"{what} is nested too deeply to handle here "
                        f"(over about {sys.getrecursionlimit():,} levels).", hint)


def caret_excerpt(text: str, line: int, column: int, width: int = 100) -> str:
    """Show ``line`` (1-based) of ``text`` with a caret under ``column`` (1-based).

    Long lines are cut to a window of ``width`` characters around the column, so an
    error never dumps a whole minified document.
    """
    lines = text.splitlines() or [""]
    if not 1 <= line <= len(lines):
        return ""
    src = lines[line - 1].expandtabs(1)
    col = max(column, 1) - 1
    start = max(0, min(col - width // 2, len(src) - width))
    shown = src[start : start + width]
    prefix = "..." if start else ""
    suffix = "..." if start + width < len(src) else ""
    return f"    {prefix}{shown}{suffix}\n    {' ' * (len(prefix) + col - start)}^"
